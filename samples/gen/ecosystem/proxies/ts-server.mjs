// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk) on express, the backend of the proxies group's
// TS scenarios (a copy of compress/ts-server.mjs without the compression middleware): the SDK README's stateful
// pattern, a StreamableHTTPServerTransport per session (sessionIdGenerator randomUUID, no event store), SSE replies
// by default (no `id:` lines, no keep-alive comments on the standalone GET stream), plain HTTP/1.1 on 127.0.0.1.
//   node ts-server.mjs PORT
import express from 'express';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerTools } from './tools.mjs';

const port = Number(process.argv[2] ?? 18808);
const transports = {};

const app = express();
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
            onsessioninitialized: (id) => { transports[id] = transport; },
        });
        transport.onclose = () => { if (transport.sessionId) delete transports[transport.sessionId]; };
        await registerTools(new McpServer({ name: 'proxies-ts-server', version: '1.0.0' })).connect(transport);
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

app.listen(port, '127.0.0.1', () => console.error(`TS SDK server on 127.0.0.1:${port}/mcp`));
