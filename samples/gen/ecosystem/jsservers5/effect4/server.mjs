// Effect 4's MCP server: effect 4.1.5 `effect/ai` McpServer.layerHttp (its own Streamable HTTP code over Effect's
// HttpRouter and its own JSON-RPC codec, no MCP SDK) served by @effect/platform-node 4.1.5's NodeHttpServer
// (node:http createServer), via HttpRouter.serve. A Toolkit of three tools registered by McpServer.toolkit:
// add, echo, slow_count (one notifications/progress per step, 0.1 s apart, through the McpServer service's
// notification client, when the request carries a progressToken).
//   node server.mjs PORT MODE        (127.0.0.1 only; path /mcp)
// MODE: stateful  protocols [v2025_11_25, v2025_06_18, v2025_03_26] with allowSessionTermination: true
//                 (sessions, Mcp-Session-Id, DELETE ends the session)
//       both      protocols [v2026_07_28, v2025_11_25] with allowSessionTermination: true (sessionless 2026-07-28
//                 beside the sessionful 2025-11-25)
//       modern    protocols [v2026_07_28] only (sessionless)
import { NodeHttpServer, NodeRuntime } from '@effect/platform-node';
import { Effect, Layer, Schema } from 'effect';
import { McpProtocol, McpSchema, McpServer, Tool, Toolkit } from 'effect/ai';
import { HttpRouter } from 'effect/http';
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 19640);
const mode = process.argv[3] ?? 'stateful';
const protocols = {
    stateful: [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26],
    both: [McpProtocol.v2026_07_28, McpProtocol.v2025_11_25],
    modern: [McpProtocol.v2026_07_28],
}[mode];

const Add = Tool.make('add', {
    description: 'Add two numbers',
    parameters: Schema.Struct({ a: Schema.Number, b: Schema.Number }),
    success: Schema.Number,
});
const Echo = Tool.make('echo', {
    description: 'Echo the text back',
    parameters: Schema.Struct({ text: Schema.String }),
    success: Schema.String,
});
const SlowCount = Tool.make('slow_count', {
    description: 'Count to n, 0.1 s per step, with progress notifications',
    parameters: Schema.Struct({ n: Schema.Number }),
    success: Schema.String,
});
const Tools = Toolkit.make(Add, Echo, SlowCount);
const ToolsLayer = Tools.toLayer({
    add: ({ a, b }) => Effect.succeed(a + b),
    echo: ({ text }) => Effect.succeed(text),
    slow_count: ({ n }) => Effect.gen(function* () {
        const server = yield* McpServer.McpServer;
        const ctx = yield* McpSchema.McpRequestContext;
        const token = ctx.requestMetadata?.progressToken;
        for (let i = 1; i <= n; i++) {
            yield* Effect.sleep('100 millis');
            if (token !== undefined) {
                yield* server.notifications['notifications/progress']({ progressToken: token, progress: i, total: n, message: `step ${i}` });
            }
        }
        return `counted to ${n}`;
    }),
});

const McpLayer = McpServer.layerHttp({
    name: `mcptap-jsservers5-effect4-${mode}`,
    version: '1.0.0',
    path: '/mcp',
    protocols,
    allowSessionTermination: true,
    registrations: McpServer.toolkit(Tools).pipe(Layer.provide(ToolsLayer)),
});

HttpRouter.serve(McpLayer).pipe(
    Layer.provide(NodeHttpServer.layer(createServer, { port, host: '127.0.0.1' })),
    Layer.launch,
    NodeRuntime.runMain,
);
