// mcp-handler (Vercel, 2.x on the MCP SDK v2 @modelcontextprotocol/server) in a plain Node HTTP server
// (@hono/node-server's serve: node:http <-> fetch Request/Response, no framework), for the js-sdks captures.
// mcp-handler 2.x serves 2026-07-28 natively and 2025-era clients through the SDK's stateless legacy fallback.
// Tools: add(a,b), echo(text), slow_count(n) (n x notifications/progress 0.1 s apart when the request has a
// progressToken).   node mcp-handler-server.mjs PORT
import { serve } from '@hono/node-server';
import { createMcpHandler } from 'mcp-handler';
import { registerV2Tools } from './tools.mjs';

const port = Number(process.argv[2] ?? 18740);
const handler = createMcpHandler((server) => {
    registerV2Tools(server);
}, { serverInfo: { name: 'js-sdks-mcp-handler-server', version: '1.0.0' } });

// mcp-handler does not look at the path; mount it on /mcp only
serve({
    hostname: '127.0.0.1', port,
    fetch: (req) => (new URL(req.url).pathname === '/mcp' ? handler(req) : new Response('Not Found', { status: 404 })),
}, () => console.error(`mcp-handler server on 127.0.0.1:${port}/mcp`));
