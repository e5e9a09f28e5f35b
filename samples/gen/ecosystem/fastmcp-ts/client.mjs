// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2) for the fastmcp-ts captures.
// One bounded session: initialize (+ the standalone GET stream the Streamable HTTP transport opens by default),
// tools/list, add(1,2), echo("hello"), slow_count(3) with a progressToken (onprogress), add(40,2), [idle SECONDS],
// then DELETE (terminateSession, Streamable HTTP only) and close.
//   node client.mjs streamable URL [--idle S] [--token T]   # StreamableHTTPClientTransport
//   node client.mjs sse URL [--idle S]                      # SSEClientTransport (legacy HTTP+SSE, 2024-11-05)
// --token T sends `Authorization: Bearer T` on every request (requestInit headers); without it no Authorization.
// --idle S waits S seconds (doing nothing) after the last call, before DELETE and close.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const [mode = 'streamable', href = 'http://127.0.0.1:19140/mcp'] = args;
const idle = Number(opt('--idle') ?? 0);
const token = opt('--token');
const url = new URL(href);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000 + idle * 1000);
const opts = { timeout: 15000 };
const requestInit = token ? { headers: { Authorization: `Bearer ${token}` } } : undefined;

const client = new Client({ name: 'mcptap-fastmcp-ts-client', version: '1.0.0' });
client.onerror = (e) => console.error('client error:', e?.message ?? e);
const transport = mode === 'sse' ? new SSEClientTransport(url, { requestInit })
    : new StreamableHTTPClientTransport(url, { requestInit });
try {
    await client.connect(transport, opts);
} catch (e) {
    console.error('connect failed:', e?.constructor?.name, e?.message ?? e);
    clearTimeout(guard);
    process.exit(1);
}
console.error('session', transport.sessionId, 'protocol', transport.protocolVersion,
    'server', JSON.stringify(client.getServerVersion()));
const tools = await client.listTools(undefined, opts);
console.error('tools', tools.tools.map((t) => t.name));
const show = (name, a, r) => console.error(name, JSON.stringify(a), '->', r.content.map((c) => c.text));
const pause = (ms = 100) => new Promise((r) => setTimeout(r, ms));
for (const [name, a] of [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }]]) {
    show(name, a, await client.callTool({ name, arguments: a }, undefined, opts));
    await pause();
}
const progress = [];
show('slow_count', { n: 3 }, await client.callTool({ name: 'slow_count', arguments: { n: 3 } }, undefined,
    { ...opts, onprogress: (p) => progress.push(p.progress) }));
console.error('progress seen', JSON.stringify(progress));
await pause();
show('add', { a: 40, b: 2 }, await client.callTool({ name: 'add', arguments: { a: 40, b: 2 } }, undefined, opts));
if (idle > 0) {
    console.error(`idle ${idle} s`);
    await pause(idle * 1000);
}
if (mode !== 'sse') {
    try { await transport.terminateSession(); } catch (e) { console.error('terminateSession:', e?.message ?? e); }
}
await client.close();
clearTimeout(guard);
console.error('closed');
