// The longlived2 group's TypeScript SDK client driver (@modelcontextprotocol/sdk 1.32.2 of ../proxies2, resolved by
// path): one long-lived session over StreamableHTTPClientTransport with its defaults (Node's fetch/undici, the
// standalone GET stream after initialize, reconnection 1 s x1.5, 2 retries): initialize, tools/list, then 45 s idle,
// add(0,1), 40 s idle, wait(70) (request timeout 120 s for it, 20 s for the others), 40 s idle, add(2,1), then
// terminateSession (DELETE) and close. A failed call is logged and the run goes on with the same client. Bounded: 280 s.
//   node ts_driver.mjs URL
import { createRequire } from 'node:module';
const require = createRequire(new URL('../proxies2/package.json', import.meta.url));
const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StreamableHTTPClientTransport } = await import(require.resolve('@modelcontextprotocol/sdk/client/streamableHttp.js'));

const [href] = process.argv.slice(2);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 280000);
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PLAN = [[45, 'add', { a: 0, b: 1 }, 20], [40, 'wait', { seconds: 70 }, 120], [40, 'add', { a: 2, b: 1 }, 20]];

const client = new Client({ name: 'mcptap-longlived2-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = new StreamableHTTPClientTransport(new URL(href));
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };

await client.connect(transport, { timeout: 20000 });
log('session', transport.sessionId, 'protocol', transport.protocolVersion);
const tools = await step('tools/list', () => client.listTools(undefined, { timeout: 20000 }));
log('tools', tools?.tools.map((t) => t.name));
for (const [gap, name, args, timeout] of PLAN) {
    log(`idle ${gap} s`);
    await sleep(gap * 1000);
    const r = await step(name, () => client.callTool({ name, arguments: args }, undefined, { timeout: timeout * 1000 }));
    log(name, JSON.stringify(args), '->', r ? r.content.map((c) => c.text) : 'no result', 'session', transport.sessionId);
}
await step('terminateSession', () => transport.terminateSession());
await client.close();
clearTimeout(guard);
log('done');
