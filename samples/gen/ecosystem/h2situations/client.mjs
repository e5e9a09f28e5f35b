// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, StreamableHTTPClientTransport) over HTTP/2 for the
// h2situations captures: the transport's `fetch` is undici's fetch with an undici Agent({ allowH2: true, connect:
// { ca } }) (the h2more group's client.mjs setup; undici 7 negotiates h2 only by ALPN over TLS, it has no h2c). The TLS
// key log is written by Node itself: run as `node --tls-keylog=FILE client.mjs URL CA PLAN`.
// Plans, each bounded (30 s guard; 15 s per request); a call that fails is logged and the plan goes on:
//   cancel   tools/list, add(1,2), slow_count(30) with an AbortSignal aborted at the 2nd progress notification
//            (the SDK's own cancellation), add(40,2), DELETE (terminateSession), close
//   restart  tools/list, add(1,2), a 6 s pause (the script restarts the server), add x3, DELETE, close
import { readFileSync } from 'node:fs';
import { Agent, fetch as undiciFetch } from 'undici';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const url = new URL(process.argv[2]);
const ca = readFileSync(process.argv[3]);
const plan = process.argv[4] ?? 'cancel';
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);
const opts = { timeout: 15000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);

const agent = new Agent({ allowH2: true, connect: { ca } });
const fetch = (input, init) => undiciFetch(input, { ...init, dispatcher: agent });

const client = new Client({ name: 'mcptap-h2situations-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = new StreamableHTTPClientTransport(url, { fetch });
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };
const show = (name, args, r) => log(name, JSON.stringify(args), '->', r ? r.content.map((c) => c.text) : 'no result');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const add = async (a, b) => show('add', { a, b }, await step('add', () => client.callTool({ name: 'add', arguments: { a, b } }, undefined, opts)));

await client.connect(transport, opts);
log('session', transport.sessionId, 'protocol', transport.protocolVersion);
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.map((t) => t.name));
await add(1, 2);
await sleep(100);
if (plan === 'cancel') {
    const ac = new AbortController();
    show('slow_count', { n: 30 }, await step('slow_count', () => client.callTool({ name: 'slow_count', arguments: { n: 30 } }, undefined,
        { ...opts, signal: ac.signal, onprogress: (p) => { log('progress', p.progress); if (p.progress >= 2) { log('aborting slow_count'); ac.abort('user cancelled'); } } })));
} else {
    log('pause 6 s');
    await sleep(6000);
    for (let i = 0; i < 2; i++) { await add(1, 2); await sleep(100); }
}
await sleep(100);
await add(40, 2);
await step('terminateSession', () => transport.terminateSession());
await client.close();
await agent.close();
clearTimeout(guard);
log('done');
