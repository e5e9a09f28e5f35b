// The longlived group's Java SDK server: the official Java SDK (modelcontextprotocol/java-sdk 2.0.1, the javasdk
// group's build, ../javasdk/build, reused by path) HttpServletStreamableServerTransportProvider (stateful Streamable
// HTTP on /mcp) on embedded Tomcat 10.1 (Debian's libtomcat10-java), as ../javasdk/JavaSdkServer.java streamable,
// with the one option a user sets for long-lived sessions: the transport's keepAliveInterval (default none), whose
// KeepAliveScheduler sends every session a JSON-RPC `ping` request at that interval. Tool: add(a,b).
//
//   java -cp "CLASSPATH:CLASSES" LonglivedJavaServer PORT KEEPALIVE_S
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

public class LonglivedJavaServer {
    public static void main(String[] argv) throws Exception {
        int port = Integer.parseInt(argv[0]);
        long keepAlive = Long.parseLong(argv[1]);
        var schema = Map.<String, Object>of("type", "object", "properties",
                Map.of("a", Map.of("type", "integer"), "b", Map.of("type", "integer")), "required", List.of("a", "b"));
        var add = McpServerFeatures.SyncToolSpecification.builder()
                .tool(Tool.builder().name("add").description("Add two integers").inputSchema(schema).build())
                .callHandler((ex, req) -> CallToolResult.builder().content(List.of(new TextContent(String.valueOf(
                        ((Number) req.arguments().get("a")).longValue() + ((Number) req.arguments().get("b")).longValue()))))
                        .isError(false).build())
                .build();
        var t = HttpServletStreamableServerTransportProvider.builder().jsonMapper(McpJsonDefaults.getMapper())
                .mcpEndpoint("/mcp").keepAliveInterval(Duration.ofSeconds(keepAlive)).build();
        McpServer.sync(t).serverInfo(new McpSchema.Implementation("longlived-java-keepalive", "2.0.1"))
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build()).tools(add).build();

        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(System.getProperty("java.io.tmpdir") + "/longlived-tomcat-" + port);
        Connector connector = new Connector("HTTP/1.1");
        connector.setPort(port);
        connector.setProperty("address", "127.0.0.1");
        tomcat.setConnector(connector);
        Context ctx = tomcat.addContext("", null);
        Tomcat.addServlet(ctx, "mcp", t).setAsyncSupported(true);
        ctx.addServletMappingDecoded("/*", "mcp");
        tomcat.start();
        System.err.println("longlived Java SDK 2.0.1 server, keepAliveInterval " + keepAlive + " s, on 127.0.0.1:" + port);
        tomcat.getServer().await();
    }
}
