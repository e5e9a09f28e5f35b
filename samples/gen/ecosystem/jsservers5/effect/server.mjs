// Effect's MCP server: @effect/ai 0.37.0 McpServer.layerHttp (its own JSON-RPC codec and HTTP protocol from
// @effect/rpc 0.76.2: RpcServer.layerProtocolHttp + RpcSerialization.layerJsonRpc, a POST route on HttpRouter.Default)
// served by @effect/platform-node 0.108.2's NodeHttpServer (node:http createServer), as the McpServer.layerHttp doc
// example sets it up, with a Toolkit of three tools registered by McpServer.toolkit: add, echo, slow_count (Effect's
// tool handlers get no progress callback, so slow_count only sleeps 0.1 s per step and sends no notifications/progress).
//   node server.mjs PORT          (127.0.0.1 only; path /mcp)
import { McpServer, Tool, Toolkit } from '@effect/ai';
import { HttpRouter } from '@effect/platform';
import { NodeHttpServer, NodeRuntime } from '@effect/platform-node';
import { Effect, Layer, Schema } from 'effect';
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 19630);

const Add = Tool.make('add', {
    description: 'Add two numbers',
    parameters: { a: Schema.Number, b: Schema.Number },
    success: Schema.Number,
});
const Echo = Tool.make('echo', {
    description: 'Echo the text back',
    parameters: { text: Schema.String },
    success: Schema.String,
});
const SlowCount = Tool.make('slow_count', {
    description: 'Count to n, 0.1 s per step',
    parameters: { n: Schema.Number },
    success: Schema.String,
});
const Tools = Toolkit.make(Add, Echo, SlowCount);
const ToolsLayer = Tools.toLayer({
    add: ({ a, b }) => Effect.succeed(a + b),
    echo: ({ text }) => Effect.succeed(text),
    slow_count: ({ n }) => Effect.sleep(`${100 * n} millis`).pipe(Effect.as(`counted to ${n}`)),
});

const ServerLayer = Layer.mergeAll(McpServer.toolkit(Tools), HttpRouter.Default.serve()).pipe(
    Layer.provide(ToolsLayer),
    Layer.provide(McpServer.layerHttp({ name: 'mcptap-jsservers5-effect', version: '1.0.0', path: '/mcp' })),
    Layer.provide(NodeHttpServer.layer(createServer, { port, host: '127.0.0.1' })),
);

Layer.launch(ServerLayer).pipe(NodeRuntime.runMain);
