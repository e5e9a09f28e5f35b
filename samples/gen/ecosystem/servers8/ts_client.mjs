// The official TS SDK client 1.32.2 (servers8/node_modules) for samples/gen/ecosystem/servers8.sh.
//   node ts_client.mjs URL [--sse]
// Streamable HTTP (StreamableHTTPClientTransport, defaults): connect (initialize, notifications/initialized, the GET
// stream the transport opens by default), tools/list, add, echo, slow(2) with onprogress, add again, then
// terminateSession (DELETE) and close. --sse: SSEClientTransport (HTTP+SSE), no terminateSession. Each step's outcome
// is logged; a failed connect ends the run. Bounded: 30 s.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const [url, ...flags] = process.argv.slice(2);
const sse = flags.includes('--sse');
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
setTimeout(() => { log('30 s bound reached'); process.exit(3); }, 30000).unref();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const transport = sse ? new SSEClientTransport(new URL(url)) : new StreamableHTTPClientTransport(new URL(url));
const client = new Client({ name: 'servers8-ts-client', version: '1.0.0' });
transport.onerror = (e) => log('transport error:', String(e?.message ?? e).slice(0, 200));
try {
  await client.connect(transport);
} catch (e) {
  log('connect failed:', String(e?.message ?? e).slice(0, 300));
  await sleep(300);
  process.exit(1);
}
log('negotiated', transport.protocolVersion, 'session', transport.sessionId);
const step = async (what, fn) => {
  try { log(what, '->', JSON.stringify(await fn()).slice(0, 200)); } catch (e) { log(what, 'raised', String(e?.message ?? e).slice(0, 200)); }
  await sleep(100);
};
await step('tools/list', async () => (await client.listTools()).tools.map((t) => t.name));
for (const [name, args] of [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['slow', { n: 2 }], ['add', { a: 40, b: 2 }]]) {
  await step(name, () => client.callTool({ name, arguments: args }, undefined,
    { onprogress: (p) => log('progress', JSON.stringify(p)) }));
}
await sleep(500);
if (!sse) await step('terminateSession', () => transport.terminateSession().then(() => 'done'));
await client.close();
log('closed');
process.exit(0);
