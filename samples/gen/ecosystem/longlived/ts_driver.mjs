// The longlived group's TypeScript SDK client driver (@modelcontextprotocol/sdk 1.32.2 of ../proxies2, its
// node_modules resolved by path): one long-lived session over StreamableHTTPClientTransport with its defaults (Node's
// global fetch, undici's connection pool; the standalone GET stream opened after initialize; reconnection options
// 1 s, x1.5, 2 retries): initialize, tools/list, then CALLS times add(i, 1), GAP_S seconds idle before each, then
// terminateSession (DELETE) and close. A call that fails is logged and the run goes on with the same client (no
// retry or re-initialize of the driver's own). Each request times out after 20 s; the whole run after
// 30 + CALLS * (GAP_S + 20) s.
//   node ts_driver.mjs URL GAP_S CALLS
import { createRequire } from 'node:module';
const require = createRequire(new URL('../proxies2/package.json', import.meta.url));
const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StreamableHTTPClientTransport } = await import(require.resolve('@modelcontextprotocol/sdk/client/streamableHttp.js'));

const [href, gapArg = '45', callsArg = '4'] = process.argv.slice(2);
const gap = Number(gapArg), calls = Number(callsArg);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, (30 + calls * (gap + 20)) * 1000);
const opts = { timeout: 20000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const client = new Client({ name: 'mcptap-longlived-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = new StreamableHTTPClientTransport(new URL(href));
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };

await client.connect(transport, opts);
log('session', transport.sessionId, 'protocol', transport.protocolVersion, 'server', JSON.stringify(client.getServerVersion()));
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.map((t) => t.name));
for (let i = 0; i < calls; i++) {
    log(`idle ${gap} s`);
    await sleep(gap * 1000);
    const r = await step('add', () => client.callTool({ name: 'add', arguments: { a: i, b: 1 } }, undefined, opts));
    log('add', i, 1, '->', r ? r.content.map((c) => c.text) : 'no result', 'session', transport.sessionId);
}
await step('terminateSession', () => transport.terminateSession());
await client.close();
clearTimeout(guard);
log('done');
