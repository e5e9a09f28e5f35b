// An official TypeScript SDK 1.x server at an older release (npm aliases in package.json: sdk110 = 1.10.2,
// sdk117 = 1.17.5, sdk124 = 1.24.3), for the eras2 captures: McpServer + StreamableHTTPServerTransport on plain
// node:http, the SDK's documented setup. Stateful (one transport per session, randomUUID ids, no event store, SSE
// replies; a request without a valid session that is not an initialize gets the SDK example's 400 -32000), or
// with --stateless a fresh server and transport per POST (sessionIdGenerator undefined, GET/DELETE 405).
// Tools: add(a,b), echo(text), slow_count(n) (n notifications/progress 0.1 s apart when the request has a
// progressToken), registered with server.tool() (the API every 1.x release has).
//   node v1-server.mjs sdk110|sdk117|sdk124 PORT [--stateless]
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

const [pkg = 'sdk124', portArg = '20415', mode] = process.argv.slice(2);
const port = Number(portArg);
const stateless = mode === '--stateless';
const { McpServer } = await import(`${pkg}/server/mcp.js`);
const { StreamableHTTPServerTransport } = await import(`${pkg}/server/streamableHttp.js`);
const { isInitializeRequest } = await import(`${pkg}/types.js`);
import { readFileSync } from 'node:fs';
const { version } = JSON.parse(readFileSync(new URL(`./node_modules/${pkg}/package.json`, import.meta.url)));

const text = (t) => ({ content: [{ type: 'text', text: String(t) }] });
function makeServer() {
    const server = new McpServer({ name: `eras2-ts-sdk-${version}`, version });
    server.tool('add', 'a + b', { a: z.number(), b: z.number() }, async ({ a, b }) => text(a + b));
    server.tool('echo', 'echo text', { text: z.string() }, async ({ text: t }) => text(t));
    server.tool('slow_count', 'count with progress', { n: z.number() }, async ({ n }, extra) => {
        const token = extra._meta?.progressToken;
        for (let i = 1; i <= n; i++) {
            if (token !== undefined) {
                await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n } });
            }
            await new Promise((r) => setTimeout(r, 100));
        }
        return text(`counted ${n}`);
    });
    return server;
}

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

const transports = new Map();
createServer(async (req, res) => {
    if (new URL(req.url, 'http://x').pathname !== '/mcp') { res.writeHead(404).end('Not Found'); return; }
    if (stateless) {
        if (req.method !== 'POST') { jsonError(res, 405, -32000, 'Method not allowed.'); return; }
        const body = await readBody(req);
        const server = makeServer();
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        res.on('close', () => { transport.close(); server.close(); });
        await server.connect(transport);
        await transport.handleRequest(req, res, body);
        return;
    }
    const sid = req.headers['mcp-session-id'];
    if (req.method === 'POST') {
        const body = await readBody(req);
        let transport = sid ? transports.get(sid) : undefined;
        if (!transport) {
            if (sid || !isInitializeRequest(body)) {
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
}).listen(port, '127.0.0.1', () => console.error(`TS SDK ${version} server${stateless ? ' (stateless)' : ''} on 127.0.0.1:${port}/mcp`));
