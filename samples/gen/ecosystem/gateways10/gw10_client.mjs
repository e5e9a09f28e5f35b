// The official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2) of the gateways10 captures: one bounded
// session through a gateway over StreamableHTTPClientTransport (Node's fetch, the transport's defaults: the
// standalone GET stream it opens after initialize), with `authorization: Bearer TOKEN` when TOKEN is given.
// Steps: tools/list, add(1,2), slow_count(3) with onprogress (a progressToken), add(40,2), terminateSession (DELETE),
// close. PREFIX goes before every tool name. Each request times out after 10 s, the run after 40 s; a failed step is
// logged and the run goes on.
//   node gw10_client.mjs URL [TOKEN] [PREFIX]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [href, token = '', prefix = ''] = process.argv.slice(2);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 40000);
const opts = { timeout: 10000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const client = new Client({ name: 'mcptap-gateways10-ts-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const requestInit = token ? { headers: { authorization: `Bearer ${token}` } } : undefined;
const transport = new StreamableHTTPClientTransport(new URL(href), { requestInit });
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };
const callTool = async (name, args, extra = {}) => {
    const r = await step(name, () => client.callTool({ name: prefix + name, arguments: args }, undefined, { ...opts, ...extra }));
    log(name, JSON.stringify(args), '->', r ? JSON.stringify(r.content.map((c) => c.text)) : 'no result');
    await sleep(100);
};

await client.connect(transport, opts);
log('session', transport.sessionId, 'protocol', transport.protocolVersion, 'server', JSON.stringify(client.getServerVersion()));
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.map((t) => t.name));
await callTool('add', { a: 1, b: 2 });
let seen = 0;
await callTool('slow_count', { n: 3 }, { onprogress: () => { seen += 1; } });
log('progress notifications seen', seen);
await callTool('add', { a: 40, b: 2 });
await step('terminateSession', () => transport.terminateSession());
await client.close();
clearTimeout(guard);
log('done');
