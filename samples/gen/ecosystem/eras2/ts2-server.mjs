// Official TypeScript SDK v2 server (@modelcontextprotocol/server 2.4.0) with its default HTTP entry,
// createMcpHandler (2026-07-28 natively, 2025-era traffic through the default legacy: 'stateless' fallback,
// responseMode 'auto'), in a plain node:http server (@hono/node-server's serve), for the eras2 captures (old
// clients against a 2026-07-28 server). Tools: add(a,b), echo(text), slow_count(n) (progress when asked).
//   node ts2-server.mjs PORT
import { serve } from '@hono/node-server';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod/v4';

const port = Number(process.argv[2] ?? 20417);
const text = (t) => ({ content: [{ type: 'text', text: String(t) }] });
function factory() {
    const server = new McpServer({ name: 'eras2-ts2-server', version: '1.0.0' });
    server.registerTool('add', { description: 'a + b', inputSchema: z.object({ a: z.number(), b: z.number() }) },
        async ({ a, b }) => text(a + b));
    server.registerTool('echo', { description: 'echo text', inputSchema: z.object({ text: z.string() }) },
        async ({ text: t }) => text(t));
    server.registerTool('slow_count', { description: 'count with progress', inputSchema: z.object({ n: z.number() }) },
        async ({ n }, ctx) => {
            const token = ctx.mcpReq._meta?.progressToken;
            for (let i = 1; i <= n; i++) {
                if (token !== undefined) {
                    await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n } });
                }
                await new Promise((r) => setTimeout(r, 100));
            }
            return text(`counted ${n}`);
        });
    return server;
}
const handler = createMcpHandler(factory, { onerror: (e) => console.error('server error:', e?.message ?? e) });
serve({
    hostname: '127.0.0.1', port,
    fetch: (req) => (new URL(req.url).pathname === '/mcp' ? handler.fetch(req) : new Response('Not Found', { status: 404 })),
}, () => console.error(`ts2 (SDK v2 2.4.0) server on 127.0.0.1:${port}/mcp`));
