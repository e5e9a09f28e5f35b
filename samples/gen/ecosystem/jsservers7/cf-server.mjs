// @claude-flow/mcp 3.0.0-alpha.9 (./package-lock.json) over its own `http` transport (express 4 + helmet + cors + ws,
// no official SDK): POST /mcp (and /rpc), one JSON body per request answered `application/json`, notifications 204,
// no Mcp-Session-Id, a single process-wide "current session" set by each initialize. The README's HTTP example
// (createMCPServer({transport: 'http', host, port})) with auth off; tools: add(a,b), echo(text), fail() (throws),
// plus the package's built-ins (system/info, system/health, ...).
//   node cf-server.mjs PORT
import { createMCPServer } from '@claude-flow/mcp';

const port = Number(process.argv[2]);
const log = (lvl) => (msg, data) => console.error(`[${lvl}] ${msg}`, data ? JSON.stringify(data).slice(0, 200) : '');
const logger = { debug: () => {}, info: log('info'), warn: log('warn'), error: log('error') };
const server = createMCPServer({ transport: 'http', host: '127.0.0.1', port, name: 'mcptap-jsservers7-claude-flow' }, logger);
const num = { type: 'number' };
server.registerTool({ name: 'add', description: 'a + b', inputSchema: { type: 'object', properties: { a: num, b: num }, required: ['a', 'b'] },
    handler: async ({ a, b }) => String(a + b) });
server.registerTool({ name: 'echo', description: 'echo text', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    handler: async ({ text }) => text });
server.registerTool({ name: 'fail', description: 'always throws', inputSchema: { type: 'object', properties: {} },
    handler: async () => { throw new Error('fail() was called'); } });
await server.start();
const bye = async () => { await server.stop(); process.exit(0); };
process.on('SIGTERM', bye);
process.on('SIGINT', bye);
