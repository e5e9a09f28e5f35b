// Mastra's MCP server (npm @mastra/mcp 2.0.0 MCPServer, on the SDK v2 server @modelcontextprotocol/server 2.0.0)
// over HTTP the way its docs serve it: a node:http server whose every request goes to `server.startHTTP({ url,
// httpPath: '/mcp', req, res })`. Mastra 2.0.0 builds that handler with `createMcpHandler(..., { legacy: 'reject' })`:
// a 2026-07-28-only, stateless server (no initialize, no session id); it has no SSE transport any more. Tools made
// with @mastra/core's createTool (zod 4 schemas): add(a,b), echo(text), slow_count(n) (n x context.mcp.progress,
// i.e. notifications/progress, 0.1 s apart, when the request carries a progressToken).
//   node mastra-server.mjs PORT
import http from 'node:http';
import { z } from 'zod';
import { createTool } from '@mastra/core/tools';
import { MCPServer } from '@mastra/mcp';

const port = Number(process.argv[2]);

const add = createTool({
    id: 'add', description: 'a + b', inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => a + b,
});
const echo = createTool({
    id: 'echo', description: 'echo text', inputSchema: z.object({ text: z.string() }),
    execute: async ({ text }) => text,
});
const slowCount = createTool({
    id: 'slow_count', description: 'count with progress', inputSchema: z.object({ n: z.number() }),
    execute: async ({ n }, context) => {
        for (let i = 1; i <= n; i++) {
            await context?.mcp?.progress?.({ progress: i, total: n, message: `step ${i}` });
            await new Promise((r) => setTimeout(r, 100));
        }
        return `counted ${n}`;
    },
});

const server = new MCPServer({
    id: 'agentsjs-mastra-server', name: 'agentsjs-mastra-server', version: '1.0.0',
    tools: { add, echo, slow_count: slowCount },
});

http.createServer(async (req, res) => {
    await server.startHTTP({ url: new URL(req.url || '', `http://127.0.0.1:${port}`), httpPath: '/mcp', req, res });
}).listen(port, '127.0.0.1', () => console.error(`Mastra MCPServer on 127.0.0.1:${port}/mcp`));
