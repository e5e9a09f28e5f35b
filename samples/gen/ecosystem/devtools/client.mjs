// Official TypeScript SDK client (@modelcontextprotocol/sdk) for the devtools ecosystem (cf-agents scenarios) captures.
// One bounded session: initialize (+ the standalone GET stream the transport opens by default), tools/list,
// add(1,2), echo("hello"), slow_count(3) with a progressToken (onprogress), add(40,2), then DELETE
// (terminateSession, Streamable HTTP only) and close.
//   node client.mjs streamable URL     # StreamableHTTPClientTransport
//   node client.mjs sse URL            # SSEClientTransport (legacy HTTP+SSE, 2024-11-05)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const [mode = 'streamable', href = 'http://127.0.0.1:18700/mcp'] = process.argv.slice(2);
const url = new URL(href);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);
const opts = { timeout: 15000 };

const client = new Client({ name: 'mcptap-devtools-client', version: '1.0.0' });
client.onerror = (e) => console.error('client error:', e?.message ?? e);
const transport = mode === 'sse' ? new SSEClientTransport(url) : new StreamableHTTPClientTransport(url);
await client.connect(transport, opts);
console.error('session', transport.sessionId, 'protocol', transport.protocolVersion,
    'server', JSON.stringify(client.getServerVersion()));
const tools = await client.listTools(undefined, opts);
console.error('tools', tools.tools.map((t) => t.name));
const show = (name, args, r) => console.error(name, JSON.stringify(args), '->', r.content.map((c) => c.text));
const pause = () => new Promise((r) => setTimeout(r, 100));
for (const [name, args] of [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }]]) {
    show(name, args, await client.callTool({ name, arguments: args }, undefined, opts));
    await pause();
}
const progress = [];
show('slow_count', { n: 3 }, await client.callTool({ name: 'slow_count', arguments: { n: 3 } }, undefined,
    { ...opts, onprogress: (p) => progress.push(p.progress) }));
console.error('progress seen', JSON.stringify(progress));
await pause();
show('add', { a: 40, b: 2 }, await client.callTool({ name: 'add', arguments: { a: 40, b: 2 } }, undefined, opts));
if (mode !== 'sse') {
    try { await transport.terminateSession(); } catch (e) { console.error('terminateSession:', e?.message ?? e); }
}
await client.close();
clearTimeout(guard);
