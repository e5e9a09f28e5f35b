// The javah2 group's MCP server: the official Java SDK (modelcontextprotocol/java-sdk 2.0.1) stateful Streamable HTTP
// transport (HttpServletStreamableServerTransportProvider on /mcp, McpServer.sync, the javasdk group's tools add,
// echo, slow_count with progress) on embedded Tomcat 10.1, as the javasdk group's JavaSdkServer "streamable" mode,
// with one change: the HTTP/1.1 connector gets Tomcat's HTTP/2 upgrade protocol (connector.addUpgradeProtocol(new
// Http2Protocol()), Tomcat's documented way to enable HTTP/2; on a cleartext connector that is h2c: by
// `Upgrade: h2c` and by the prior-knowledge preface). Everything else Tomcat's and the SDK's defaults. With `sse`,
// the server uses the SDK's legacy HTTP+SSE transport instead (HttpServletSseServerTransportProvider: GET /sse, POST
// /mcp/message?sessionId=), as JavaSdkServer's "sse" mode.
//
//   java -cp "$(cat ../javasdk/build/classpath):build/classes" JavaH2Server PORT [sse]
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.transport.HttpServletSseServerTransportProvider;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.http.HttpServlet;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;
import java.util.Map;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.http2.Http2Protocol;

public class JavaH2Server {
    static Map<String, Object> schema(String... props) {
        var p = new java.util.LinkedHashMap<String, Object>();
        var req = new java.util.ArrayList<String>();
        for (String s : props) {
            String[] nt = s.split(":");
            p.put(nt[0], Map.of("type", nt[1]));
            req.add(nt[0]);
        }
        return Map.of("type", "object", "properties", p, "required", req);
    }

    static CallToolResult text(String s) {
        return CallToolResult.builder().content(List.of(new TextContent(s))).isError(false).build();
    }

    static long num(Map<String, Object> args, String k) {
        return ((Number) args.get(k)).longValue();
    }

    public static void main(String[] argv) throws Exception {
        int port = Integer.parseInt(argv[0]);
        boolean sse = argv.length > 1 && argv[1].equals("sse");
        HttpServlet t;
        McpServer.SyncSpecification<?> spec;
        if (sse) {
            var p = HttpServletSseServerTransportProvider.builder().jsonMapper(McpJsonDefaults.getMapper()).sseEndpoint("/sse")
                .messageEndpoint("/mcp/message").build();
            spec = McpServer.sync(p);
            t = p;
        } else {
            var p = HttpServletStreamableServerTransportProvider.builder().jsonMapper(McpJsonDefaults.getMapper()).mcpEndpoint("/mcp").build();
            spec = McpServer.sync(p);
            t = p;
        }
        spec.serverInfo(new McpSchema.Implementation(sse ? "javah2-sse" : "javah2-streamable", "2.0.1"))
            .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
            .tools(
                McpServerFeatures.SyncToolSpecification.builder()
                    .tool(Tool.builder().name("add").description("Add two integers").inputSchema(schema("a:integer", "b:integer")).build())
                    .callHandler((ex, req) -> text(String.valueOf(num(req.arguments(), "a") + num(req.arguments(), "b")))).build(),
                McpServerFeatures.SyncToolSpecification.builder()
                    .tool(Tool.builder().name("echo").description("Echo the text back").inputSchema(schema("text:string")).build())
                    .callHandler((ex, req) -> text(String.valueOf(req.arguments().get("text")))).build(),
                McpServerFeatures.SyncToolSpecification.builder()
                    .tool(Tool.builder().name("slow_count").description("Count to n, 0.1 s a step, reporting progress")
                        .inputSchema(schema("n:integer")).build())
                    .callHandler((ex, req) -> {
                        long n = num(req.arguments(), "n");
                        Object token = req.progressToken();
                        for (long i = 1; i <= n; i++) {
                            try { Thread.sleep(100); } catch (InterruptedException e) { Thread.currentThread().interrupt(); break; }
                            if (token != null) ex.progressNotification(new McpSchema.ProgressNotification(token, (double) i,
                                    (double) n, "step " + i + " of " + n, null));
                        }
                        return text("counted to " + n);
                    }).build())
            .build();
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(System.getProperty("java.io.tmpdir") + "/javah2-tomcat-" + port);
        Connector connector = new Connector("HTTP/1.1");
        connector.setPort(port);
        connector.setProperty("address", "127.0.0.1");
        connector.addUpgradeProtocol(new Http2Protocol());
        tomcat.setConnector(connector);
        Context ctx = tomcat.addContext("", null);
        Tomcat.addServlet(ctx, "mcp", t).setAsyncSupported(true);
        ctx.addServletMappingDecoded("/*", "mcp");
        tomcat.start();
        System.err.println("javah2 server (Java SDK 2.0.1, Tomcat " + org.apache.catalina.util.ServerInfo.getServerNumber()
                + ", h2c upgrade on) on 127.0.0.1:" + port);
        tomcat.getServer().await();
    }
}
