// sensor5's TS server: sensor4's, copied unchanged (serverInfo still says sensor3-ts); sensor4's TS server (sensor3's, plus wait(s) and a json mode): the official TypeScript SDK (@modelcontextprotocol/sdk 1.32.2, this folder's node_modules) on
// express 5.3.0, the SDK README's stateful pattern: a StreamableHTTPServerTransport per session (sessionIdGenerator
// randomUUID, no event store, SSE replies by default), plain HTTP/1.1 on 127.0.0.1. Tools as server.py: 100
// lookup_NNN(query) with long descriptions, add(a,b), big(kb), slow_count(n).
// wait(s): sleeps s seconds, sends nothing meanwhile. With `json`: enableJsonResponse (JSON replies, the SDK's setting).
//   node ts_server.mjs PORT [json]
import { randomUUID } from 'node:crypto';
import express from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

const port = Number(process.argv[2]);
const json = process.argv[3] === 'json';
const nLookup = Number(process.env.LOOKUP_TOOLS ?? 100); // sensor4.sh sets 20 (smaller captures)
const text = (t) => ({ content: [{ type: 'text', text: String(t) }] });
const pad = (n, w) => String(n).padStart(w, '0');

function description(i) {
    return `Lookup tool ${pad(i, 3)} of the sensor3 catalogue. Searches record set ${pad(i, 3)} for entries matching the `
        + 'query string and returns a short textual summary of the best match, including its identifier, its '
        + 'owner, the last time it was modified and a one-line abstract. Use it when the user asks about items '
        + `that belong to shard ${pad(i % 16, 2)}; other shards have their own lookup tools with the same interface.`;
}

function bigText(kb) {
    const line = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789abcdefghijklmnopqrstuvwxyz';
    const out = [];
    let n = 0;
    while (n < kb * 1024) {
        const s = `${pad(out.length, 6)} ${line}\n`.slice(0, 128);
        out.push(s);
        n += s.length;
    }
    return out.join('').slice(0, kb * 1024);
}

function newServer() {
    const server = new McpServer({ name: 'sensor3-ts', version: '1.0.0' });
    for (let i = 0; i < nLookup; i++) {
        server.registerTool(`lookup_${pad(i, 3)}`, { description: description(i), inputSchema: { query: z.string() } },
            async ({ query }) => text(`lookup_${pad(i, 3)}: best match for '${query}' is record ${pad(i, 3)}-${pad(query.length, 4)}`));
    }
    server.registerTool('add', { description: 'Add two integers.', inputSchema: { a: z.number(), b: z.number() } },
        async ({ a, b }) => text(a + b));
    server.registerTool('big', { description: 'A text result of kb KiB.', inputSchema: { kb: z.number() } },
        async ({ kb }) => text(bigText(kb)));
    server.registerTool('slow_count', { description: 'Count to n with a progress notification 0.1 s apart.', inputSchema: { n: z.number() } },
        async ({ n }, extra) => {
            const token = extra._meta?.progressToken;
            for (let i = 1; i <= n; i++) {
                if (token !== undefined) {
                    await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n, message: `step ${i}` } });
                }
                await new Promise((r) => setTimeout(r, 100));
            }
            return text(`counted ${n}`);
        });
    server.registerTool('wait', { description: 'Sleep s seconds, then answer.', inputSchema: { s: z.number() } },
        async ({ s }) => { await new Promise((r) => setTimeout(r, s * 1000)); return text(`waited ${s}`); });
    return server;
}

const app = express();
app.use(express.json({ limit: '4mb' }));
const transports = {};
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
        await newServer().connect(transport);
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
app.listen(port, '127.0.0.1', () => console.error(`sensor4 TS SDK server on 127.0.0.1:${port}/mcp`));
