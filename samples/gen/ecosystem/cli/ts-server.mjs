// Official TypeScript SDK 1.32.2 server (@modelcontextprotocol/sdk) on express 5, the SDK README's patterns
// (../ts_common.mjs): Streamable HTTP on /mcp, a StreamableHTTPServerTransport per session (sessionIdGenerator
// randomUUID, no event store, SSE replies by default), unknown or missing session id answered 400 as in the README.
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
    newServer: () => registerTools(new McpServer({ name: 'cli-ts-server', version: '1.0.0' }), z),
});
app.listen(port, '127.0.0.1', () => console.error(`TS SDK server on 127.0.0.1:${port}/mcp`));
