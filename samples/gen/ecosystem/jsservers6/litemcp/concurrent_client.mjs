// Two concurrent HTTP+SSE sessions (jsservers6 group, TS SDK 1.32.2 SSEClientTransport): A connects (GET /sse,
// initialize), lists the tools and calls add(1,2); while A's stream is open, B connects; then A calls echo and B
// (if it connected) calls add(2,3); both close. Each request times out after 10 s, the run after 30 s. Failed steps
// are logged and the run goes on.
//   node concurrent_client.mjs URL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const [href = 'http://127.0.0.1:20078/sse'] = process.argv.slice(2);
setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);
const opts = { timeout: 10000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const step = async (name, fn) => { try { const r = await fn(); log(name, 'ok', JSON.stringify(r)?.slice(0, 120)); return r ?? true; } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };
const mk = (n) => {
    const c = new Client({ name: `mcptap-jsservers6-${n}`, version: '1.0.0' });
    c.onerror = (e) => log(n, 'client error:', e?.message ?? e);
    return [c, new SSEClientTransport(new URL(href))];
};
const [a, ta] = mk('A');
await step('A connect', () => a.connect(ta, opts));
await step('A tools/list', () => a.listTools(undefined, opts));
await step('A add', () => a.callTool({ name: 'add', arguments: { a: 1, b: 2 } }, undefined, opts));
const [b, tb] = mk('B');
const bOk = await step('B connect', () => b.connect(tb, opts));
await sleep(300);
await step('A echo', () => a.callTool({ name: 'echo', arguments: { text: 'hello' } }, undefined, opts));
if (bOk) await step('B add', () => b.callTool({ name: 'add', arguments: { a: 2, b: 3 } }, undefined, opts));
await sleep(300);
await step('A close', () => a.close());
await step('B close', () => b.close());
log('done');
process.exit(0);
