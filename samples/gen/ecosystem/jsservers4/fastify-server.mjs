// fastify-mcp 3.0.0 on fastify 5.12.8 (jsservers4 group), as its README shows, with the official TS SDK 1.32.2
// McpServer behind it (add, echo, slow_count with notifications/progress when the request has a progressToken).
//   node fastify-server.mjs PORT stateless|stateful|sse
// stateless / stateful: `app.register(streamableHttp, { stateful, mcpEndpoint: "/mcp", sessions: new Sessions(),
// createServer })` (POST/GET/DELETE /mcp); sse: `app.register(fastifyMCPSSE, { server })` (GET /sse, POST /messages).
import { fastify } from 'fastify';
import { streamableHttp, fastifyMCPSSE, Sessions } from 'fastify-mcp';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const [port = '19530', mode = 'stateless'] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function createServer() {
    const mcpServer = new McpServer({ name: 'jsservers4-fastify-mcp', version: '1.0.0' });
    mcpServer.registerTool('add', { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
    mcpServer.registerTool('echo', { description: 'Echo the text back', inputSchema: { text: z.string() } },
        async ({ text }) => ({ content: [{ type: 'text', text }] }));
    mcpServer.registerTool('slow_count', {
        description: 'Count to n, 0.1 s a step, a notifications/progress per step when the request has a progressToken',
        inputSchema: { n: z.number().int() },
    }, async ({ n }, extra) => {
        const token = extra._meta?.progressToken;
        for (let i = 1; i <= n; i++) {
            await sleep(100);
            if (token !== undefined) {
                await extra.sendNotification({ method: 'notifications/progress',
                    params: { progressToken: token, progress: i, total: n, message: `step ${i}` } });
            }
        }
        return { content: [{ type: 'text', text: `counted to ${n}` }] };
    });
    return mcpServer.server;
}

const app = fastify({ logger: { level: 'info' } });
if (mode === 'sse') {
    app.register(fastifyMCPSSE, { server: createServer() });
} else {
    const sessions = new Sessions();
    sessions.on('connected', (id) => app.log.info({ id }, 'session connected'));
    sessions.on('terminated', (id) => app.log.info({ id }, 'session terminated'));
    app.register(streamableHttp, { stateful: mode === 'stateful', mcpEndpoint: '/mcp', sessions, createServer });
}
await app.listen({ host: '127.0.0.1', port: Number(port) });
