// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk 1.32.2, from agentsjs/node_modules) on express 5, the
// session routing of the SDK's own example server (dist/esm/examples/server/simpleStreamableHttp.js in 1.32.2): a
// StreamableHTTPServerTransport per session, sessionIdGenerator randomUUID, no event store, SSE replies, the sessions in
// a map in this process's memory (gone when it dies). An unknown or expired session id on POST, GET or DELETE: 404
// {"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null} ("the client should start a new
// session"); a POST without a session id that is not an initialize (a 2026-07-28 server/discover probe): 400 -32000
// "Bad Request: No valid session ID provided"; a GET or DELETE without one: 400 text "Missing session ID". Tool set of
// ../ts_common.mjs (add, echo, report, slow_count). It does not speak 2026-07-28. BOOT (1, 2, ...) goes into its
// serverInfo name, restartjs-ts-server-boot-BOOT, so the wire says which process answered an initialize.
//   node ts-server.mjs PORT BOOT
import { randomUUID } from 'node:crypto';
import { registerTools } from '../ts_common.mjs';
import { need } from './load.mjs';

const express = need('agentsjs', 'express');
const { z } = need('agentsjs', 'zod');
const { McpServer } = need('agentsjs', '@modelcontextprotocol/sdk/server/mcp.js');
const { StreamableHTTPServerTransport } = need('agentsjs', '@modelcontextprotocol/sdk/server/streamableHttp.js');
const { isInitializeRequest } = need('agentsjs', '@modelcontextprotocol/sdk/types.js');

const [port, boot] = [Number(process.argv[2]), process.argv[3] ?? '1'];
const name = `restartjs-ts-server-boot-${boot}`;
const notFound = (res) => res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
const transports = {};

const app = express();
app.use(express.json());
app.post('/mcp', async (req, res) => {
    const sid = req.headers['mcp-session-id'];
    if (sid && transports[sid]) { await transports[sid].handleRequest(req, res, req.body); return; }
    if (sid) { notFound(res); return; }
    if (!isInitializeRequest(req.body)) {
        res.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
        return;
    }
    const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => { transports[id] = transport; },
    });
    transport.onclose = () => { if (transport.sessionId) delete transports[transport.sessionId]; };
    await registerTools(new McpServer({ name, version: '1.0.0' }), z).connect(transport);
    await transport.handleRequest(req, res, req.body);
});
const sessionRequest = async (req, res) => {
    const sid = req.headers['mcp-session-id'];
    if (!sid) { res.status(400).send('Missing session ID'); return; }
    if (!transports[sid]) { notFound(res); return; }
    await transports[sid].handleRequest(req, res);
};
app.get('/mcp', sessionRequest);
app.delete('/mcp', sessionRequest);
app.listen(port, '127.0.0.1', () => console.error(`${name}: TS SDK server on 127.0.0.1:${port}/mcp`));
