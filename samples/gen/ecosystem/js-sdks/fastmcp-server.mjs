// FastMCP for TypeScript (npm fastmcp, punkpeye) on its httpStream transport, for the js-sdks captures. The HTTP
// server is mcp-proxy's startHTTPServer (node:http, its own session map and routing), which fastmcp starts.
// Tools: add(a,b), echo(text), slow_count(n) (n x notifications/progress 0.1 s apart when the request has a
// progressToken).
//   node fastmcp-server.mjs PORT               # defaults (stateful: session ids)
//   node fastmcp-server.mjs PORT --stateless   # httpStream.stateless: true
import { FastMCP } from 'fastmcp';
import { z } from 'zod';

const port = Number(process.argv[2] ?? 18730);
const stateless = process.argv.includes('--stateless');
const server = new FastMCP({ name: 'js-sdks-fastmcp-server', version: '1.0.0' });
server.addTool({ name: 'add', description: 'a + b', parameters: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => String(a + b) });
server.addTool({ name: 'echo', description: 'echo text', parameters: z.object({ text: z.string() }),
    execute: async ({ text }) => text });
server.addTool({ name: 'slow_count', description: 'count with progress', parameters: z.object({ n: z.number() }),
    execute: async ({ n }, { reportProgress }) => {
        for (let i = 1; i <= n; i++) {
            await reportProgress({ progress: i, total: n });
            await new Promise((r) => setTimeout(r, 100));
        }
        return `counted ${n}`;
    } });

await server.start({
    transportType: 'httpStream',
    httpStream: { host: '127.0.0.1', port, endpoint: '/mcp', ...(stateless ? { stateless: true } : {}) },
});
console.error(`fastmcp server (${stateless ? 'stateless' : 'stateful'}) on 127.0.0.1:${port}/mcp`);
