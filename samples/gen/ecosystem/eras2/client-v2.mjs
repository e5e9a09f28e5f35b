// Official TypeScript SDK v2 client (@modelcontextprotocol/client 2.x) for the eras2 ecosystem captures (copied from ../js-sdks/client-v2.mjs; clientInfo renamed).
// versionNegotiation mode 'auto' (the v2 client's default is 'legacy', a plain 2025 initialize): connect() probes
// with server/discover and takes 2026-07-28 on definitive modern evidence, else falls back to the initialize
// handshake. One bounded session: connect, tools/list, add(1,2), echo("hello"), slow_count(3) with a progressToken
// (onprogress), add(40,2), then terminateSession (a DELETE only when a session id exists) and close.
//   node client-v2.mjs URL
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [href = 'http://127.0.0.1:20415/mcp'] = process.argv.slice(2);
const url = new URL(href);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);
const opts = { timeout: 15000 };

const client = new Client({ name: 'mcptap-eras2-client-v2', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } });
client.onerror = (e) => console.error('client error:', e?.message ?? e);
const transport = new StreamableHTTPClientTransport(url);
await client.connect(transport, opts);
console.error('era', JSON.stringify(client.getProtocolEra()), 'protocol', client.getNegotiatedProtocolVersion(),
    'session', transport.sessionId, 'server', JSON.stringify(client.getServerVersion()));
const tools = await client.listTools(undefined, opts);
console.error('tools', tools.tools.map((t) => t.name));
const show = (name, args, r) => console.error(name, JSON.stringify(args), '->', r.content.map((c) => c.text));
const pause = () => new Promise((r) => setTimeout(r, 100));
for (const [name, args] of [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }]]) {
    show(name, args, await client.callTool({ name, arguments: args }, opts));
    await pause();
}
const progress = [];
show('slow_count', { n: 3 }, await client.callTool({ name: 'slow_count', arguments: { n: 3 } },
    { ...opts, onprogress: (p) => progress.push(p.progress) }));
console.error('progress seen', JSON.stringify(progress));
await pause();
show('add', { a: 40, b: 2 }, await client.callTool({ name: 'add', arguments: { a: 40, b: 2 } }, opts));
if (transport.sessionId) {
    try { await transport.terminateSession(); } catch (e) { console.error('terminateSession:', e?.message ?? e); }
}
await client.close();
clearTimeout(guard);
