// The javah2 group's MCP client: the official Java SDK (modelcontextprotocol/java-sdk 2.0.1) McpClient.sync over its
// java.net.http transports, as the javasdk group's JavaSdkClient, with one change: the transport's HttpClient is built
// with .version(HttpClient.Version.HTTP_2) (the SDK's own default is HTTP_1_1). Over http:// java.net.http then
// offers `Upgrade: h2c` on its first request to a host (RFC 7540 section 3.2) and speaks HTTP/2 on that connection if
// the server answers 101; otherwise it stays on HTTP/1.1.
// One bounded session: initialize, tools/list, add(1,2), echo("hello"), slow_count(N) with a progressToken, HOLD_S
// seconds idle (default 0), add(40,2), closeGracefully. Each request times out after 10 s; the whole run after
// 30 + N/10 + HOLD_S s (exit 2). A step that fails is logged and the run goes on.
//
//   java -cp "$(cat ../javasdk/build/classpath):build/classes" JavaH2Client streamable|sse BASE_URL [SLOW_N [HOLD_S]]
//
// https:// (h2 by ALPN): the HttpClient gets an SSLContext that trusts the PEM certificate named by $JAVAH2_CA. OpenJDK
// 17 has no SSLKEYLOGFILE; with $JAVAH2_SECRETS set (and the JVM run with -Djdk.tls.client.protocols=TLSv1.2 and
// --add-opens java.base/sun.security.ssl=ALL-UNNAMED) the client writes, after its run, the TLS 1.2 master secret of
// every session in its SSLContext's client session cache (sun.security.ssl.SSLSessionImpl.masterSecret, read by
// reflection), one hex line each, to that file; the harness pairs it with the ClientHello random on the wire to make
// an NSS key log line (CLIENT_RANDOM).
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

public class JavaH2Client {
    static final long T0 = System.nanoTime();

    static void log(Object... parts) {
        StringBuilder sb = new StringBuilder(String.format("[%.3f]", (System.nanoTime() - T0) / 1e9));
        for (Object p : parts) sb.append(' ').append(p);
        System.err.println(sb);
    }

    static <T> T step(String name, Supplier<T> s) {
        try {
            return s.get();
        } catch (RuntimeException e) {
            log(name, "failed:", e);
            return null;
        }
    }

    static void call(McpSyncClient c, String name, Map<String, Object> args, Object token) {
        var b = McpSchema.CallToolRequest.builder().name(name).arguments(args);
        if (token != null) b.progressToken(token);
        var r = step(name, () -> c.callTool(b.build()));
        log(name, args, "->", r == null ? "no result" : r.content().stream()
                .map(x -> x instanceof McpSchema.TextContent t ? t.text() : x.toString()).toList());
        try { Thread.sleep(100); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
    }

    static void dumpSecrets(javax.net.ssl.SSLContext tls, String path) {
        try (var out = new java.io.PrintWriter(path)) {
            var sc = tls.getClientSessionContext();
            var f = Class.forName("sun.security.ssl.SSLSessionImpl").getDeclaredField("masterSecret");
            f.setAccessible(true);
            int n = 0;
            for (var ids = sc.getIds(); ids.hasMoreElements(); ) {
                var sess = sc.getSession(ids.nextElement());
                var key = (javax.crypto.SecretKey) f.get(sess);
                if (key == null || key.getEncoded() == null) continue;
                out.println(java.util.HexFormat.of().formatHex(key.getEncoded()));
                n++;
            }
            log("master secrets written:", n, "of", sc.getClass().getSimpleName());
        } catch (Exception e) {
            log("secrets not written:", e);
        }
    }

    public static void main(String[] argv) {
        String mode = argv[0], base = argv[1];
        int slow = argv.length > 2 ? Integer.parseInt(argv[2]) : 3;
        double hold = argv.length > 3 ? Double.parseDouble(argv[3]) : 0;
        Thread guard = new Thread(() -> {
            try { Thread.sleep((long) ((30 + slow / 10.0 + hold) * 1000)); } catch (InterruptedException e) { return; }
            log("client timed out");
            Runtime.getRuntime().halt(2);
        });
        guard.setDaemon(true);
        guard.start();

        HttpClient.Builder http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2);
        javax.net.ssl.SSLContext tls = null;
        if (System.getenv("JAVAH2_CA") != null) {
            try {
                var ks = java.security.KeyStore.getInstance(java.security.KeyStore.getDefaultType());
                ks.load(null);
                try (var in = new java.io.FileInputStream(System.getenv("JAVAH2_CA"))) {
                    ks.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
                }
                var tmf = javax.net.ssl.TrustManagerFactory.getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(ks);
                tls = javax.net.ssl.SSLContext.getInstance("TLS");
                tls.init(null, tmf.getTrustManagers(), null);
                http.sslContext(tls);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }
        McpClientTransport transport = switch (mode) {
            case "streamable" -> HttpClientStreamableHttpTransport.builder(base).endpoint("/mcp").clientBuilder(http).build();
            case "sse" -> HttpClientSseClientTransport.builder(base).sseEndpoint("/sse").clientBuilder(http).build();
            default -> throw new IllegalArgumentException("mode: streamable | sse");
        };
        AtomicInteger seen = new AtomicInteger();
        McpSyncClient client = McpClient.sync(transport)
                .clientInfo(new McpSchema.Implementation("mcptap-javah2-client", "2.0.1"))
                .requestTimeout(Duration.ofSeconds(10))
                .progressConsumer(p -> {
                    int k = seen.incrementAndGet();
                    if (k == 1 || k == slow) log("progress", p.progress(), p.total(), p.message());
                })
                .build();
        var init = step("initialize", client::initialize);
        if (init != null) log("negotiated", init.protocolVersion(), "server", init.serverInfo());
        var tools = step("tools/list", client::listTools);
        if (tools != null) log("tools", tools.tools().stream().map(McpSchema.Tool::name).toList());
        call(client, "add", Map.of("a", 1, "b", 2), null);
        call(client, "echo", Map.of("text", "hello"), null);
        call(client, "slow_count", Map.of("n", slow), "javah2-progress-1");
        log("progress notifications seen", seen.get());
        if (hold > 0) {
            log("holding", hold, "s");
            try { Thread.sleep((long) (hold * 1000)); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
        }
        call(client, "add", Map.of("a", 40, "b", 2), null);
        log("closed gracefully:", client.closeGracefully());
        if (tls != null && System.getenv("JAVAH2_SECRETS") != null) dumpSecrets(tls, System.getenv("JAVAH2_SECRETS"));
        log("done");
        System.exit(0);
    }
}
