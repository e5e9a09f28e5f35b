// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.x, StreamableHTTPClientTransport) behind a forward
// proxy, for the egress captures: what Node users do to honour HTTP_PROXY / HTTPS_PROXY / NO_PROXY, since Node's
// global fetch ignores them: `setGlobalDispatcher(new EnvHttpProxyAgent())` (undici 7) before anything fetches. The
// transport keeps its default, the global fetch. For an https URL the certificate is trusted by NODE_EXTRA_CA_CERTS
// and the TLS key log is written by Node itself (`node --tls-keylog=FILE`).
// undici 7.30.3's ProxyAgent (which EnvHttpProxyAgent makes for each proxy variable) tunnels EVERY request with
// CONNECT by default, http:// URLs too (`proxyTunnel = true` in lib/dispatcher/proxy-agent.js, although its
// ProxyAgent.md says false is the default); `--no-proxy-tunnel` passes `{ proxyTunnel: false }`, the documented
// option for sending http:// requests to an http:// proxy in absolute-form.
// One bounded session: initialize (+ the standalone GET stream the transport opens by default), tools/list,
// add(1,2), echo("hello"), slow_count(3) with a progressToken (onprogress), add(40,2), then DELETE
// (terminateSession) and close. A 30 s guard ends the run; each request times out after 15 s.
//   HTTP_PROXY=http://127.0.0.1:19090 node ts_client.mjs http://127.0.0.1:19097/mcp [--no-proxy-tunnel]
//   HTTPS_PROXY=http://127.0.0.1:19090 NODE_EXTRA_CA_CERTS=cert.pem node --tls-keylog=KEYS ts_client.mjs https://...
import { EnvHttpProxyAgent, setGlobalDispatcher } from 'undici';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const dispatcher = new EnvHttpProxyAgent(process.argv.includes('--no-proxy-tunnel') ? { proxyTunnel: false } : {});
setGlobalDispatcher(dispatcher);

const url = new URL(process.argv[2] ?? 'http://127.0.0.1:19097/mcp');
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);
const opts = { timeout: 15000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);

const client = new Client({ name: 'mcptap-egress-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = new StreamableHTTPClientTransport(url);
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
show('slow_count', { n: 3 }, await step('slow_count', () => client.callTool({ name: 'slow_count', arguments: { n: 3 } }, undefined,
    { ...opts, onprogress: (p) => { log('progress', p.progress); progress.push(p.progress); } })));
log('progress seen', JSON.stringify(progress));
await pause();
show('add', { a: 40, b: 2 }, await step('add', () => client.callTool({ name: 'add', arguments: { a: 40, b: 2 } }, undefined, opts)));
await step('terminateSession', () => transport.terminateSession());
await client.close();
await dispatcher.close();
clearTimeout(guard);
log('done');
