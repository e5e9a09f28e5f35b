// TypeScript SDK legacy HTTP+SSE server (deprecated SSEServerTransport, the pattern of the SDK's
// simpleSseServer example): GET /sse opens the stream and sends `event: endpoint` (/messages?sessionId=<uuid>),
// POST /messages?sessionId=... carries the client's messages (202), replies go on the GET stream.
//   node legacy-server.mjs PORT              POST /sse is not routed: express answers 404 "Cannot POST /sse" (HTML)
//   node legacy-server.mjs PORT --post-html  POST /sse answers 200 text/html (an SPA catch-all page)
// Listens on 127.0.0.1 only.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import * as z from 'zod/v4';

const HOST = '127.0.0.1';
const PORT = Number(process.argv[2] ?? 18200);
const POST_HTML = process.argv.includes('--post-html');

function getServer() {
    const server = new McpServer({ name: 'mcptap-sample-ts-legacy', version: '1.0.0' });
    server.registerTool('add', { description: 'Add two integers.', inputSchema: { a: z.number().int(), b: z.number().int() } },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
    server.registerTool('echo', { description: 'Echo the text back.', inputSchema: { text: z.string() } },
        async ({ text }) => ({ content: [{ type: 'text', text }] }));
    return server;
}

const transports = {};
const app = createMcpExpressApp({ host: HOST });
app.get('/sse', async (req, res) => {
    const transport = new SSEServerTransport('/messages', res);
    transports[transport.sessionId] = transport;
    res.on('close', () => { delete transports[transport.sessionId]; });
    await getServer().connect(transport);
});
app.post('/messages', async (req, res) => {
    const transport = transports[req.query.sessionId];
    if (!transport) { res.status(400).send('No transport found for sessionId'); return; }
    await transport.handlePostMessage(req, res, req.body);
});
if (POST_HTML) {
    const page = '<!doctype html>\n<html><head><meta charset="utf-8"><title>Acme tools</title></head>\n'
        + '<body><div id="root"></div><script src="/assets/index.js"></script></body></html>\n';
    app.post('/sse', (req, res) => { res.status(200).type('html').send(page); });
}

const httpServer = app.listen(PORT, HOST, () => console.error(`ts legacy SSE server on http://${HOST}:${PORT}/sse`));
process.on('SIGTERM', () => { httpServer.closeAllConnections?.(); process.exit(0); });
process.on('SIGINT', () => process.exit(0));
