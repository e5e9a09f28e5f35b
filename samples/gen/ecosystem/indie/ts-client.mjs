// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2) for the indie group's servers, defaults. One
// bounded session: connect (initialize; on Streamable HTTP also the standalone GET the transport opens), tools/list,
// add(1,2), echo("hello"), slow_count(3) with onprogress (so the request carries a progressToken), add(40,2), then
// DELETE (terminateSession, Streamable HTTP only) and close.
//   node ts-client.mjs streamable|sse URL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const [mode = 'streamable', href = 'http://127.0.0.1:18910/mcp'] = process.argv.slice(2);
const url = new URL(href);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);
const opts = { timeout: 15000 };
const pause = () => new Promise((r) => setTimeout(r, 100));

const client = new Client({ name: 'mcptap-indie-ts-client', version: '1.0.0' });
client.onerror = (e) => console.error('client error:', e?.message ?? e);
const transport = mode === 'sse' ? new SSEClientTransport(url) : new StreamableHTTPClientTransport(url);
await client.connect(transport, opts);
console.error('session', transport.sessionId, 'protocol', transport.protocolVersion, 'server', JSON.stringify(client.getServerVersion()));
const tools = await client.listTools(undefined, opts);
console.error('tools', tools.tools.map((t) => t.name));
const progress = [];
for (const [name, args] of [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['slow_count', { n: 3 }], ['add', { a: 40, b: 2 }]]) {
    const r = await client.callTool({ name, arguments: args }, undefined,
        name === 'slow_count' ? { ...opts, onprogress: (p) => progress.push(p.progress) } : opts);
    console.error(name, JSON.stringify(args), '->', r.content.map((c) => c.text));
    await pause();
}
console.error('progress seen', JSON.stringify(progress));
if (mode !== 'sse') {
    try { await transport.terminateSession(); } catch (e) { console.error('terminateSession:', e?.message ?? e); }
}
await client.close();
clearTimeout(guard);
