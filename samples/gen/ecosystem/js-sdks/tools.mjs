// The tools every js-sdks server offers, for the servers built on the official SDK's McpServer: add(a,b),
// echo(text), slow_count(n) (n x notifications/progress 0.1 s apart, related to the request, when it has a
// progressToken). The 1.x SDK (@modelcontextprotocol/sdk; @hono/mcp serves it too) takes zod shapes and hands
// the handler `extra`; the 2.x SDK (@modelcontextprotocol/server; mcp-handler 2.x serves it) takes zod/v4
// objects and hands it `ctx.mcpReq`.
import { z as z3 } from 'zod';
import { z as z4 } from 'zod/v4';

const text = (t) => ({ content: [{ type: 'text', text: String(t) }] });

// Counts to n, sending progress through `notify` when the request carried a progress token.
async function count(n, progressToken, notify) {
    for (let i = 1; i <= n; i++) {
        if (progressToken !== undefined) {
            await notify({ method: 'notifications/progress', params: { progressToken, progress: i, total: n, message: `step ${i}` } });
        }
        await new Promise((r) => setTimeout(r, 100));
    }
    return text(`counted ${n}`);
}

export function registerV1Tools(server) {
    server.registerTool('add', { description: 'a + b', inputSchema: { a: z3.number(), b: z3.number() } },
        async ({ a, b }) => text(a + b));
    server.registerTool('echo', { description: 'echo text', inputSchema: { text: z3.string() } },
        async ({ text: t }) => text(t));
    server.registerTool('slow_count', { description: 'count with progress', inputSchema: { n: z3.number() } },
        async ({ n }, extra) => count(n, extra._meta?.progressToken, (m) => extra.sendNotification(m)));
    return server;
}

export function registerV2Tools(server) {
    server.registerTool('add', { description: 'a + b', inputSchema: z4.object({ a: z4.number(), b: z4.number() }) },
        async ({ a, b }) => text(a + b));
    server.registerTool('echo', { description: 'echo text', inputSchema: z4.object({ text: z4.string() }) },
        async ({ text: t }) => text(t));
    server.registerTool('slow_count', { description: 'count with progress', inputSchema: z4.object({ n: z4.number() }) },
        async ({ n }, ctx) => count(n, ctx.mcpReq._meta?.progressToken, (m) => ctx.mcpReq.notify(m)));
    return server;
}
