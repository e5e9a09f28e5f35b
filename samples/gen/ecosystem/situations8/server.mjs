// The official TS SDK 1.32.2 (this folder's node_modules) McpServer behind StreamableHTTPServerTransport on node:http,
// the way the SDK's README sets up a stateful server: one transport per session (sessionIdGenerator randomUUID), kept
// in a map by session id, POST/GET/DELETE on /mcp, 127.0.0.1. With `store`, each transport gets the SDK's own
// InMemoryEventStore (examples/shared/inMemoryEventStore.js: ids `${streamId}_${Date.now()}_${random}`).
// Tools: add(a, b); slow(seconds): one notifications/progress a second (when the call has a progressToken), then the
// answer; ticker(n, ms): answers at once, then n notifications/message `tick i` ms apart with no related request (the
// session's standalone GET stream).
//   node server.mjs PORT [store]
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { z } from 'zod';

const port = Number(process.argv[2]);
const withStore = process.argv[3] === 'store';
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function build() {
    const server = new McpServer({ name: 'situations8-ts', version: '1.0.0' }, { capabilities: { logging: {} } });
    server.tool('add', 'Add two integers.', { a: z.number(), b: z.number() },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
    server.tool('slow', 'Work for `seconds` seconds, one progress notification a second.', { seconds: z.number() },
        async ({ seconds }, extra) => {
            const token = extra._meta?.progressToken;
            log(`slow(${seconds}) started, token ${token}`);
            for (let i = 1; i <= seconds; i++) {
                await sleep(1000);
                if (extra.signal.aborted) { log(`slow: aborted at ${i}`); }
                if (token !== undefined) {
                    try {
                        await extra.sendNotification({ method: 'notifications/progress',
                            params: { progressToken: token, progress: i, total: seconds, message: `second ${i}` } });
                        log(`slow: progress ${i}`);
                    } catch (e) { log(`slow: progress ${i} failed: ${e}`); }
                }
            }
            log(`slow(${seconds}) done`);
            return { content: [{ type: 'text', text: `worked ${seconds} s` }] };
        });
    server.tool('ticker', 'Answer at once, then send n log notifications ms apart on the standalone stream.',
        { n: z.number(), ms: z.number() },
        async ({ n, ms }) => {
            (async () => {
                for (let i = 1; i <= n; i++) {
                    await sleep(ms);
                    try { await server.server.sendLoggingMessage({ level: 'info', logger: 'ticker', data: `tick ${i}` }); log(`tick ${i} sent`); }
                    catch (e) { log(`tick ${i}: ${e}`); }
                }
            })();
            return { content: [{ type: 'text', text: `${n} ticks coming` }] };
        });
    return server;
}

const transports = {};
async function body(req) {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    return chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
}
createServer(async (req, res) => {
    if (!req.url.startsWith('/mcp')) { res.writeHead(404).end(); return; }
    res.on('close', () => log(`${req.method} closed (${res.writableFinished ? 'finished' : 'before the end'})`));
    try {
        const sid = req.headers['mcp-session-id'];
        if (req.method === 'POST') {
            const msg = await body(req);
            let t = sid ? transports[sid] : undefined;
            if (!t && !sid && isInitializeRequest(msg)) {
                t = new StreamableHTTPServerTransport({
                    sessionIdGenerator: () => randomUUID(),
                    eventStore: withStore ? new InMemoryEventStore() : undefined,
                    onsessioninitialized: (id) => { transports[id] = t; log(`session ${id}`); },
                });
                t.onclose = () => { if (t.sessionId) delete transports[t.sessionId]; };
                await build().connect(t);
            }
            if (!t) {
                res.writeHead(sid ? 404 : 400, { 'content-type': 'application/json' })
                    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: sid ? 'Session not found' : 'Bad Request: No valid session ID provided' }, id: null }));
                return;
            }
            await t.handleRequest(req, res, msg);
            return;
        }
        const t = sid ? transports[sid] : undefined;
        if (!t) {
            res.writeHead(sid ? 404 : 400, { 'content-type': 'application/json' })
                .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: sid ? 'Session not found' : 'Bad Request: No valid session ID provided' }, id: null }));
            return;
        }
        log(`${req.method} last-event-id ${req.headers['last-event-id'] ?? '-'}`);
        await t.handleRequest(req, res);
    } catch (e) {
        log('error', e);
        if (!res.headersSent) res.writeHead(500).end();
    }
}).listen(port, '127.0.0.1', () => log(`listening on 127.0.0.1:${port}${withStore ? ' with InMemoryEventStore' : ''}`));
