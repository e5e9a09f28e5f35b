// @hono/mcp StreamableHTTPTransport (its own Streamable HTTP code on Hono) with the official SDK's McpServer, behind
// Hono's built-in compress() middleware with its defaults (app.use(compress()): gzip or deflate by Accept-Encoding,
// threshold 1 KB, COMPRESSIBLE_CONTENT_TYPE_REGEX, which leaves text/event-stream out; it also skips any response
// that already has Transfer-Encoding or Content-Encoding), served by @hono/node-server.
// A transport + McpServer per session (sessionIdGenerator randomUUID, no event store); SSE replies by default,
// --json for enableJsonResponse: true.
//   node hono-server.mjs PORT [--json]
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { serve } from '@hono/node-server';
import { StreamableHTTPTransport } from '@hono/mcp';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerTools } from './tools.mjs';

const port = Number(process.argv[2] ?? 18881);
const json = process.argv.includes('--json');
const transports = new Map();

const app = new Hono();
app.use(compress());
app.all('/mcp', async (c) => {
    const sid = c.req.header('mcp-session-id');
    let transport = sid ? transports.get(sid) : undefined;
    if (!transport) {
        if (sid) return c.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, 404);
        transport = new StreamableHTTPTransport({
            sessionIdGenerator: () => randomUUID(),
            enableJsonResponse: json,
            onsessioninitialized: (id) => { transports.set(id, transport); },
        });
        transport.onclose = () => { if (transport.sessionId) transports.delete(transport.sessionId); };
        await registerTools(new McpServer({ name: 'compress-hono-server', version: '1.0.0' })).connect(transport);
    }
    return transport.handleRequest(c);
});
serve({ fetch: app.fetch, hostname: '127.0.0.1', port },
    () => console.error(`@hono/mcp server (hono compress()${json ? ', JSON replies' : ''}) on 127.0.0.1:${port}/mcp`));
