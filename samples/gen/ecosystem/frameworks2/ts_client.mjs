// The official TS SDK client 1.32.2 (../proxies2/node_modules) for samples/gen/ecosystem/frameworks2.sh.
//   node ts_client.mjs URL [--progress]
// connect (initialize 2025-11-25, notifications/initialized, the GET stream the transport opens by default),
// tools/list, add, echo, [slow_count(3) with onprogress], fail (a tool that errors), add again, then
// terminateSession (DELETE) and close. Each step's outcome is logged; a failed connect ends the run. Bounded: 30 s.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const req = createRequire(path.join(here, '..', 'proxies2', 'package.json'));
const { Client } = req('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = req('@modelcontextprotocol/sdk/client/streamableHttp.js');

const [url, ...flags] = process.argv.slice(2);
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
setTimeout(() => { log('30 s bound reached'); process.exit(3); }, 30000).unref();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const transport = new StreamableHTTPClientTransport(new URL(url));
const client = new Client({ name: 'frameworks2-ts-client', version: '1.0.0' });
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
const calls = [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }]];
if (flags.includes('--progress')) calls.push(['slow_count', { n: 3 }]);
calls.push(['fail', { why: 'asked to' }], ['add', { a: 40, b: 2 }]);
for (const [name, args] of calls) {
  await step(name, () => client.callTool({ name, arguments: args }, undefined,
    { onprogress: (p) => log('progress', JSON.stringify(p)) }));
}
await sleep(500);
await step('terminateSession', () => transport.terminateSession().then(() => 'done'));
await client.close();
log('closed');
process.exit(0);
