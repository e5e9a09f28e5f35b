// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, ./package-lock.json) of the wsgi captures: one
// bounded session over StreamableHTTPClientTransport (Node's fetch, its defaults). Steps: initialize (+ the standalone
// GET stream the transport opens), tools/list, add(1,2), echo("hello TAG"), slow_count(COUNT) with onprogress (a
// progressToken; COUNT notifications 0.1 s apart, default 30), the unknown tool `nope`, add(a="x", b=2), add(40,2),
// terminateSession (DELETE), close. Each request times out after 15 s, the run after 55 s; a step that fails is
// logged and the run goes on.
//   node wsgi_client.mjs URL [TAG] [COUNT]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [href, tag = 'B', count = '30'] = process.argv.slice(2);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 55000);
const opts = { timeout: 15000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, tag, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const client = new Client({ name: 'mcptap-wsgi-ts-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = new StreamableHTTPClientTransport(new URL(href));
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };
let seen = 0;
const call = async (name, args, extra = {}) => {
    const r = await step(name, () => client.callTool({ name, arguments: args }, undefined, { ...opts, ...extra }));
    log(name, JSON.stringify(args), '->', r ? `${r.isError ? 'isError' : 'ok'} ${JSON.stringify(r.content.map((c) => c.text))}` : 'no result');
    await sleep(100);
};

await client.connect(transport, opts);
log('session', transport.sessionId, 'protocol', transport.protocolVersion, 'server', JSON.stringify(client.getServerVersion()));
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.map((t) => t.name));
await call('add', { a: 1, b: 2 });
await call('echo', { text: `hello ${tag}` });
await call('slow_count', { n: Number(count) }, { onprogress: (p) => { seen++; log('progress', p.progress, p.total); } });
log('progress notifications seen', seen);
await call('nope', {});
await call('add', { a: 'x', b: 2 });
await call('add', { a: 40, b: 2 });
await step('terminateSession', () => transport.terminateSession());
await client.close();
clearTimeout(guard);
log('done');
