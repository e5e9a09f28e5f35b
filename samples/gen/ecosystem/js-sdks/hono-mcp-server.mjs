// @hono/mcp StreamableHTTPTransport (its own Streamable HTTP code on Hono) with the official SDK's McpServer,
// served by @hono/node-server, for the js-sdks captures. Tools: add(a,b), echo(text), slow_count(n) (n x
// notifications/progress 0.1 s apart, related to the request, when it has a progressToken).
//   node hono-mcp-server.mjs PORT             # the README's setup: one transport, no sessionIdGenerator (stateless)
//   node hono-mcp-server.mjs PORT --sessions  # a transport + McpServer per session: sessionIdGenerator randomUUID,
//                                             # @hono/mcp's MemoryEventStore (SSE event ids)
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { StreamableHTTPTransport, MemoryEventStore } from '@hono/mcp';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerV1Tools } from './tools.mjs';

const port = Number(process.argv[2] ?? 18735);
const sessions = process.argv.includes('--sessions');

function makeServer() {
    return registerV1Tools(new McpServer({ name: 'js-sdks-hono-mcp-server', version: '1.0.0' }));
}

const app = new Hono();
if (!sessions) {
    const mcp = makeServer();
    const transport = new StreamableHTTPTransport();
    app.all('/mcp', async (c) => {
        if (!mcp.isConnected()) await mcp.connect(transport);
        return transport.handleRequest(c);
    });
} else {
    const transports = new Map();
    app.all('/mcp', async (c) => {
        const sid = c.req.header('mcp-session-id');
        let transport = sid ? transports.get(sid) : undefined;
        if (!transport) {
            if (sid) return c.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, 404);
            transport = new StreamableHTTPTransport({
                sessionIdGenerator: () => randomUUID(),
                eventStore: new MemoryEventStore(),
                onsessioninitialized: (id) => { transports.set(id, transport); },
            });
            transport.onclose = () => { if (transport.sessionId) transports.delete(transport.sessionId); };
            await makeServer().connect(transport);
        }
        return transport.handleRequest(c);
    });
}
serve({ fetch: app.fetch, hostname: '127.0.0.1', port },
    () => console.error(`@hono/mcp server (${sessions ? 'sessions' : 'stateless'}) on 127.0.0.1:${port}/mcp`));
