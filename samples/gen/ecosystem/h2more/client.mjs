// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.x, StreamableHTTPClientTransport) over HTTP/2 for the
// h2more captures: the transport's `fetch` option is undici's fetch with an undici Agent({ allowH2: true, connect:
// { ca } }), which is how a Node app opts into h2 (Node's global fetch stays on HTTP/1.1). The TLS key log is written
// by Node itself: run as `node --tls-keylog=FILE client.mjs URL CA`.
// One bounded session: initialize (+ the standalone GET stream the transport opens by default), tools/list,
// add(1,2), echo("hello"), slow_count(3) with a progressToken (onprogress), add(40,2), then DELETE
// (terminateSession) and close. A 30 s guard ends the run; each request times out after 15 s.
//   node --tls-keylog=KEYS client.mjs URL CA
import { readFileSync } from 'node:fs';
import { Agent, fetch as undiciFetch } from 'undici';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const url = new URL(process.argv[2] ?? 'https://127.0.0.1:18825/mcp');
const ca = readFileSync(process.argv[3] ?? 'certs/cert.pem');
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);
const opts = { timeout: 15000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);

const agent = new Agent({ allowH2: true, connect: { ca } });
const fetch = (input, init) => undiciFetch(input, { ...init, dispatcher: agent });

const client = new Client({ name: 'mcptap-h2more-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = new StreamableHTTPClientTransport(url, { fetch });
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
await agent.close();
clearTimeout(guard);
log('done');
