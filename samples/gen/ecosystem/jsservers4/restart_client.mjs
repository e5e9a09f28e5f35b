// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2) of the jsservers4 group, for a server restarted
// under a live session: initialize (+ the standalone GET stream), tools/list, add(1,2), then WAIT seconds idle (the
// harness restarts the server meanwhile: its in-memory sessions are gone), then add(40,2) and echo("hello") with the
// old session id, terminateSession (DELETE) and close. No re-initialize: the SDK 1.x client does not re-initialize
// on its own, and this client does not either (it logs each failure and goes on). Each request times out after 10 s,
// the whole run after 40 s.
//   node restart_client.mjs URL [WAIT]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [href = 'http://127.0.0.1:19532/mcp', waitArg = '4'] = process.argv.slice(2);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 40000);
const opts = { timeout: 10000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const step = async (name, fn) => { try { const r = await fn(); log(name, 'ok', JSON.stringify(r?.content ?? r ?? null)); } catch (e) { log(name, 'failed:', e?.message ?? e); } await sleep(100); };

const client = new Client({ name: 'mcptap-jsservers4-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = new StreamableHTTPClientTransport(new URL(href));
await client.connect(transport, opts);
log('session', transport.sessionId, 'protocol', transport.protocolVersion);
await step('tools/list', () => client.listTools(undefined, opts).then((r) => ({ content: r.tools.map((t) => t.name) })));
await step('add', () => client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }, undefined, opts));
log(`idle ${waitArg} s`);
await sleep(Number(waitArg) * 1000);
await step('add', () => client.callTool({ name: 'add', arguments: { a: 40, b: 2 } }, undefined, opts));
await step('echo', () => client.callTool({ name: 'echo', arguments: { text: 'hello' } }, undefined, opts));
await step('terminateSession', () => transport.terminateSession());
await client.close();
clearTimeout(guard);
log('done');
