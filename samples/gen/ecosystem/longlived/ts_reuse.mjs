// The longlived group's TypeScript SDK client driver for a session id kept across client restarts
// (@modelcontextprotocol/sdk 1.32.2 of ../proxies2, resolved by path): the transport's documented `sessionId` option
// ("reconnect to an existing session"), as a CLI or a desktop app that persists Mcp-Session-Id between runs uses it.
// Phase 1: a Client connects (initialize, its standalone GET stream), tools/list, add(0,1), then close() without
// terminateSession (no DELETE: the session stays on the server). Phase 2: a new Client over a new transport made with
// { sessionId } (Client.connect skips initialize when the transport has a session id, so no GET stream either); then,
// for each GAP of GAPS (comma-separated seconds), GAP seconds idle and add(i,1). A call that fails is logged and the
// run goes on with the same client (no retry or re-initialize of the driver's own). Each request times out after
// 20 s; the whole run after 60 + sum(GAPS) + 20 * len(GAPS) s. Ends with close() (no DELETE).
//   node ts_reuse.mjs URL GAPS
import { createRequire } from 'node:module';
const require = createRequire(new URL('../proxies2/package.json', import.meta.url));
const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StreamableHTTPClientTransport } = await import(require.resolve('@modelcontextprotocol/sdk/client/streamableHttp.js'));

const [href, gapsArg = '20,45,20'] = process.argv.slice(2);
const gaps = gapsArg.split(',').map(Number);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); },
    (60 + gaps.reduce((a, b) => a + b, 0) + 20 * gaps.length) * 1000);
const opts = { timeout: 20000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };

const c1 = new Client({ name: 'mcptap-longlived-reuse', version: '1.0.0' });
c1.onerror = (e) => log('client 1 error:', e?.message ?? e);
const t1 = new StreamableHTTPClientTransport(new URL(href));
await c1.connect(t1, opts);
const sid = t1.sessionId;
log('phase 1 session', sid, 'protocol', t1.protocolVersion);
await step('tools/list', () => c1.listTools(undefined, opts));
const r0 = await step('add', () => c1.callTool({ name: 'add', arguments: { a: 0, b: 1 } }, undefined, opts));
log('add 0 1 ->', r0 ? r0.content.map((c) => c.text) : 'no result');
await c1.close();
log('phase 1 closed (no DELETE); phase 2 reuses session', sid);

const c2 = new Client({ name: 'mcptap-longlived-reuse', version: '1.0.0' });
c2.onerror = (e) => log('client 2 error:', e?.message ?? e);
const t2 = new StreamableHTTPClientTransport(new URL(href), { sessionId: sid });
await c2.connect(t2, opts);
log('phase 2 connected, transport session', t2.sessionId);
for (let i = 0; i < gaps.length; i++) {
    log(`idle ${gaps[i]} s`);
    await sleep(gaps[i] * 1000);
    const r = await step('add', () => c2.callTool({ name: 'add', arguments: { a: i + 1, b: 1 } }, undefined, opts));
    log('add', i + 1, 1, '->', r ? r.content.map((c) => c.text) : 'no result', 'session', t2.sessionId);
}
await c2.close();
clearTimeout(guard);
log('done');
