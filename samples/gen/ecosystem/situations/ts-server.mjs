// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk 1.32.2, this folder's pins) on express, the situations
// group's backend: the SDK README's stateful pattern routed by ../ts_common.mjs (a StreamableHTTPServerTransport per
// session, sessionIdGenerator randomUUID, no event store, SSE replies, the SDK's own `: keepalive` every 15 s), plain
// HTTP/1.1 on 127.0.0.1. Tools: the shared add, echo, report, slow_count (../ts_common.mjs) and sleep(seconds), which
// really sleeps that long (setTimeout) and then answers "slept N s": a tool that hangs, as a stuck backend call does.
//   node ts-server.mjs PORT
import express from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerTools, routeSessions, text } from '../ts_common.mjs';

const port = Number(process.argv[2]);
const T0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - T0) / 1000).toFixed(3)}]`, ...a);

function newServer() {
    const server = registerTools(new McpServer({ name: 'situations-ts-server', version: '1.0.0' }), z);
    server.registerTool('sleep', { description: 'sleep `seconds` seconds, then answer', inputSchema: { seconds: z.number() } },
        async ({ seconds }, extra) => {
            log(`sleep(${seconds}) started`);
            extra.signal?.addEventListener('abort', () => log(`sleep(${seconds}): request aborted (${extra.signal.reason})`));
            await new Promise((res) => setTimeout(res, seconds * 1000));
            log(`sleep(${seconds}) done`);
            return text(`slept ${seconds} s`);
        });
    return server;
}

const app = express();
app.use(express.json());
routeSessions(app, { StreamableHTTPServerTransport, isInitializeRequest, newServer });
app.listen(port, '127.0.0.1', () => log(`TS SDK server on 127.0.0.1:${port}/mcp`));
