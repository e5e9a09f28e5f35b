// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, loaded from ../proxies2/node_modules) of the rust4
// group, over the legacy HTTP+SSE transport (SSEClientTransport: GET URL, the `endpoint` event, POSTs there). One
// bounded session: initialize, tools/list, add(1,2), echo("hello"), slow_count(3) with onprogress (a progressToken),
// no_such_tool (a JSON-RPC error expected), fail (isError), [HOLD s idle], add(40,2), close. Each request times out after 10 s, the
// run after 30 s. Steps that fail are logged and the run goes on; a failed connect ends it.
// HOLD (default 0): seconds idle before the last add(40,2), with the SSE stream open (the log says "holding" first).
//   node ts_client.mjs URL [HOLD]
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const sdk = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'proxies2', 'node_modules',
    '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'client');
const { Client } = await import(path.join(sdk, 'index.js'));
const { SSEClientTransport } = await import(path.join(sdk, 'sse.js'));

const [href = 'http://127.0.0.1:20150/sse', holdArg = '0'] = process.argv.slice(2);
const hold = Number(holdArg);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000 + hold * 1000);
const opts = { timeout: 10000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const client = new Client({ name: 'mcptap-rust4-ts-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = new SSEClientTransport(new URL(href));
try {
    await client.connect(transport, opts);
} catch (e) {
    log('connect failed:', e?.constructor?.name, e?.message ?? e);
    try { await client.close(); } catch { /* already closed */ }
    clearTimeout(guard);
    process.exit(1);
}
log('protocol', transport.protocolVersion, 'server', JSON.stringify(client.getServerVersion()));
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.code ?? '', e?.message ?? e); return undefined; } };
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.map((t) => t.name));
let seen = 0;
for (const [name, a, extra] of [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }],
    ['slow_count', { n: 3 }, { onprogress: () => { seen += 1; } }], ['no_such_tool', {}], ['fail', {}],
    ['add', { a: 40, b: 2 }]]) {
    if (name === 'add' && a.a === 40 && hold > 0) { log(`holding ${hold} s`); await sleep(hold * 1000); }
    const r = await step(name, () => client.callTool({ name, arguments: a }, undefined, { ...opts, ...(extra ?? {}) }));
    if (r) log(name, JSON.stringify(a), '->', r.isError ? 'isError' : '', r.content.map((c) => c.text));
    await sleep(100);
}
log('progress notifications seen', seen);
await client.close();
clearTimeout(guard);
log('closed');
