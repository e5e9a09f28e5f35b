// TypeScript SDK Streamable HTTP server in STATELESS mode with only a POST route (the pattern of the SDK's
// simpleStatelessStreamableHttp example): a fresh McpServer + StreamableHTTPServerTransport
// ({ sessionIdGenerator: undefined }) per POST, no Mcp-Session-Id.
//   node post-only-server.mjs PORT            GET /mcp is not routed: express answers 404 "Cannot GET /mcp" (HTML)
//   node post-only-server.mjs PORT --get-405  GET /mcp answers 405 + JSON-RPC error, as the SDK example does
// Listens on 127.0.0.1 only.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import * as z from 'zod/v4';

const HOST = '127.0.0.1';
const PORT = Number(process.argv[2] ?? 18200);
const GET_405 = process.argv.includes('--get-405');

function getServer() {
    const server = new McpServer({ name: 'mcptap-sample-ts-stateless', version: '1.0.0' });
    server.registerTool('add', { description: 'Add two integers.', inputSchema: { a: z.number().int(), b: z.number().int() } },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
    server.registerTool('echo', { description: 'Echo the text back.', inputSchema: { text: z.string() } },
        async ({ text }) => ({ content: [{ type: 'text', text }] }));
    return server;
}

const app = createMcpExpressApp({ host: HOST });
app.post('/mcp', async (req, res) => {
    const server = getServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => { transport.close(); server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
});
if (GET_405) {
    const notAllowed = (req, res) => {
        res.writeHead(405, { Allow: 'POST' }).end(JSON.stringify({
            jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }));
    };
    app.get('/mcp', notAllowed);
    app.delete('/mcp', notAllowed);
}

const httpServer = app.listen(PORT, HOST, () => console.error(`ts stateless server on http://${HOST}:${PORT}/mcp`));
process.on('SIGTERM', () => { httpServer.closeAllConnections?.(); process.exit(0); });
process.on('SIGINT', () => process.exit(0));
