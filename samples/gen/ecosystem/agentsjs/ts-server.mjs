// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk 1.32.2) on express 5, no middleware but
// express.json(), for the agentsjs group's framework clients: the SDK README's stateful pattern (routeSessions,
// ../ts_common.mjs: a StreamableHTTPServerTransport per session, sessionIdGenerator randomUUID, no event store, SSE
// replies; an unknown or missing session id: POST 400 -32000 "Bad Request: No valid session ID provided", GET/DELETE
// 400 text "Invalid or missing session ID") on /mcp, the tool set of ../ts_common.mjs (add, echo, report,
// slow_count). It does not speak 2026-07-28. --sse serves the legacy HTTP+SSE transport instead (routeLegacy: GET
// /sse, POST /messages?sessionId=).
//   node ts-server.mjs PORT [--sse]
import express from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerTools, routeLegacy, routeSessions } from '../ts_common.mjs';

const port = Number(process.argv[2]);
const sse = process.argv.includes('--sse');
const newServer = () => registerTools(new McpServer({ name: 'agentsjs-ts-server', version: '1.0.0' }), z);

const app = express();
if (sse) {
    routeLegacy(app, { SSEServerTransport, json: express.json(), newServer });
} else {
    app.use(express.json());
    routeSessions(app, { StreamableHTTPServerTransport, isInitializeRequest, newServer });
}
app.listen(port, '127.0.0.1', () => console.error(`TS SDK server (${sse ? 'HTTP+SSE /sse' : 'Streamable HTTP /mcp'}) on 127.0.0.1:${port}`));
