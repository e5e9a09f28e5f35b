// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2) of the jsservers4 group. One bounded session:
// initialize (+ the standalone GET stream StreamableHTTPClientTransport opens by default), tools/list, add(1,2),
// echo("hello"), slow_count(N, default 3) with onprogress (so a progressToken: N notifications/progress 0.1 s apart,
// where the server sends them), add(40,2), terminateSession (DELETE; Streamable HTTP only) and close. Each request times out
// after 15 s, the whole run after 40 s. Steps that fail are logged and the run goes on.
//   node ts_client.mjs streamable|sse URL [N]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const [kind = 'streamable', href = 'http://127.0.0.1:19530/mcp', slowArg = '3'] = process.argv.slice(2);
const slow = Number(slowArg);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 40000);
const opts = { timeout: 15000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const client = new Client({ name: 'mcptap-jsservers4-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = kind === 'sse' ? new SSEClientTransport(new URL(href)) : new StreamableHTTPClientTransport(new URL(href));
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };
const callTool = async (name, args, extra = {}) => {
    const r = await step(name, () => client.callTool({ name, arguments: args }, undefined, { ...opts, ...extra }));
    log(name, JSON.stringify(args), '->', r ? r.content.map((c) => c.text) : 'no result');
    await sleep(100);
};

await client.connect(transport, opts);
log('session', transport.sessionId, 'protocol', transport.protocolVersion, 'server', JSON.stringify(client.getServerVersion()));
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.map((t) => t.name));
await callTool('add', { a: 1, b: 2 });
await callTool('echo', { text: 'hello' });
let seen = 0;
await callTool('slow_count', { n: slow }, { onprogress: (p) => { if (++seen <= 3 || seen === slow) log('progress', JSON.stringify(p)); } });
log('progress notifications seen', seen);
await callTool('add', { a: 40, b: 2 });
if (kind !== 'sse') await step('terminateSession', () => transport.terminateSession());
await client.close();
clearTimeout(guard);
log('done');
