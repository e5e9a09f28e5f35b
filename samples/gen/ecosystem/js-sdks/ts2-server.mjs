// Official TypeScript SDK v2 server (@modelcontextprotocol/server 2.x) with its default HTTP entry, createMcpHandler
// (2026-07-28 served natively, per request; 2025-era traffic through the default legacy: 'stateless' fallback;
// responseMode 'auto': JSON unless the tool emits a related message first), in a plain Node HTTP server
// (@hono/node-server's serve: node:http <-> fetch Request/Response, no framework), for the js-sdks captures.
// Tools: add(a,b), echo(text), slow_count(n) (n x notifications/progress 0.1 s apart when the request has a
// progressToken).   node ts2-server.mjs PORT
import { serve } from '@hono/node-server';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { registerV2Tools } from './tools.mjs';

const port = Number(process.argv[2] ?? 18741);
const factory = () => registerV2Tools(new McpServer({ name: 'js-sdks-ts2-server', version: '1.0.0' }));
const handler = createMcpHandler(factory, { onerror: (e) => console.error('server error:', e?.message ?? e) });

serve({
    hostname: '127.0.0.1', port,
    fetch: (req) => (new URL(req.url).pathname === '/mcp' ? handler.fetch(req) : new Response('Not Found', { status: 404 })),
}, () => console.error(`ts2 (SDK v2) server on 127.0.0.1:${port}/mcp`));
