// The longlived2 group's TypeScript SDK server: @modelcontextprotocol/sdk 1.32.2 on express 5.3.0 of ../proxies2
// (its node_modules resolved by path), the SDK README's stateful pattern (../ts_common.mjs routeSessions: a
// StreamableHTTPServerTransport per session, randomUUID session ids, no event store, SSE replies, the SDK's own
// `: keepalive` comment every 15 s on its SSE streams), HTTP/1.1 on 127.0.0.1. Tools: ../ts_common.mjs registerTools
// (add, echo, report, slow_count) and wait(seconds): sleeps, then answers (no progress).
//   node ts-server.mjs PORT
import { createRequire } from 'node:module';
const require = createRequire(new URL('../proxies2/package.json', import.meta.url));
const express = (await import(require.resolve('express'))).default;
const { z } = await import(require.resolve('zod'));
const { McpServer } = await import(require.resolve('@modelcontextprotocol/sdk/server/mcp.js'));
const { StreamableHTTPServerTransport } = await import(require.resolve('@modelcontextprotocol/sdk/server/streamableHttp.js'));
const { isInitializeRequest } = await import(require.resolve('@modelcontextprotocol/sdk/types.js'));
const { registerTools, routeSessions, text } = await import('../ts_common.mjs');

const port = Number(process.argv[2]);
function newServer() {
    const server = registerTools(new McpServer({ name: 'longlived2-ts-server', version: '1.0.0' }), z);
    server.registerTool('wait', { description: 'sleep, then answer', inputSchema: { seconds: z.number() } },
        async ({ seconds }) => { await new Promise((r) => setTimeout(r, seconds * 1000)); return text(`waited ${seconds} s`); });
    return server;
}
const app = express();
app.use(express.json());
routeSessions(app, { StreamableHTTPServerTransport, isInitializeRequest, newServer });
app.listen(port, '127.0.0.1', () => console.error(`TS SDK server on 127.0.0.1:${port}/mcp`));
