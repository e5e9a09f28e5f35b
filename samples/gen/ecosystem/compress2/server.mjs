// The TS SDK's Streamable HTTP server transport (@modelcontextprotocol/sdk 1.32.2, stateful: one transport per
// session, randomUUID session ids, no event store) behind Fastify + @fastify/compress or Koa + koa-compress.
// The Web-standard transport (WebStandardStreamableHTTPServerTransport) is used because its Response body goes
// back through the framework (reply.send(stream) / ctx.body = stream), where the compression middleware sees it;
// the Node transport writes to the raw ServerResponse and no middleware touches it (mode `raw`, Fastify only).
//   node server.mjs PORT fastify|koa sse|json [deflate|raw]
// 30 tools; `slow` sends notifications/progress each second for 5 s (when the request has a progressToken).
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const [port, framework, mode, variant] = [Number(process.argv[2]), process.argv[3], process.argv[4], process.argv[5] ?? ''];
const json = mode === 'json';
const raw = variant === 'raw';
const log = (...a) => console.error(new Date().toISOString(), ...a);

function mcpServer() {
    const server = new McpServer({ name: `compress2-${framework}`, version: '1.0.0' });
    const args = { text: z.string().describe('The text the tool works on, passed through unchanged.'),
        count: z.number().int().optional().describe('How many times to repeat the operation (default 1).') };
    server.registerTool('echo', { description: 'Echo the text back to the caller, unchanged.', inputSchema: args },
        async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }));
    server.registerTool('slow', { description: 'Work for five seconds, reporting progress every second, then answer.', inputSchema: args },
        async ({ text }, extra) => {
            const token = extra._meta?.progressToken;
            for (let step = 1; step <= 5; step++) {
                await new Promise((r) => setTimeout(r, 1000));
                if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress',
                    params: { progressToken: token, progress: step, total: 5, message: `step ${step} of 5` } });
            }
            return { content: [{ type: 'text', text: `slow done: ${text}` }] };
        });
    for (let i = 0; i < 28; i++) {
        const name = `catalog_tool_${String(i).padStart(2, '0')}`;
        server.registerTool(name, { description: `Catalogue tool number ${i}: looks up an entry in the inventory catalogue and returns its description, price and stock level.`, inputSchema: args },
            async ({ text }) => ({ content: [{ type: 'text', text: `${name}: ${text}` }] }));
    }
    return server;
}

const sessions = new Map();
const Transport = raw ? StreamableHTTPServerTransport : WebStandardStreamableHTTPServerTransport;
async function transportFor(sid, body) {
    if (sid && sessions.has(sid)) return sessions.get(sid);
    if (sid || !body || body.method !== 'initialize') return undefined;
    const t = new Transport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: json,
        onsessioninitialized: (id) => { sessions.set(id, t); log('session', id); } });
    t.onclose = () => { if (t.sessionId) sessions.delete(t.sessionId); };
    await mcpServer().connect(t);
    return t;
}
const noSession = { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null };
function webRequest(method, url, headers, text) {
    const h = new Headers();
    for (const [k, v] of Object.entries(headers)) {
        if (v === undefined || ['content-length', 'connection', 'transfer-encoding'].includes(k)) continue;
        h.set(k, Array.isArray(v) ? v.join(', ') : v);
    }
    return new Request(url, { method, headers: h, body: method === 'POST' ? text : undefined });
}

if (framework === 'fastify') {
    const { default: Fastify } = await import('fastify');
    const { default: compress } = await import('@fastify/compress');
    const app = Fastify();
    await app.register(compress, variant === 'deflate' ? { encodings: ['deflate'] } : {});
    app.all('/mcp', async (request, reply) => {
        const t = await transportFor(request.headers['mcp-session-id'], request.body);
        if (!t) return reply.code(400).send(noSession);
        if (raw) { reply.hijack(); await t.handleRequest(request.raw, reply.raw, request.body); return reply; }
        const req = webRequest(request.method, `http://${request.headers.host}${request.url}`, request.headers,
            request.body === undefined ? undefined : JSON.stringify(request.body));
        const res = await t.handleRequest(req, { parsedBody: request.body });
        reply.code(res.status);
        res.headers.forEach((v, k) => reply.header(k, v));
        return reply.send(res.body ? Readable.fromWeb(res.body) : undefined);
    });
    await app.listen({ host: '127.0.0.1', port });
} else {
    const { default: Koa } = await import('koa');
    const { default: compress } = await import('koa-compress');
    const app = new Koa();
    app.use(compress(variant === 'deflate' ? { br: false, gzip: false } : {}));
    app.use(async (ctx) => {
        if (ctx.path !== '/mcp') { ctx.status = 404; return; }
        let text;
        if (ctx.method === 'POST') { const chunks = []; for await (const c of ctx.req) chunks.push(c); text = Buffer.concat(chunks).toString(); }
        let body; try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
        const t = await transportFor(ctx.get('mcp-session-id') || undefined, body);
        if (!t) { ctx.status = 400; ctx.body = noSession; return; }
        const res = await t.handleRequest(webRequest(ctx.method, `http://${ctx.host}${ctx.url}`, ctx.headers, text), { parsedBody: body });
        ctx.status = res.status;
        res.headers.forEach((v, k) => ctx.set(k, v));
        if (res.body) ctx.body = Readable.fromWeb(res.body);
    });
    app.listen(port, '127.0.0.1');
}
log(`${framework} ${mode} ${variant} on 127.0.0.1:${port}/mcp`);
