// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk 1.32.2, StreamableHTTPServerTransport) hosted by Node's
// built-in `node:http2` with its compatibility API (the handler gets Http2ServerRequest / Http2ServerResponse and
// passes them to transport.handleRequest, which converts them with @hono/node-server as it does for node:http). The
// session routing is the SDK README's stateful pattern (../ts_common.mjs routeSessions) written for a plain request
// handler instead of express: POST /mcp (JSON body parsed here), GET and DELETE /mcp by Mcp-Session-Id, a transport per
// session (sessionIdGenerator randomUUID, no event store: SSE replies without ids). Tools: ../ts_common.mjs
// registerTools (add, echo, report, slow_count).
//   node h2server.mjs PORT h2c                        http2.createServer: cleartext h2 with prior knowledge only
//   node h2server.mjs PORT tls CERT KEY               http2.createSecureServer (ALPN h2; allowHTTP1 false, the default)
//   ... [--trailers]                                  every response ends with a trailer `server-timing: app;dur=MS`
//                                                     (res.addTrailers before the SDK ends it: timing as a trailer)
//   ... [--max-streams N]                             settings: { maxConcurrentStreams: N } (Node's default SETTINGS
//                                                     frame is empty: no SETTINGS_MAX_CONCURRENT_STREAMS at all)
import http2 from 'node:http2';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerTools } from '../ts_common.mjs';

const args = process.argv.slice(2);
const trailers = args.includes('--trailers');
const ms = args.indexOf('--max-streams');
const settings = ms >= 0 ? { maxConcurrentStreams: Number(args[ms + 1]) } : undefined;
const [portArg, mode, certFile, keyFile] = args.filter((a, i) => a !== '--trailers' && (ms < 0 || (i !== ms && i !== ms + 1)));
const port = Number(portArg);
const transports = {};
const newServer = () => registerTools(new McpServer({ name: 'h2more2-node-http2', version: '1.0.0' }), z);

const readBody = (req) => new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
});

const json = (res, status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
};

async function handler(req, res) {
    if (trailers) {
        const t0 = process.hrtime.bigint();
        const end = res.end.bind(res);
        res.end = (...a) => {
            res.addTrailers({ 'server-timing': `app;dur=${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(1)}` });
            return end(...a);
        };
    }
    const url = new URL(req.url, 'http://x');
    if (url.pathname !== '/mcp') { json(res, 404, { error: 'not found' }); return; }
    const sid = req.headers['mcp-session-id'];
    try {
        if (req.method === 'POST') {
            let body;
            try { body = JSON.parse(await readBody(req)); } catch {
                json(res, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
                return;
            }
            let transport = sid ? transports[sid] : undefined;
            if (!transport) {
                if (sid || !isInitializeRequest(body)) {
                    json(res, 400, { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
                    return;
                }
                transport = new StreamableHTTPServerTransport({
                    sessionIdGenerator: () => randomUUID(),
                    onsessioninitialized: (id) => { transports[id] = transport; },
                });
                transport.onclose = () => { if (transport.sessionId) delete transports[transport.sessionId]; };
                await newServer().connect(transport);
            }
            await transport.handleRequest(req, res, body);
        } else if (req.method === 'GET' || req.method === 'DELETE') {
            const transport = sid ? transports[sid] : undefined;
            if (!transport) { res.writeHead(400, { 'content-type': 'text/plain' }); res.end('Invalid or missing session ID'); return; }
            await transport.handleRequest(req, res);
        } else {
            res.writeHead(405, { allow: 'GET, POST, DELETE' }); res.end();
        }
    } catch (e) {
        console.error('handler error', e);
        if (!res.headersSent) json(res, 500, { jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null });
    }
}

const server = mode === 'tls'
    ? http2.createSecureServer({ cert: readFileSync(certFile), key: readFileSync(keyFile), ...(settings && { settings }) }, handler)
    : http2.createServer({ ...(settings && { settings }) }, handler);
server.listen(port, '127.0.0.1', () => console.error(`node:http2 ${mode}${trailers ? ' +trailers' : ''}${settings ? ' ' + JSON.stringify(settings) : ''} MCP server on 127.0.0.1:${port}/mcp`));
