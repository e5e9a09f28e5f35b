// Two sessions against a server whose session store holds one (jsservers6 group, TS SDK 1.32.2 client): A initializes
// (+ its GET stream), tools/list, fail() (an isError result); B initializes (the LRU evicts and closes A); A's
// tools/list again (the server no longer knows A), B add(1,2), B DELETE, A DELETE. Each request times out after 10 s,
// the run after 30 s. Failed steps are logged and the run goes on.
//   node evict_client.mjs URL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [href = 'http://127.0.0.1:20074/mcp'] = process.argv.slice(2);
setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);
const opts = { timeout: 10000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const step = async (name, fn) => { try { const r = await fn(); log(name, 'ok', JSON.stringify(r)?.slice(0, 120)); return r; } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };

const mk = (n) => {
    const c = new Client({ name: `mcptap-jsservers6-${n}`, version: '1.0.0' });
    c.onerror = (e) => log(n, 'client error:', e?.message ?? e);
    return [c, new StreamableHTTPClientTransport(new URL(href))];
};
const [a, ta] = mk('A');
await step('A connect', () => a.connect(ta, opts));
log('A session', ta.sessionId);
await sleep(300);
await step('A tools/list', () => a.listTools(undefined, opts));
await step('A fail', () => a.callTool({ name: 'fail', arguments: {} }, undefined, opts));
const [b, tb] = mk('B');
await step('B connect', () => b.connect(tb, opts));
log('B session', tb.sessionId);
await sleep(500);
await step('A tools/list after B', () => a.listTools(undefined, opts));
await step('B add', () => b.callTool({ name: 'add', arguments: { a: 1, b: 2 } }, undefined, opts));
await step('B DELETE', () => tb.terminateSession());
await step('A DELETE', () => ta.terminateSession());
await sleep(300);
await step('A close', () => a.close());
await step('B close', () => b.close());
log('done');
process.exit(0);
