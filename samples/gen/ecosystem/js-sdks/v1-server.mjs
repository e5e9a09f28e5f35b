// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk) with stateful defaults: McpServer +
// StreamableHTTPServerTransport per session (sessionIdGenerator randomUUID, no event store, SSE replies), on a plain
// node:http server, for the js-sdks captures (the v2 client's fallback to initialize).
// Tools: add(a,b), echo(text), slow_count(n) (n x notifications/progress 0.1 s apart when the request has a
// progressToken).   node v1-server.mjs PORT
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerV1Tools } from './tools.mjs';

const port = Number(process.argv[2] ?? 18745);
const makeServer = () => registerV1Tools(new McpServer({ name: 'js-sdks-v1-server', version: '1.0.0' }));

const transports = new Map();
const readBody = (req) => new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => { const s = Buffer.concat(chunks).toString(); try { resolve(s ? JSON.parse(s) : undefined); } catch { resolve(undefined); } });
    req.on('error', reject);
});
const jsonError = (res, status, code, message) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
};

createServer(async (req, res) => {
    if (new URL(req.url, 'http://x').pathname !== '/mcp') { res.writeHead(404).end('Not Found'); return; }
    const sid = req.headers['mcp-session-id'];
    if (req.method === 'POST') {
        const body = await readBody(req);
        let transport = sid ? transports.get(sid) : undefined;
        if (!transport) {
            if (sid || !isInitializeRequest(body)) {
                // the SDK's documented example: no valid session and not an initialize
                jsonError(res, 400, -32000, 'Bad Request: No valid session ID provided'); return;
            }
            transport = new StreamableHTTPServerTransport({
                sessionIdGenerator: () => randomUUID(),
                onsessioninitialized: (id) => transports.set(id, transport),
            });
            transport.onclose = () => { if (transport.sessionId) transports.delete(transport.sessionId); };
            await makeServer().connect(transport);
        }
        await transport.handleRequest(req, res, body);
        return;
    }
    const transport = sid ? transports.get(sid) : undefined;
    if (!transport) { jsonError(res, 400, -32000, 'Bad Request: No valid session ID provided'); return; }
    await transport.handleRequest(req, res);
}).listen(port, '127.0.0.1', () => console.error(`v1 SDK server on 127.0.0.1:${port}/mcp`));
