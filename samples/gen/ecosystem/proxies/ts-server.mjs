// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk) on express, the backend of the proxies group's
// TS scenarios (compress/ts-server.mjs without the compression middleware; both route with ../ts_common.mjs): the
// SDK README's stateful pattern, a StreamableHTTPServerTransport per session (sessionIdGenerator randomUUID, no
// event store), SSE replies by default (no `id:` lines, no keep-alive comments on the standalone GET stream), plain
// HTTP/1.1 on 127.0.0.1.
//   node ts-server.mjs PORT
import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerTools } from './tools.mjs';
import { routeSessions } from '../ts_common.mjs';

const port = Number(process.argv[2] ?? 18808);

const app = express();
app.use(express.json());

routeSessions(app, {
    StreamableHTTPServerTransport, isInitializeRequest,
    newServer: () => registerTools(new McpServer({ name: 'proxies-ts-server', version: '1.0.0' })),
});

app.listen(port, '127.0.0.1', () => console.error(`TS SDK server on 127.0.0.1:${port}/mcp`));
