// The longlived group's Java SDK client driver: the official Java SDK (modelcontextprotocol/java-sdk 2.0.1, the
// javasdk group's build, ../javasdk/build, reused by path) McpClient.sync over HttpClientStreamableHttpTransport with
// its defaults (the transport's own java.net.http HttpClient, HTTP/1.1; openConnectionOnStartup=false means no GET
// before initialize: it opens its standalone GET stream right after initialize, as the wire shows; on a 404 for its
// session the SDK re-initializes on its own, see samples/ecosystem/javasdk.md restart-java).
// One long-lived session: initialize, tools/list, then CALLS times add(i, 1), GAP_S seconds idle before each, then
// closeGracefully (DELETE). A call that fails is logged and the run goes on with the same client. Each request
// times out after 20 s; the whole run after 30 + CALLS * (GAP_S + 20) s (then the process exits 2).
//
//   java -cp "CLASSPATH:CLASSES" LonglivedJavaClient BASE_URL GAP_S CALLS
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.Map;

public class LonglivedJavaClient {
    static final long T0 = System.nanoTime();

    static void log(Object... parts) {
        StringBuilder sb = new StringBuilder(String.format("[%.3f]", (System.nanoTime() - T0) / 1e9));
        for (Object p : parts) sb.append(' ').append(p);
        System.err.println(sb);
    }

    public static void main(String[] argv) throws Exception {
        String base = argv[0];
        double gap = Double.parseDouble(argv[1]);
        int calls = Integer.parseInt(argv[2]);
        Thread guard = new Thread(() -> {
            try { Thread.sleep((long) ((30 + calls * (gap + 20)) * 1000)); } catch (InterruptedException e) { return; }
            log("client timed out");
            Runtime.getRuntime().halt(2);
        });
        guard.setDaemon(true);
        guard.start();
        var transport = HttpClientStreamableHttpTransport.builder(base).build();
        McpSyncClient c = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20))
                .clientInfo(new McpSchema.Implementation("mcptap-longlived-java-client", "1.0.0")).build();
        var init = c.initialize();
        log("negotiated", init.protocolVersion(), "server", init.serverInfo());
        log("tools", c.listTools().tools().stream().map(McpSchema.Tool::name).toList());
        for (int i = 0; i < calls; i++) {
            log("idle", gap, "s");
            Thread.sleep((long) (gap * 1000));
            final int a = i;
            try {
                var r = c.callTool(McpSchema.CallToolRequest.builder().name("add").arguments(Map.of("a", a, "b", 1)).build());
                log("add", a, 1, "->", r.content().stream()
                        .map(x -> x instanceof McpSchema.TextContent t ? t.text() : x.toString()).toList());
            } catch (RuntimeException e) {
                log("add failed:", e);
            }
        }
        try { c.closeGracefully(); } catch (RuntimeException e) { log("close failed:", e); }
        log("done");
        Runtime.getRuntime().halt(0);
    }
}
