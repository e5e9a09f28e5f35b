// A copy of ../proxies2/ts-server.mjs (run from this folder's node_modules). Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk 1.32.2) on express, a backend of the proxies2 group
// (the proxies group's ts-server.mjs, with this folder's pins): the SDK README's stateful pattern routed by
// ../ts_common.mjs, a StreamableHTTPServerTransport per session (sessionIdGenerator randomUUID, no event store), SSE
// replies by default (no `id:` lines; the SDK's own `: keepalive` comment every 15 s on its SSE streams), plain
// HTTP/1.1 on 127.0.0.1. Tools: add(a,b), echo(text), report(rows), slow_count(n) (n notifications/progress 0.1 s
// apart when the request carries a progressToken).
//   node ts-server.mjs PORT
import express from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerTools, routeSessions } from '../ts_common.mjs';

const port = Number(process.argv[2] ?? 19255);

const app = express();
app.use(express.json());

routeSessions(app, {
    StreamableHTTPServerTransport, isInitializeRequest,
    newServer: () => registerTools(new McpServer({ name: 'proxies2-ts-server', version: '1.0.0' }), z),
});

app.listen(port, '127.0.0.1', () => console.error(`TS SDK server on 127.0.0.1:${port}/mcp`));
