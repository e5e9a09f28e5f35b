// tmcp server (tmcp + @tmcp/transport-http, valibot adapter) on node:http, for the js-sdks captures.
// Tools: add(a,b), echo(text), slow_count(n) (n x notifications/progress 0.1 s apart when the request has a
// progressToken). The transport keeps sessions (in-memory session managers, the default) for clients that
// initialize.   node tmcp-server.mjs PORT
import { serve } from '@hono/node-server';
import { McpServer } from 'tmcp';
import { HttpTransport } from '@tmcp/transport-http';
import { ValibotJsonSchemaAdapter } from '@tmcp/adapter-valibot';
import * as v from 'valibot';

const port = Number(process.argv[2] ?? 18700);
const server = new McpServer(
    { name: 'js-sdks-tmcp-server', version: '1.0.0', description: 'mcptap js-sdks capture server' },
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

const transport = new HttpTransport(server, { path: '/mcp' });

// served by @hono/node-server (node:http <-> fetch Request/Response), as mcp-lite is
serve({
    hostname: '127.0.0.1', port,
    fetch: async (request) => (await transport.respond(request)) ?? new Response('Not Found', { status: 404 }),
}, () => console.error(`tmcp server on 127.0.0.1:${port}/mcp`));
