// mcp-lite server (StreamableHttpTransport) in a Hono app served by @hono/node-server, for the js-sdks captures.
// Tools: add(a,b), echo(text), slow_count(n) (n x notifications/progress 0.1 s apart when the request has a
// progressToken).
//   node mcp-lite-server.mjs PORT             # stateless default (no adapters)
//   node mcp-lite-server.mjs PORT --sessions  # InMemorySessionAdapter: session ids, GET stream, SSE event ids
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { McpServer, StreamableHttpTransport, InMemorySessionAdapter } from 'mcp-lite';
import { z } from 'zod/v4';

const port = Number(process.argv[2] ?? 18710);
const sessions = process.argv.includes('--sessions');
const mcp = new McpServer({
    name: 'js-sdks-mcp-lite-server', version: '1.0.0',
    schemaAdapter: (schema) => z.toJSONSchema(schema),
});
const text = (t) => ({ content: [{ type: 'text', text: String(t) }] });
mcp.tool('add', { description: 'a + b', inputSchema: z.object({ a: z.number(), b: z.number() }),
    handler: ({ a, b }) => text(a + b) });
mcp.tool('echo', { description: 'echo text', inputSchema: z.object({ text: z.string() }),
    handler: ({ text: t }) => text(t) });
mcp.tool('slow_count', { description: 'count with progress', inputSchema: z.object({ n: z.number() }),
    handler: async ({ n }, ctx) => {
        for (let i = 1; i <= n; i++) {
            await ctx.progress?.({ progress: i, total: n, message: `step ${i}` });
            await new Promise((r) => setTimeout(r, 100));
        }
        return text(`counted ${n}`);
    } });

const transport = new StreamableHttpTransport(sessions ? { sessionAdapter: new InMemorySessionAdapter({ maxEventBufferSize: 1024 }) } : {});
const handler = transport.bind(mcp);
const app = new Hono();
app.all('/mcp', (c) => handler(c.req.raw));
serve({ fetch: app.fetch, hostname: '127.0.0.1', port },
    () => console.error(`mcp-lite server (${sessions ? 'sessions' : 'stateless'}) on 127.0.0.1:${port}/mcp`));
