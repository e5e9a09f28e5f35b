// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk 1.32.2) on express for the resume2 captures: the
// same server as ../resume/ts-server.mjs (the SDK README's stateful pattern of ../ts_common.mjs routeSessions, a
// StreamableHTTPServerTransport per session, randomUUID session ids; an unknown session answered as the SDK's
// example does), always with the SDK's own example event store (`InMemoryEventStore` from
// @modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js: ids `<streamId>_<ms>_<random>`, priming events
// under 2025-11-25, replay on GET + Last-Event-ID), no retryInterval. Kept here only because Node resolves the SDK
// from the importing file's folder (this folder's node_modules). Tools: ../ts_common.mjs registerTools (add, echo,
// report, slow_count(n): n progress notifications 0.1 s apart when the call carries a progressToken) and ticker(n):
// returns at once, then n `notifications/message` 0.2 s apart with no related request (the standalone GET stream).
//   node ts-server.mjs PORT
import express from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerTools, routeSessions, text } from '../ts_common.mjs';

const port = Number(process.argv[2]);

function newServer() {
    const server = registerTools(new McpServer({ name: 'resume2-ts-server-store', version: '1.0.0' },
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
    transportOptions: { get eventStore() { return new InMemoryEventStore(); } },
});
app.listen(port, '127.0.0.1', () => console.error(`TS SDK server (InMemoryEventStore) on 127.0.0.1:${port}/mcp`));
