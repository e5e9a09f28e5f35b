// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk 1.32.2) on express for the resume captures: the SDK
// README's stateful pattern (../ts_common.mjs routeSessions: a StreamableHTTPServerTransport per session,
// sessionIdGenerator randomUUID, the transports in an in-memory map; an unknown session id is answered as the SDK's
// example does, POST 400 -32000, GET/DELETE 400 text), SSE replies (the default), plain HTTP/1.1 on 127.0.0.1.
// With `store`, each transport gets the SDK's own example event store (`InMemoryEventStore` from
// @modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js, as the SDK's simpleStreamableHttp example wires it:
// resumability on, ids `<streamId>_<ms>_<random>`, priming events under 2025-11-25, replay on GET + Last-Event-ID);
// with `nostore`, none (no ids at all, the SDK default). No retryInterval: the client's own backoff decides.
// Tools: ../ts_common.mjs registerTools (add, echo, report, slow_count(n): n progress notifications 0.1 s apart on
// the request's stream), and ticker(n): returns at once, then sends n `notifications/message` (logging) 0.2 s apart
// with no related request, so they go on the session's standalone GET stream (capabilities: logging).
//   node ts-server.mjs PORT store|nostore
import express from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerTools, routeSessions, text } from '../ts_common.mjs';

const port = Number(process.argv[2]);
const store = process.argv[3] === 'store';

function newServer() {
    const server = registerTools(new McpServer({ name: `resume-ts-server-${store ? 'store' : 'nostore'}`, version: '1.0.0' },
        { capabilities: { logging: {} } }), z);
    server.registerTool('ticker', { description: 'n log notifications on the GET stream, 0.2 s apart', inputSchema: { n: z.number() } },
        async ({ n }) => {
            (async () => {
                for (let i = 1; i <= n; i++) {
                    await new Promise((r) => setTimeout(r, 200));
                    try {
                        await server.server.notification({ method: 'notifications/message', params: { level: 'info', data: `tick ${i}` } });
                    } catch (e) { console.error('tick', i, 'not sent:', e?.message ?? e); }
                }
            })();
            return text(`ticking ${n}`);
        });
    return server;
}

const app = express();
app.use(express.json());
routeSessions(app, {
    StreamableHTTPServerTransport, isInitializeRequest, newServer,
    transportOptions: store ? { get eventStore() { return new InMemoryEventStore(); } } : {},
});
app.listen(port, '127.0.0.1', () => console.error(`TS SDK server (${store ? 'InMemoryEventStore' : 'no event store'}) on 127.0.0.1:${port}/mcp`));
