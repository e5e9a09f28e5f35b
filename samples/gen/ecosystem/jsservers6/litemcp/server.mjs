// litemcp 0.9.0 (jsservers6 group): LiteMCP.start({transportType: "sse"}), which serves the legacy HTTP+SSE transport
// through mcp-proxy 2.14.3's startSSEServer (node:http code of its own: GET /sse opens the stream, POST
// /messages?sessionId=, GET /ping and /health, 404 otherwise; one official TS SDK Server instance handed to every
// connection). Tools: add(a,b), echo(text), slow_count(n) (n steps of 0.1 s; litemcp's execute() gets no progress
// token, so no notifications/progress), fail() (throws: litemcp turns it into an isError result). mcp-proxy listens
// on "::" (its own choice, not configurable); only 127.0.0.1 is ever talked to.
//   node server.mjs PORT
import { LiteMCP } from 'litemcp';
import { z } from 'zod';

const [portArg = '20077'] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mcp = new LiteMCP('litemcp-sse', '0.9.0');
mcp.addTool({ name: 'add', description: 'a + b', parameters: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => String(a + b) });
mcp.addTool({ name: 'echo', description: 'echo text', parameters: z.object({ text: z.string() }), execute: async ({ text }) => text });
mcp.addTool({
    name: 'slow_count', description: 'count to n, 0.1 s a step', parameters: z.object({ n: z.number().int().min(1).max(200) }),
    execute: async ({ n }) => { for (let i = 0; i < n; i++) await sleep(100); return `counted to ${n}`; },
});
mcp.addTool({ name: 'fail', description: 'always throws', parameters: z.object({}), execute: async () => { throw new Error('fail: this tool always fails'); } });
await mcp.start({ transportType: 'sse', sse: { endpoint: '/sse', port: Number(portArg) } });
process.on('SIGTERM', () => process.exit(0));
