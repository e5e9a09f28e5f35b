// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2) of the tls2 group over https: Node's global fetch
// (undici) with its defaults; the certificate is trusted through NODE_EXTRA_CA_CERTS and the TLS secrets are written
// by Node's own `--tls-keylog=FILE`. SESSIONS sessions one after the other, each a StreamableHTTPClientTransport:
// initialize (+ the standalone GET stream the transport opens), tools/list, add(1,2), echo("hello"), slow_count(3)
// with onprogress (a progressToken: 3 notifications/progress 0.1 s apart), add(40,2), terminateSession (DELETE),
// close. Each request times out after 20 s, the whole run after 40 s per session. Steps that fail are logged and the
// run goes on (no retry, no new session: the application does nothing the SDK does not do by itself).
// With SESSIONS "restart": one session, add(1,2), 6 s pause (the script restarts the server meanwhile), add three
// times more, terminateSession, close.
//   NODE_EXTRA_CA_CERTS=cert.pem node --tls-keylog=KEYS ts_client.mjs URL [SESSIONS|restart]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [href, sessionsArg = '1'] = process.argv.slice(2);
const restart = sessionsArg === 'restart';
const sessions = restart ? 1 : Number(sessionsArg);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 40000 * sessions);
const opts = { timeout: 20000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e, e?.cause?.message ?? ''); return undefined; } };

for (let s = 1; s <= sessions; s++) {
    const client = new Client({ name: 'mcptap-tls2-client', version: '1.0.0' });
    client.onerror = (e) => log('client error:', e?.message ?? e);
    const transport = new StreamableHTTPClientTransport(new URL(href));
    const callTool = async (name, args, extra = {}) => {
        const r = await step(name, () => client.callTool({ name, arguments: args }, undefined, { ...opts, ...extra }));
        log(name, JSON.stringify(args), '->', r ? r.content.map((c) => c.text) : 'no result');
        await sleep(100);
    };
    if (!await step('connect', () => client.connect(transport, opts)) && !transport.sessionId) { log('no session'); continue; }
    log('session', s, transport.sessionId, 'protocol', transport.protocolVersion);
    if (restart) {
        await callTool('add', { a: 1, b: 2 });
        await sleep(6000);
        for (const a of [3, 5, 7]) await callTool('add', { a, b: a + 1 });
        await step('terminateSession', () => transport.terminateSession());
        await client.close();
        continue;
    }
    const tools = await step('tools/list', () => client.listTools(undefined, opts));
    log('tools', tools?.tools.map((t) => t.name));
    await callTool('add', { a: 1, b: 2 });
    await callTool('echo', { text: 'hello' });
    let seen = 0;
    await callTool('slow_count', { n: 3 }, { onprogress: () => { seen++; } });
    log('progress notifications seen', seen);
    await callTool('add', { a: 40, b: 2 });
    await step('terminateSession', () => transport.terminateSession());
    await client.close();
    await sleep(200);
}
clearTimeout(guard);
log('done');
