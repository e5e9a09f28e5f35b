// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk 1.32.2) on express for the load group: the SDK
// README's stateful pattern (../ts_common.mjs routeSessions: a StreamableHTTPServerTransport per session,
// sessionIdGenerator randomUUID, no event store, the transports in an in-memory map; an unknown session id is
// answered as the SDK's example does, POST 400 -32000 "Bad Request: No valid session ID provided", GET/DELETE 400
// "Invalid or missing session ID"), the tool set of ../ts_common.mjs, plain HTTP/1.1 on 127.0.0.1.
//   node ts-server.mjs PORT [json] [idle-ms MS]
// json: `enableJsonResponse: true` (each POST answered with one application/json body instead of an SSE stream).
// idle-ms MS: sessions expire while idle, the way an application adds it around the SDK (which has no such option
// in 1.x): a middleware notes the time of every request carrying an Mcp-Session-Id, and every 250 ms a timer closes
// (McpServer.close(): the transport closes its streams, routeSessions' onclose drops it from the map) each session
// that has seen no request for MS ms. A long-lived GET stream counts as one request, at its start.
import express from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerTools, routeSessions } from '../ts_common.mjs';

const port = Number(process.argv[2]);
const json = process.argv.includes('json');
const idleAt = process.argv.indexOf('idle-ms');
const idleMs = idleAt > 0 ? Number(process.argv[idleAt + 1]) : 0;
const name = `load-ts-server-${port}${json ? '-json' : ''}`;

const app = express();
app.use(express.json());

const servers = new Set();
const lastSeen = new Map();   // session id -> time of its last request
if (idleMs) {
    app.use((req, res, next) => {
        const sid = req.headers['mcp-session-id'];
        if (sid) lastSeen.set(sid, Date.now());
        next();
    });
    setInterval(() => {
        for (const s of servers) {
            const sid = s.server.transport?.sessionId;
            const seen = sid ? lastSeen.get(sid) : undefined;
            if (seen !== undefined && Date.now() - seen > idleMs) {
                console.error(`session ${sid} idle for ${Date.now() - seen} ms: closing it`);
                servers.delete(s);
                lastSeen.delete(sid);
                s.close().catch((e) => console.error('close failed', e));
            }
        }
    }, 250);
}

routeSessions(app, {
    StreamableHTTPServerTransport, isInitializeRequest,
    transportOptions: json ? { enableJsonResponse: true } : {},
    newServer: () => {
        const s = registerTools(new McpServer({ name, version: '1.0.0' }), z);
        servers.add(s);
        return s;
    },
});

app.listen(port, '127.0.0.1', () => console.error(
    `TS SDK server ${name} on 127.0.0.1:${port}/mcp${idleMs ? `, sessions expire after ${idleMs} ms idle` : ''}`));
