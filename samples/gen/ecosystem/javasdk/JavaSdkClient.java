// The javasdk group's MCP client: the official Java SDK (modelcontextprotocol/java-sdk 2.0.1) McpClient.sync over
// its java.net.http transports with their defaults (the transports' own HttpClient builder: HTTP/1.1; the Streamable
// HTTP transport: openConnectionOnStartup=false, i.e. no GET before initialize, resumableStreams=true).
// One bounded session: initialize, tools/list, add(1,2), echo("hello"), slow_count(N) with a progressToken (the
// client's progressConsumer logs the notifications/progress), HOLD_S seconds idle (default 0), add(40,2),
// closeGracefully. Each request times out after 10 s; the whole run after 30 + N/10 + HOLD_S s (then the process
// exits 2). A step that fails is logged and the run goes on.
//
//   java -cp "$(cat build/classpath)" JavaSdkClient streamable BASE_URL [SLOW_N [HOLD_S]]   HttpClientStreamableHttpTransport, /mcp
//   java -cp "$(cat build/classpath)" JavaSdkClient sse BASE_URL [SLOW_N [HOLD_S]]          HttpClientSseClientTransport, GET /sse
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

public class JavaSdkClient {
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

        McpClientTransport transport = switch (mode) {
            case "streamable" -> HttpClientStreamableHttpTransport.builder(base).endpoint("/mcp").build();
            case "sse" -> HttpClientSseClientTransport.builder(base).sseEndpoint("/sse").build();
            default -> throw new IllegalArgumentException("mode: streamable | sse");
        };
        AtomicInteger seen = new AtomicInteger();
        McpSyncClient client = McpClient.sync(transport)
                .clientInfo(new McpSchema.Implementation("mcptap-javasdk-client", "2.0.1"))
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
        call(client, "slow_count", Map.of("n", slow), "javasdk-progress-1");
        log("progress notifications seen", seen.get());
        if (hold > 0) {
            log("holding", hold, "s");
            try { Thread.sleep((long) (hold * 1000)); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
        }
        call(client, "add", Map.of("a", 40, "b", 2), null);
        log("closed gracefully:", client.closeGracefully());
        log("done");
        System.exit(0);
    }
}
