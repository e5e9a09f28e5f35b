// TypeScript SDK Streamable HTTP server (stateful) for the mcptap incident captures: server.mjs plus options.
// Default SDK behaviour: POST replies as text/event-stream, no event store (no `id:` lines).
// Usage: node stateful-server.mjs PORT [--keepalive-ms N]   (listens on 127.0.0.1 only)
//   --keepalive-ms N  StreamableHTTPServerTransport option keepAliveMs (SDK default 15000: a `: keepalive`
//                     comment every 15 s on open SSE streams; 0 turns the keep-alives off)
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';

const HOST = '127.0.0.1';
const PORT = Number(process.argv[2] ?? 18103);
const k = process.argv.indexOf('--keepalive-ms');
const KEEPALIVE_MS = k > 0 ? Number(process.argv[k + 1]) : undefined;

function getServer() {
    const server = new McpServer({ name: 'mcptap-sample-ts', version: '1.0.0' });
    server.registerTool('add', { description: 'Add two integers.', inputSchema: { a: z.number().int(), b: z.number().int() } },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
    server.registerTool('echo', { description: 'Echo the text back.', inputSchema: { text: z.string() } },
        async ({ text }) => ({ content: [{ type: 'text', text }] }));
    return server;
}

const transports = new Map(); // session id -> transport
const app = createMcpExpressApp({ host: HOST });

app.post('/mcp', async (req, res) => {
    const sid = req.headers['mcp-session-id'];
    let transport = sid ? transports.get(sid) : undefined;
    if (!transport) {
        if (sid || !isInitializeRequest(req.body)) {
            res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
            return;
        }
        transport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            ...(KEEPALIVE_MS !== undefined ? { keepAliveMs: KEEPALIVE_MS } : {}),
            onsessioninitialized: (id) => transports.set(id, transport),
        });
        transport.onclose = () => { if (transport.sessionId) transports.delete(transport.sessionId); };
        await getServer().connect(transport);
    }
    await transport.handleRequest(req, res, req.body);
});

const sessionRequest = async (req, res) => {
    const transport = transports.get(req.headers['mcp-session-id']);
    if (!transport) {
        res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
        return;
    }
    await transport.handleRequest(req, res);
};
app.get('/mcp', sessionRequest);
app.delete('/mcp', sessionRequest);

const httpServer = app.listen(PORT, HOST, () => console.error(`ts stateful server (keepAliveMs ${KEEPALIVE_MS ?? 'default'}) on http://${HOST}:${PORT}/mcp`));
process.on('SIGTERM', () => { httpServer.closeAllConnections?.(); process.exit(0); });
process.on('SIGINT', () => process.exit(0));
