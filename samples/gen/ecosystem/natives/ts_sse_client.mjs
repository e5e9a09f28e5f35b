// The official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, the proxies2 group's node_modules, imported
// by path) over its legacy HTTP+SSE transport (SSEClientTransport: GET URL, the `endpoint` event, every message
// POSTed there; Node's global fetch, undici; the `eventsource` package for the stream). One bounded session:
// initialize, tools/list, add(1,2), echo("hello"), slow_count(N) with onprogress, HOLD seconds idle with the stream
// open, add(40,2), close. Each request times out after 20 s, the whole run after 40 + N/10 + HOLD s. Steps that fail
// are logged and the run goes on.
//   node ts_sse_client.mjs URL [SLOW_N] [HOLD_S]          e.g. http://127.0.0.1:19812/sse
import { Client } from '../proxies2/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js';
import { SSEClientTransport } from '../proxies2/node_modules/@modelcontextprotocol/sdk/dist/esm/client/sse.js';

const [href = 'http://127.0.0.1:19812/sse', slowArg = '3', holdArg = '0'] = process.argv.slice(2);
const slow = Number(slowArg), hold = Number(holdArg);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, (40 + slow / 10 + hold) * 1000);
const opts = { timeout: 20000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const client = new Client({ name: 'mcptap-natives-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = new SSEClientTransport(new URL(href));
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };
const show = (name, args, r) => log(name, JSON.stringify(args), '->', r ? r.content.map((c) => c.text) : 'no result');
const callTool = async (name, args, extra = {}) => {
    show(name, args, await step(name, () => client.callTool({ name, arguments: args }, undefined, { ...opts, ...extra })));
    await sleep(100);
};

const connected = await step('connect', () => client.connect(transport, opts));
if (connected === undefined && !client.getServerVersion()) { log('no session'); await step('close', () => client.close()); clearTimeout(guard); process.exit(1); }
log('protocol', transport.protocolVersion, 'server', JSON.stringify(client.getServerVersion()));
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.map((t) => t.name));
await callTool('add', { a: 1, b: 2 });
await callTool('echo', { text: 'hello' });
let seen = 0;
await callTool('slow_count', { n: slow }, { onprogress: (p) => { if (++seen === 1 || seen === slow) log('progress', JSON.stringify(p)); } });
log('progress notifications seen', seen);
if (hold > 0) { log(`holding ${hold} s`); await sleep(hold * 1000); }
await callTool('add', { a: 40, b: 2 });
await client.close();
clearTimeout(guard);
log('done');
