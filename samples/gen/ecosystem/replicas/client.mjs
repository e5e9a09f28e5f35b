// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.x, StreamableHTTPClientTransport with its defaults:
// Node's fetch, the standalone GET stream it opens after initialize, its own GET reconnect: 1 s, x1.5, at most 2
// retries) for the replicas captures. One bounded session: initialize, tools/list, add(1,2), echo("hello"),
// slow_count(3) with a progressToken (onprogress), add(40,2), 0.1 s apart, then DELETE (terminateSession) and close.
// When the SDK throws (a request answered 400/404 by a replica that does not hold the session), the error is
// logged and the run ends there with client.close(): no retry, no new session (the SDK makes none by itself).
// Errors the transport reports on its own (the GET stream, its reconnects) are logged as they come.
// With READY and GO (files), after the 2nd call (echo) it writes READY (holding the initialize result's server name,
// which carries the port of the replica that minted the session) and waits for GO (at most 20 s) before going on:
// the replica-restart scenario kills and restarts that replica meanwhile.
// A 40 s guard ends the run; each request times out after 15 s (the client's own timeout, not the 60 s default).
//   node client.mjs URL [READY GO]
import { existsSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const url = new URL(process.argv[2]);
const [ready, go] = [process.argv[3], process.argv[4]];
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 40000);
const opts = { timeout: 15000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const client = new Client({ name: 'mcptap-replicas-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = new StreamableHTTPClientTransport(url);
const show = (name, args, r) => log(name, JSON.stringify(args), '->', r.content.map((c) => c.text));
let failed = false;
try {
    await client.connect(transport, opts);
    log('session', transport.sessionId, 'protocol', transport.protocolVersion, 'server', JSON.stringify(client.getServerVersion()));
    const tools = await client.listTools(undefined, opts);
    log('tools', tools.tools.map((t) => t.name));
    const calls = [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['slow_count', { n: 3 }], ['add', { a: 40, b: 2 }]];
    for (const [i, [name, args]] of calls.entries()) {
        const extra = name === 'slow_count' ? { ...opts, onprogress: (p) => log('progress', p.progress, p.total) } : opts;
        show(name, args, await client.callTool({ name, arguments: args }, undefined, extra));
        await sleep(100);
        if (i === 1 && ready) {
            writeFileSync(ready, client.getServerVersion()?.name ?? '');
            log('wrote', ready, '; waiting for', go);
            for (let n = 0; n < 200 && !existsSync(go); n++) await sleep(100);
        }
    }
    await transport.terminateSession();
} catch (e) {
    failed = true;
    log('the SDK threw:', e?.constructor?.name, e?.code ?? '', e?.message ?? e);
    log('run ended after the SDK threw (no retry, no new session)');
}
await client.close();
clearTimeout(guard);
log(failed ? 'closed (after an error)' : 'done');
