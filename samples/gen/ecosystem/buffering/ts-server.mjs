// The buffering group's TypeScript SDK server (@modelcontextprotocol/sdk 1.32.2 on express 5.3.0): the SDK README's
// stateful pattern (../ts_common.mjs routeSessions: a StreamableHTTPServerTransport per session, sessionIdGenerator
// randomUUID, no event store), SSE replies by default (no `id:` lines, the SDK's `: keepalive` comment every 15 s,
// `X-Accel-Buffering: no`, `Cache-Control: no-cache, no-transform`), plain HTTP/1.1 on 127.0.0.1.
// Tools: add(a,b); slow_count(n,gap) (n notifications/progress GAP s apart on the reply when the request carries a
// progressToken, then the result GAP s later); announce(n,gap) (answers at once, then n
// notifications/resources/updated GAP s apart on the session's standalone GET stream).
//   node ts-server.mjs PORT
import express from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { routeSessions, text } from '../ts_common.mjs';

const port = Number(process.argv[2]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function newServer() {
    const server = new McpServer({ name: 'buffering-ts-server', version: '1.0.0' }, { capabilities: { resources: { subscribe: true } } });
    server.registerTool('add', { description: 'a + b', inputSchema: { a: z.number(), b: z.number() } },
        async ({ a, b }) => text(a + b));
    server.registerTool('slow_count', { description: 'count with progress every gap seconds', inputSchema: { n: z.number(), gap: z.number() } },
        async ({ n, gap }, extra) => {
            const token = extra._meta?.progressToken;
            for (let i = 1; i <= n; i++) {
                if (token !== undefined) {
                    await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n, message: `step ${i}` } });
                }
                await sleep(gap * 1000);
            }
            return text(`counted ${n}`);
        });
    server.registerTool('announce', { description: 'resource-updated notifications on the standalone stream', inputSchema: { n: z.number(), gap: z.number() } },
        async ({ n, gap }) => {
            (async () => {
                for (let i = 1; i <= n; i++) {
                    await sleep(gap * 1000);
                    await server.server.sendResourceUpdated({ uri: `memo://tick/${i}` }).catch((e) => console.error('announce', e?.message));
                }
            })();
            return text(`announcing ${n}`);
        });
    return server;
}

const app = express();
app.use(express.json());
routeSessions(app, { StreamableHTTPServerTransport, isInitializeRequest, newServer });
app.listen(port, '127.0.0.1', () => console.error(`TS SDK server on 127.0.0.1:${port}/mcp`));
