// tmcp 1.20.0 with its legacy HTTP+SSE transport, @tmcp/transport-sse 0.6.0 (its own SSE/JSON-RPC code, no MCP SDK;
// README defaults: GET /sse for the event stream, POST /message for messages), served by @hono/node-server (node:http
// <-> fetch Request/Response, as the js-sdks group serves tmcp's HTTP transport), valibot adapter. Tools: add(a,b),
// echo(text), slow_count(n) (n x server.progress 0.1 s apart).
//   node server.mjs PORT        (127.0.0.1 only)
import { serve } from '@hono/node-server';
import { McpServer } from 'tmcp';
import { SseTransport } from '@tmcp/transport-sse';
import { ValibotJsonSchemaAdapter } from '@tmcp/adapter-valibot';
import * as v from 'valibot';

const port = Number(process.argv[2] ?? 19639);
const server = new McpServer(
    { name: 'mcptap-jsservers5-tmcp-sse', version: '1.0.0', description: 'mcptap jsservers5 capture server' },
    { adapter: new ValibotJsonSchemaAdapter(), capabilities: { tools: { listChanged: true } } },
);
const text = (t) => ({ content: [{ type: 'text', text: String(t) }] });
server.tool({ name: 'add', description: 'a + b', schema: v.object({ a: v.number(), b: v.number() }) },
    async ({ a, b }) => text(a + b));
server.tool({ name: 'echo', description: 'echo text', schema: v.object({ text: v.string() }) },
    async ({ text: t }) => text(t));
server.tool({ name: 'slow_count', description: 'count with progress', schema: v.object({ n: v.number() }) },
    async ({ n }) => {
        for (let i = 1; i <= n; i++) {
            server.progress(i, n, `step ${i}`);
            await new Promise((r) => setTimeout(r, 100));
        }
        return text(`counted ${n}`);
    });

const transport = new SseTransport(server);

serve({
    hostname: '127.0.0.1', port,
    fetch: async (request) => (await transport.respond(request)) ?? new Response(null, { status: 404 }),
}, () => console.error(`tmcp SSE server on 127.0.0.1:${port}/sse`));
