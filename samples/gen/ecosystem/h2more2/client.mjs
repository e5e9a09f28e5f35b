// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, StreamableHTTPClientTransport) over HTTP/2: the
// transport's `fetch` is undici's fetch with an undici Agent({ allowH2: true, connect: { ca } }) (the h2more group's
// setup: undici 7 negotiates h2 by ALPN over TLS only). The TLS key log is written by Node itself:
//   node --tls-keylog=FILE client.mjs URL CA [COOKIE_KB]
// The run (bounded: 30 s guard, 15 s per request): connect (initialize, notifications/initialized, the standalone GET),
// tools/list, add(1,2), echo("hello"), slow_count(3) with onprogress (3 notifications/progress), add(40,2), DELETE
// (terminateSession), close. COOKIE_KB > 0: every request carries a `Cookie` header of that many KB (requestInit
// headers of the transport), a header block larger than one 16384-byte frame.
import { readFileSync } from 'node:fs';
import { Agent, fetch as undiciFetch } from 'undici';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const url = new URL(process.argv[2]);
const ca = readFileSync(process.argv[3]);
const cookieKb = Number(process.argv[4] ?? 0);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);
const opts = { timeout: 15000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);

// the same deterministic jar as h2more2_py.py cookie(): 4000-character cookies up to about COOKIE_KB KB
function cookie(kb) {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const parts = [];
    let i = 0;
    const size = () => parts.reduce((s, p) => s + p.length + 2, 0);
    while (size() < kb * 1024) {
        let v = '';
        for (let j = 0; j < 4000; j++) v += alphabet[(i * 7919 + j * 104729 + j * j * 31) % 64];
        parts.push(`sso_chunk_${i}=${v}`);
        i++;
    }
    return parts.join('; ');
}

const agent = new Agent({ allowH2: true, connect: { ca } });
const fetch = (input, init) => undiciFetch(input, { ...init, dispatcher: agent });
const requestInit = cookieKb > 0 ? { headers: { cookie: cookie(cookieKb) } } : undefined;

const client = new Client({ name: 'mcptap-h2more2-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = new StreamableHTTPClientTransport(url, { fetch, requestInit });
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const call = async (name, args, extra = {}) => {
    const r = await step(name, () => client.callTool({ name, arguments: args }, undefined, { ...opts, ...extra }));
    log(name, JSON.stringify(args), '->', r ? r.content.map((c) => c.text) : 'no result');
    await sleep(100);
};

await client.connect(transport, opts);
log('session', transport.sessionId, 'protocol', transport.protocolVersion);
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.map((t) => t.name));
await call('add', { a: 1, b: 2 });
await call('echo', { text: 'hello' });
await call('slow_count', { n: 3 }, { onprogress: (p) => log('progress', p.progress) });
await call('add', { a: 40, b: 2 });
await step('terminateSession', () => transport.terminateSession());
await client.close();
await agent.close();
clearTimeout(guard);
log('done');
