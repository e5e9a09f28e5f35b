// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk 1.32.2) on express 5, for the agents group's framework
// clients: the SDK README's stateful pattern (../ts_common.mjs routeSessions: a StreamableHTTPServerTransport per
// session, sessionIdGenerator randomUUID, no event store, an in-memory map of transports; an unknown or missing
// session id is answered as the SDK's example does, POST 400 -32000 "Bad Request: No valid session ID provided",
// GET/DELETE 400 text "Invalid or missing session ID"), the tool set of ../ts_common.mjs (add, echo, report,
// slow_count), SSE replies by default, plain HTTP/1.1 on 127.0.0.1. It does not speak 2026-07-28.
//   node ts-server.mjs PORT
import express from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerTools, routeSessions } from '../ts_common.mjs';

const port = Number(process.argv[2]);

const app = express();
app.use(express.json());

routeSessions(app, {
    StreamableHTTPServerTransport, isInitializeRequest,
    newServer: () => registerTools(new McpServer({ name: 'agents-ts-server', version: '1.0.0' }), z),
});

app.listen(port, '127.0.0.1', () => console.error(`TS SDK server on 127.0.0.1:${port}/mcp`));
