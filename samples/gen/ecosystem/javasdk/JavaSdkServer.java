// The javasdk group's MCP server: the official Java SDK (modelcontextprotocol/java-sdk 2.0.1, mcp-core +
// mcp-json-jackson2) with its servlet transports on embedded Tomcat 10.1 (Debian's libtomcat10-java), HTTP/1.1 on
// 127.0.0.1 only. Tools: add(a,b), echo(text), slow_count(n) (n notifications/progress 0.1 s apart when the request
// carries a progressToken), as the other groups' servers. Every transport with the SDK's defaults (no keep-alive
// interval, no security validator, the default endpoints) unless said.
//
//   java -cp "$(cat build/classpath)" JavaSdkServer MODE PORT
//     streamable   HttpServletStreamableServerTransportProvider (stateful Streamable HTTP) on /mcp, McpServer.sync
//     sse          HttpServletSseServerTransportProvider (legacy HTTP+SSE): GET /sse, POST /mcp/message?sessionId=
//     stateless    HttpServletStatelessServerTransport on /mcp, McpServer.sync (stateless: no session, no progress:
//                  a stateless tool handler gets no exchange to send notifications through)
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.transport.HttpServletSseServerTransportProvider;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import jakarta.servlet.http.HttpServlet;
import java.util.List;
import java.util.Map;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

public class JavaSdkServer {

    static Map<String, Object> schema(String... props) {   // name:type pairs, all required
        var p = new java.util.LinkedHashMap<String, Object>();
        var req = new java.util.ArrayList<String>();
        for (String s : props) {
            String[] nt = s.split(":");
            p.put(nt[0], Map.of("type", nt[1]));
            req.add(nt[0]);
        }
        return Map.of("type", "object", "properties", p, "required", req);
    }

    static final Tool ADD = Tool.builder().name("add").description("Add two integers").inputSchema(schema("a:integer", "b:integer")).build();
    static final Tool ECHO = Tool.builder().name("echo").description("Echo the text back").inputSchema(schema("text:string")).build();
    static final Tool SLOW = Tool.builder().name("slow_count").description("Count to n, 0.1 s a step, reporting progress")
            .inputSchema(schema("n:integer")).build();

    static CallToolResult text(String s) {
        return CallToolResult.builder().content(List.of(new TextContent(s))).isError(false).build();
    }

    static long num(Map<String, Object> args, String k) {
        return ((Number) args.get(k)).longValue();
    }

    static CallToolResult count(long n, java.util.function.Consumer<Long> onStep) {
        for (long i = 1; i <= n; i++) {
            try { Thread.sleep(100); } catch (InterruptedException e) { Thread.currentThread().interrupt(); break; }
            onStep.accept(i);
        }
        return text("counted to " + n);
    }

    public static void main(String[] argv) throws Exception {
        String mode = argv[0];
        int port = Integer.parseInt(argv[1]);
        var mapper = McpJsonDefaults.getMapper();
        var info = new McpSchema.Implementation("javasdk-" + mode, "2.0.1");
        var caps = McpSchema.ServerCapabilities.builder().tools(false).build();
        HttpServlet servlet;
        switch (mode) {
            case "streamable", "sse" -> {
                McpServerFeatures.SyncToolSpecification[] tools = {
                    McpServerFeatures.SyncToolSpecification.builder().tool(ADD)
                        .callHandler((ex, req) -> text(String.valueOf(num(req.arguments(), "a") + num(req.arguments(), "b")))).build(),
                    McpServerFeatures.SyncToolSpecification.builder().tool(ECHO)
                        .callHandler((ex, req) -> text(String.valueOf(req.arguments().get("text")))).build(),
                    McpServerFeatures.SyncToolSpecification.builder().tool(SLOW)
                        .callHandler((ex, req) -> {
                            long n = num(req.arguments(), "n");
                            Object token = req.progressToken();
                            return count(n, i -> {
                                if (token != null) {
                                    ex.progressNotification(new McpSchema.ProgressNotification(token, (double) i, (double) n,
                                            "step " + i + " of " + n, null));
                                }
                            });
                        }).build() };
                if (mode.equals("streamable")) {
                    var t = HttpServletStreamableServerTransportProvider.builder().jsonMapper(mapper).mcpEndpoint("/mcp").build();
                    McpServer.sync(t).serverInfo(info).capabilities(caps).tools(tools).build();
                    servlet = t;
                } else {
                    var t = HttpServletSseServerTransportProvider.builder().jsonMapper(mapper).sseEndpoint("/sse")
                        .messageEndpoint("/mcp/message").build();
                    McpServer.sync(t).serverInfo(info).capabilities(caps).tools(tools).build();
                    servlet = t;
                }
            }
            case "stateless" -> {
                var t = HttpServletStatelessServerTransport.builder().jsonMapper(mapper).messageEndpoint("/mcp").build();
                McpServer.sync(t).serverInfo(info).capabilities(caps).tools(
                    McpStatelessServerFeatures.SyncToolSpecification.builder().tool(ADD)
                        .callHandler((ctx, req) -> text(String.valueOf(num(req.arguments(), "a") + num(req.arguments(), "b")))).build(),
                    McpStatelessServerFeatures.SyncToolSpecification.builder().tool(ECHO)
                        .callHandler((ctx, req) -> text(String.valueOf(req.arguments().get("text")))).build(),
                    McpStatelessServerFeatures.SyncToolSpecification.builder().tool(SLOW)
                        .callHandler((ctx, req) -> count(num(req.arguments(), "n"), i -> { })).build()).build();
                servlet = t;
            }
            default -> throw new IllegalArgumentException("mode: streamable | sse | stateless");
        }

        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(System.getProperty("java.io.tmpdir") + "/javasdk-tomcat-" + port);
        Connector connector = new Connector("HTTP/1.1");
        connector.setPort(port);
        connector.setProperty("address", "127.0.0.1");
        tomcat.setConnector(connector);
        Context ctx = tomcat.addContext("", null);
        Tomcat.addServlet(ctx, "mcp", servlet).setAsyncSupported(true);
        ctx.addServletMappingDecoded("/*", "mcp");
        tomcat.start();
        System.err.println("javasdk " + mode + " server (Java SDK 2.0.1, Tomcat " + org.apache.catalina.util.ServerInfo.getServerNumber()
                + ") on 127.0.0.1:" + port);
        tomcat.getServer().await();
    }
}
