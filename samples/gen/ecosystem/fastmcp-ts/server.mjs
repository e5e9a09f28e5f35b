// FastMCP for TypeScript (npm fastmcp 4.20.16, punkpeye) on its httpStream transport, for the fastmcp-ts captures.
// fastmcp hands HTTP to mcp-proxy's startHTTPServer (node:http, its own routing and session map), which serves the
// Streamable HTTP endpoint (/mcp), the legacy HTTP+SSE endpoint (GET /sse, POST /messages?sessionId=; fastmcp passes
// no sseEndpoint, so mcp-proxy's default "/sse" is on), GET /ping ("pong"), and through fastmcp /health and /ready.
// Tools: add(a,b), echo(text), slow_count(n) (n x reportProgress 0.1 s apart; fastmcp sends notifications/progress
// only when the request carries a progressToken). Everything else is fastmcp's defaults (ping every 5 s on
// httpStream sessions, mcp-proxy's per-session InMemoryEventStore, SSE replies, 2026-07-28 leg on).
//   node server.mjs PORT                  # defaults (stateful: session ids)
//   node server.mjs PORT --stateless      # httpStream.stateless: true
//   node server.mjs PORT --auth TOKEN     # defaults plus an authenticate hook: a request without
//                                         # `Authorization: Bearer TOKEN` is rejected (fastmcp/mcp-proxy answer 401)
import { FastMCP } from 'fastmcp';
import { z } from 'zod';

const port = Number(process.argv[2] ?? 19140);
const stateless = process.argv.includes('--stateless');
const ai = process.argv.indexOf('--auth');
const token = ai > 0 ? process.argv[ai + 1] : undefined;

const options = { name: 'fastmcp-ts-server', version: '1.0.0' };
if (token) {
    // fastmcp's documented hook: return the session's auth data, or throw a Response to reject the request.
    options.authenticate = async (request) => {
        if (request.headers.authorization !== `Bearer ${token}`) {
            throw new Response(null, { status: 401, statusText: 'Unauthorized' });
        }
        return { user: 'mcptap' };
    };
}
const server = new FastMCP(options);
server.addTool({ name: 'add', description: 'a + b', parameters: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => String(a + b) });
server.addTool({ name: 'echo', description: 'echo text', parameters: z.object({ text: z.string() }),
    execute: async ({ text }) => text });
server.addTool({ name: 'slow_count', description: 'count with progress', parameters: z.object({ n: z.number() }),
    execute: async ({ n }, { reportProgress }) => {
        for (let i = 1; i <= n; i++) {
            await reportProgress({ progress: i, total: n });
            await new Promise((r) => setTimeout(r, 100));
        }
        return `counted ${n}`;
    } });

await server.start({
    transportType: 'httpStream',
    httpStream: { host: '127.0.0.1', port, endpoint: '/mcp', ...(stateless ? { stateless: true } : {}) },
});
console.error(`fastmcp server (${stateless ? 'stateless' : 'stateful'}${token ? ', authenticate' : ''}) on 127.0.0.1:${port}`);
