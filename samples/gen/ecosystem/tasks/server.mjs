// mcptap ecosystem group "tasks": the TypeScript SDK (@modelcontextprotocol/sdk 1.32.2) McpServer with its
// experimental tasks (InMemoryTaskStore, capability tasks.requests.tools.call + list + cancel), stateful Streamable
// HTTP (one StreamableHTTPServerTransport per session, randomUUID session ids, SDK defaults: SSE replies, no event
// store). Tools, written the way the SDK's own example (examples/server/simpleStreamableHttp.js `delay`) writes them:
//   delay(ms)   a task tool: creates a task, finishes it after ms (storeTaskResult 'completed')
//   slow(secs)  a plain tool: runs secs seconds, one progress notification a second when the call has a progressToken
// usage: node server.mjs PORT
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';

const PORT = parseInt(process.argv[2], 10);
const taskStore = new InMemoryTaskStore();
const sleep = ms => new Promise(r => setTimeout(r, ms));

function makeServer() {
    const server = new McpServer({ name: 'tasks-demo', version: '1.0.0' }, {
        capabilities: { tasks: { requests: { tools: { call: {} } }, list: {}, cancel: {} } },
        taskStore
    });
    server.experimental.tasks.registerToolTask('delay', {
        description: 'Finishes after ms milliseconds (a task)',
        inputSchema: { ms: z.number().default(5000) },
        execution: { taskSupport: 'required' }
    }, {
        async createTask({ ms }, { taskStore, taskRequestedTtl }) {
            const task = await taskStore.createTask({ ttl: taskRequestedTtl });
            (async () => {
                await sleep(ms);
                try {
                    await taskStore.storeTaskResult(task.taskId, 'completed', {
                        content: [{ type: 'text', text: `Completed ${ms}ms delay` }]
                    });
                } catch (e) {
                    console.error(`task ${task.taskId}: ${e.message}`);
                }
            })();
            return { task };
        },
        async getTask(_args, { taskId, taskStore }) { return await taskStore.getTask(taskId); },
        async getTaskResult(_args, { taskId, taskStore }) { return await taskStore.getTaskResult(taskId); }
    });
    server.registerTool('slow', {
        description: 'Runs secs seconds, reporting progress',
        inputSchema: { secs: z.number().default(15) }
    }, async ({ secs }, extra) => {
        const token = extra._meta?.progressToken;
        for (let i = 1; i <= secs; i++) {
            await sleep(1000);
            if (token !== undefined) {
                await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: secs } });
            }
        }
        return { content: [{ type: 'text', text: `slept ${secs}s` }] };
    });
    return server;
}

const transports = {};
const httpServer = http.createServer(async (req, res) => {
    if (!req.url.startsWith('/mcp')) { res.writeHead(404).end(); return; }
    let body;
    if (req.method === 'POST') {
        const chunks = [];
        for await (const c of req) chunks.push(c);
        try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { body = undefined; }
    }
    const sid = req.headers['mcp-session-id'];
    let transport = sid ? transports[sid] : undefined;
    if (!transport) {
        if (req.method === 'POST' && !sid && body && isInitializeRequest(body)) {
            transport = new StreamableHTTPServerTransport({
                sessionIdGenerator: () => randomUUID(),
                onsessioninitialized: id => { transports[id] = transport; }
            });
            transport.onclose = () => { if (transport.sessionId) delete transports[transport.sessionId]; };
            await makeServer().connect(transport);
        } else {
            res.writeHead(sid ? 404 : 400, { 'content-type': 'application/json' })
               .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: sid ? 'Session not found' : 'Bad Request: No valid session ID provided' }, id: null }));
            return;
        }
    }
    await transport.handleRequest(req, res, body);
});
httpServer.listen(PORT, '127.0.0.1', () => console.log(`tasks server on 127.0.0.1:${PORT}/mcp`));
