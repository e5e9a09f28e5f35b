// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2) of the proxies2 group, through a reverse proxy.
// One bounded session over StreamableHTTPClientTransport (Node's global fetch, undici, its defaults): initialize
// (+ the standalone GET stream the transport opens by default), tools/list, add(1,2), echo("hello"), slow_count(N)
// with onprogress (so a progressToken: N notifications/progress 0.1 s apart), then HOLD seconds idle with the GET
// stream open, add(40,2), terminateSession (DELETE) and close. Each request times out after 20 s (the SDK's option;
// a buffering proxy may hold a reply back), the whole run after 40 + N/10 + HOLD s. Steps that fail are logged and
// the run goes on.
//   node ts_client.mjs URL [SLOW_N] [HOLD_S]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [href = 'http://127.0.0.1:19254/mcp', slowArg = '60', holdArg = '0'] = process.argv.slice(2);
const slow = Number(slowArg), hold = Number(holdArg);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, (40 + slow / 10 + hold) * 1000);
const opts = { timeout: 20000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const client = new Client({ name: 'mcptap-proxies2-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = new StreamableHTTPClientTransport(new URL(href));
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };
const show = (name, args, r) => log(name, JSON.stringify(args), '->', r ? r.content.map((c) => c.text) : 'no result');
const callTool = async (name, args, extra = {}) => {
    show(name, args, await step(name, () => client.callTool({ name, arguments: args }, undefined, { ...opts, ...extra })));
    await sleep(100);
};

await client.connect(transport, opts);
log('session', transport.sessionId, 'protocol', transport.protocolVersion, 'server', JSON.stringify(client.getServerVersion()));
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.map((t) => t.name));
await callTool('add', { a: 1, b: 2 });
await callTool('echo', { text: 'hello' });
let seen = 0;
await callTool('slow_count', { n: slow }, { onprogress: (p) => { if (++seen === 1 || seen === slow) log('progress', JSON.stringify(p)); } });
log('progress notifications seen', seen);
if (hold > 0) { log(`holding ${hold} s`); await sleep(hold * 1000); }
await callTool('add', { a: 40, b: 2 });
await step('terminateSession', () => transport.terminateSession());
await client.close();
clearTimeout(guard);
log('done');
