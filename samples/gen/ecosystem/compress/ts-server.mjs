// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk) on express, behind the npm `compression`
// middleware with its defaults (app.use(compression()) before the MCP route: threshold 1 KB, br preferred over gzip
// when the client accepts both, filter = compressible Content-Type, skips `Cache-Control: no-transform`).
// The SDK README's stateful pattern: a StreamableHTTPServerTransport per session (sessionIdGenerator randomUUID, no
// event store), SSE replies by default, --json for enableJsonResponse: true.
//   node ts-server.mjs PORT [--json]
import express from 'express';
import compression from 'compression';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerTools } from './tools.mjs';

const port = Number(process.argv[2] ?? 18875);
const json = process.argv.includes('--json');
const transports = {};

const app = express();
app.use(compression());
app.use(express.json());

app.post('/mcp', async (req, res) => {
    const sid = req.headers['mcp-session-id'];
    let transport = sid ? transports[sid] : undefined;
    if (!transport) {
        if (sid || !isInitializeRequest(req.body)) {
            res.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
            return;
        }
        transport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            enableJsonResponse: json,
            onsessioninitialized: (id) => { transports[id] = transport; },
        });
        transport.onclose = () => { if (transport.sessionId) delete transports[transport.sessionId]; };
        await registerTools(new McpServer({ name: 'compress-ts-server', version: '1.0.0' })).connect(transport);
    }
    await transport.handleRequest(req, res, req.body);
});

const sessionRequest = async (req, res) => {
    const sid = req.headers['mcp-session-id'];
    const transport = sid ? transports[sid] : undefined;
    if (!transport) { res.status(400).send('Invalid or missing session ID'); return; }
    await transport.handleRequest(req, res);
};
app.get('/mcp', sessionRequest);
app.delete('/mcp', sessionRequest);

app.listen(port, '127.0.0.1', () => console.error(`TS SDK server (express + compression${json ? ', JSON replies' : ''}) on 127.0.0.1:${port}/mcp`));
