// mcp-http-server 1.2.4 (ByteDance UI-TARS-desktop's agent-infra package, ./package-lock.json):
// startSseAndStreamableHttpMcpServer({port, host, stateless, createMcpServer}) as its README shows: express 5 routes of
// its own (POST /mcp, GET and DELETE /mcp answered 405 by its own handlers, GET /sse + POST /message for the legacy
// transport) around the official TS SDK 1.15.1 transports it depends on (its own nested copy). createMcpServer builds
// a new McpServer (the same SDK 1.15.1, zod 3 from that copy) for EVERY request, as the README's example does, with
// the ts_common.mjs tool set (add, echo, report, slow_count) and fail() (throws).
//   node mhs-server.mjs PORT stateless|stateful
import { startSseAndStreamableHttpMcpServer } from 'mcp-http-server';
import { McpServer } from './node_modules/mcp-http-server/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js';
import { z } from './node_modules/mcp-http-server/node_modules/zod/index.js';
import { registerTools, text } from '../ts_common.mjs';

const [port, mode = 'stateless'] = process.argv.slice(2);
const quiet = { info: () => {}, log: () => {}, debug: () => {}, warn: (...a) => console.error(...a), error: (...a) => console.error(...a) };
const endpoint = await startSseAndStreamableHttpMcpServer({
    port: Number(port),
    host: '127.0.0.1',
    stateless: mode !== 'stateful',
    logger: quiet,
    createMcpServer: async () => {
        const server = registerTools(new McpServer({ name: `mcptap-jsservers7-mhs-${mode}`, version: '1.0.0' }), z);
        server.registerTool('fail', { description: 'always throws', inputSchema: {} }, async () => { throw new Error('fail() was called'); });
        return server;
    },
});
console.error('listening', endpoint.url, mode);
const bye = () => { endpoint.close(); process.exit(0); };
process.on('SIGTERM', bye);
process.on('SIGINT', bye);
