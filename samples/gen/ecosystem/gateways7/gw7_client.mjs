// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, ./package-lock.json) of the gateways7 captures:
// one bounded session over StreamableHTTPClientTransport (Node's fetch, its defaults) through a gateway, with
// `authorization: Bearer $TOKEN_ENV` (requestInit headers). Steps: initialize (+ the standalone GET stream the
// transport opens), tools/list, add(1,2), echo("hello TAG"), slow_count(3) with onprogress (a progressToken),
// [errors: echo("secret TAG"), the unknown tool `nope`, add(a="x", b=2)], add(40,2), terminateSession (DELETE), close.
// Each request times out after 10 s, the run after 50 s; a step that fails is logged and the run goes on.
// READY/GO files (optional): before the first add, create READY and wait (max 20 s) for GO.
//   node gw7_client.mjs URL TOKEN_ENV TAG PREFIX [errors] [READY GO]
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [href, tokenEnv = '', tag = 'B', prefix = '', errors = '', ready = '', go = ''] = process.argv.slice(2);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 50000);
const opts = { timeout: 10000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, tag, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const headers = tokenEnv ? { authorization: `Bearer ${process.env[tokenEnv]}` } : {};
const client = new Client({ name: 'mcptap-gateways7-ts-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = new StreamableHTTPClientTransport(new URL(href), { requestInit: { headers } });
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };
let seen = 0;
const call = async (name, args, extra = {}) => {
    const r = await step(name, () => client.callTool({ name: prefix + name, arguments: args }, undefined, { ...opts, ...extra }));
    log(name, JSON.stringify(args), '->', r ? `${r.isError ? 'isError' : 'ok'} ${JSON.stringify(r.content.map((c) => c.text))}` : 'no result');
    await sleep(100);
};

await client.connect(transport, opts);
log('session', transport.sessionId, 'protocol', transport.protocolVersion, 'server', JSON.stringify(client.getServerVersion()));
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.map((t) => t.name));
if (ready) {
    fs.writeFileSync(ready, '');
    for (let i = 0; i < 400 && !fs.existsSync(go); i++) await sleep(50);
}
await call('add', { a: 1, b: 2 });
await call('echo', { text: `hello ${tag}` });
await call('slow_count', { n: 3 }, { onprogress: () => { seen++; } });
log('progress notifications seen', seen);
if (errors) {
    await call('echo', { text: `secret ${tag}` });
    await call('nope', {});
    await call('add', { a: 'x', b: 2 });
}
await call('add', { a: 40, b: 2 });
await step('terminateSession', () => transport.terminateSession());
await client.close();
clearTimeout(guard);
log('done');
