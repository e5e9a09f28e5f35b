// Official TypeScript SDK 1.x (@modelcontextprotocol/sdk 1.32.2, this folder's pins) HTTP+SSE server (2024-11-05):
// the SDK README's deprecated SSEServerTransport pattern on express, routed by ../ts_common.mjs routeLegacy (GET /sse
// opens the stream and its `endpoint` event names /messages?sessionId=...; POST /messages). Nothing else is routed:
// a POST to /sse is express's own 404 page. Tools: the shared add, echo, report, slow_count. Plain HTTP/1.1 on
// 127.0.0.1.
//   node ts-legacy-server.mjs PORT
import express from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { registerTools, routeLegacy } from '../ts_common.mjs';

const port = Number(process.argv[2]);
const app = express();
routeLegacy(app, {
    SSEServerTransport, json: express.json(),
    newServer: () => registerTools(new McpServer({ name: 'situations-ts-legacy-server', version: '1.0.0' }), z),
});
app.listen(port, '127.0.0.1', () => console.error(`TS SDK HTTP+SSE server on 127.0.0.1:${port}/sse`));
