// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk) on express, behind the npm `compression`
// middleware with its defaults (app.use(compression()) before the MCP route: threshold 1 KB, br preferred over gzip
// when the client accepts both, filter = compressible Content-Type, skips `Cache-Control: no-transform`).
// The SDK README's stateful pattern (routeSessions, ../ts_common.mjs): a StreamableHTTPServerTransport per session
// (sessionIdGenerator randomUUID, no event store), SSE replies by default, --json for enableJsonResponse: true.
//   node ts-server.mjs PORT [--json]
import express from 'express';
import compression from 'compression';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerTools } from './tools.mjs';
import { routeSessions } from '../ts_common.mjs';

const port = Number(process.argv[2] ?? 18875);
const json = process.argv.includes('--json');

const app = express();
app.use(compression());
app.use(express.json());

routeSessions(app, {
    StreamableHTTPServerTransport, isInitializeRequest,
    newServer: () => registerTools(new McpServer({ name: 'compress-ts-server', version: '1.0.0' })),
    transportOptions: { enableJsonResponse: json },
});

app.listen(port, '127.0.0.1', () => console.error(`TS SDK server (express + compression${json ? ', JSON replies' : ''}) on 127.0.0.1:${port}/mcp`));
