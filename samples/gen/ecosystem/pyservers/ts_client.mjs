// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2) of the pyservers group. One bounded session:
// initialize (+ the standalone GET stream the Streamable HTTP transport opens by default once it holds a session id),
// tools/list, add(1,2), echo("hello"), slow_count(3) with a progressToken (onprogress), add(40,2), 0.1 s apart, then,
// for Streamable HTTP, terminateSession (a DELETE when the server gave a session id) and close. A 30 s guard ends the
// run; each request times out after 10 s. Node's global fetch (undici), its defaults.
//   node ts_client.mjs streamable http://127.0.0.1:19191/mcp   # StreamableHTTPClientTransport
//   node ts_client.mjs sse http://127.0.0.1:19192/sse          # SSEClientTransport (HTTP+SSE)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const [mode = 'streamable', href = 'http://127.0.0.1:19191/mcp'] = process.argv.slice(2);
const url = new URL(href);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);
const opts = { timeout: 10000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);

const client = new Client({ name: 'mcptap-pyservers-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = mode === 'sse' ? new SSEClientTransport(url) : new StreamableHTTPClientTransport(url);
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };
try {
    await client.connect(transport, opts);
} catch (e) {
    log('connect failed:', e?.message ?? e);
    clearTimeout(guard);
    process.exit(1);
}
log('session', transport.sessionId, 'protocol', transport.protocolVersion, 'server', JSON.stringify(client.getServerVersion()));
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.map((t) => t.name));
const show = (name, args, r) => log(name, JSON.stringify(args), '->', r ? r.content.map((c) => c.text) : 'no result');
const pause = () => new Promise((r) => setTimeout(r, 100));
const calls = [['add', { a: 1, b: 2 }, false], ['echo', { text: 'hello' }, false], ['slow_count', { n: 3 }, true], ['add', { a: 40, b: 2 }, false]];
for (const [name, args, withProgress] of calls) {
    const o = withProgress ? { ...opts, onprogress: (p) => log('progress', JSON.stringify(p)) } : opts;
    show(name, args, await step(name, () => client.callTool({ name, arguments: args }, undefined, o)));
    await pause();
}
if (mode !== 'sse') await step('terminateSession', () => transport.terminateSession());
await client.close();
clearTimeout(guard);
log('done');
