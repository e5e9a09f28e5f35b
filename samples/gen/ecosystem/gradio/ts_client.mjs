// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2) of the gradio group, against Gradio's MCP server.
// One bounded session: initialize (+ the standalone GET stream the Streamable HTTP transport opens by default),
// tools/list, add(1,2), echo("hello"), count_slowly(3) with a progressToken (onprogress: Gradio then sends its queue
// status and progress as notifications/progress; add and echo carry none), 0.1 s apart, then, for Streamable HTTP,
// terminateSession (a DELETE only if the server gave a session id: Gradio's stateless server gives none) and close.
// A 30 s guard ends the run; each request times out after 15 s. Node's global fetch (undici), its defaults.
//   node ts_client.mjs streamable http://127.0.0.1:19130/gradio_api/mcp/   # StreamableHTTPClientTransport
//   node ts_client.mjs sse http://127.0.0.1:19130/gradio_api/mcp/sse       # SSEClientTransport (HTTP+SSE)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const [mode = 'streamable', href = 'http://127.0.0.1:19130/gradio_api/mcp/'] = process.argv.slice(2);
const url = new URL(href);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);
const opts = { timeout: 15000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);

const client = new Client({ name: 'mcptap-gradio-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = mode === 'sse' ? new SSEClientTransport(url) : new StreamableHTTPClientTransport(url);
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };
await client.connect(transport, opts);
log('session', transport.sessionId, 'protocol', transport.protocolVersion, 'server', JSON.stringify(client.getServerVersion()));
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.map((t) => t.name));
const show = (name, args, r) => log(name, JSON.stringify(args), '->', r ? r.content.map((c) => c.text) : 'no result');
const pause = () => new Promise((r) => setTimeout(r, 100));
for (const [name, args] of [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }]]) {
    show(name, args, await step(name, () => client.callTool({ name, arguments: args }, undefined, opts)));
    await pause();
}
const progress = [];
show('count_slowly', { n: 3 }, await step('count_slowly', () => client.callTool({ name: 'count_slowly', arguments: { n: 3 } },
    undefined, { ...opts, onprogress: (p) => { log('progress', JSON.stringify(p)); progress.push(p.progress); } })));
log('progress seen', JSON.stringify(progress));
await pause();
if (mode !== 'sse') await step('terminateSession', () => transport.terminateSession());
await client.close();
clearTimeout(guard);
log('done');
