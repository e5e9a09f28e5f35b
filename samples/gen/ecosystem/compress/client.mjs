// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.x, StreamableHTTPClientTransport, Node's fetch with its
// own Accept-Encoding) for the compress captures. One bounded session: initialize (+ the standalone GET stream the
// transport opens by default), tools/list, add(1,2), echo("hello"), report(40) (a result of about 2 KB),
// slow_count(3) with a progressToken (onprogress), then DELETE (terminateSession) and close.
// A 30 s guard ends the run; each request times out after 15 s (the client's own timeout, not the 60 s default).
//   node client.mjs URL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const url = new URL(process.argv[2] ?? 'http://127.0.0.1:18875/mcp');
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);
const opts = { timeout: 15000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);

const client = new Client({ name: 'mcptap-compress-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = new StreamableHTTPClientTransport(url);
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };
await client.connect(transport, opts);
log('session', transport.sessionId, 'protocol', transport.protocolVersion, 'server', JSON.stringify(client.getServerVersion()));
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.map((t) => t.name));
const show = (name, args, r) => log(name, JSON.stringify(args), '->', r ? r.content.map((c) => c.text.length > 60 ? `${c.text.length} chars` : c.text) : 'no result');
const pause = () => new Promise((r) => setTimeout(r, 100));
for (const [name, args] of [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['report', { rows: 40 }]]) {
    show(name, args, await step(name, () => client.callTool({ name, arguments: args }, undefined, opts)));
    await pause();
}
const progress = [];
show('slow_count', { n: 3 }, await step('slow_count', () => client.callTool({ name: 'slow_count', arguments: { n: 3 } }, undefined,
    { ...opts, onprogress: (p) => { log('progress', p.progress); progress.push(p.progress); } })));
log('progress seen', JSON.stringify(progress));
await step('terminateSession', () => transport.terminateSession());
await client.close();
clearTimeout(guard);
log('done');
