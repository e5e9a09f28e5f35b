// @smithery/sdk 2.1.0 server helpers (jsservers6 group): createStatefulServer (its own Express 5 routes: POST/GET/DELETE
// /mcp, a session store of its own, an LRU of at most STORE_MAX transports) or createStatelessServer (a new McpServer
// and transport per POST; GET and DELETE answered 405 by its own route), around the official TypeScript SDK 1.32.2
// McpServer. Tools: add(a,b), echo(text), slow_count(n) (n notifications/progress 0.1 s apart when the request has a
// progressToken), fail() (throws: an isError result). Listens on 127.0.0.1 only.
//   node server.mjs PORT stateful|stateless [STORE_MAX]
import { createStatefulServer, createStatelessServer, createLRUStore } from '@smithery/sdk/server';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const [portArg = '20070', mode = 'stateful', maxArg = '1000'] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function build() {
    const server = new McpServer({ name: `smithery-${mode}`, version: '2.1.0' });
    server.tool('add', 'a + b', { a: z.number(), b: z.number() }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
    server.tool('echo', 'echo text', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
    server.tool('slow_count', 'count to n, 0.1 s a step, with progress', { n: z.number().int().min(1).max(200) }, async ({ n }, extra) => {
        const token = extra._meta?.progressToken;
        for (let i = 1; i <= n; i++) {
            await sleep(100);
            if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n } });
        }
        return { content: [{ type: 'text', text: `counted to ${n}` }] };
    });
    server.tool('fail', 'always throws', {}, async () => { throw new Error('fail: this tool always fails'); });
    return server.server;
}

const opts = { logLevel: 'info' };
if (mode === 'stateful') opts.sessionStore = createLRUStore(Number(maxArg));
const { app } = mode === 'stateful' ? createStatefulServer(() => build(), opts) : createStatelessServer(() => build(), opts);
const http = app.listen(Number(portArg), '127.0.0.1', () => console.error(`smithery ${mode} on 127.0.0.1:${portArg}`));
const bye = () => { http.close(); process.exit(0); };
process.on('SIGINT', bye);
process.on('SIGTERM', bye);
