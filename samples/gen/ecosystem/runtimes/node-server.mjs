// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk 1.32.2) on Node + express, the backend behind the
// runtimes group's Node reverse proxies: the SDK README's stateful Streamable HTTP pattern on /mcp (../ts_common.mjs
// routeSessions: StreamableHTTPServerTransport per session, no event store, SSE replies) and its HTTP+SSE
// (2024-11-05) pattern on GET /sse + POST /messages?sessionId= (routeLegacy). Tools of ../ts_common.mjs.
//   node node-server.mjs PORT
import express from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerTools, routeSessions, routeLegacy } from '../ts_common.mjs';

const port = Number(process.argv[2] ?? 19493);
const newServer = () => registerTools(new McpServer({ name: 'runtimes-node-server', version: '1.0.0' }), z);
const app = express();
routeLegacy(app, { SSEServerTransport, json: express.json(), newServer });
app.use('/mcp', express.json());
routeSessions(app, { StreamableHTTPServerTransport, isInitializeRequest, newServer });
app.listen(port, '127.0.0.1', () => console.error(`TS SDK server (express) on 127.0.0.1:${port} (/mcp, /sse)`));
