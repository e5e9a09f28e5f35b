// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, StreamableHTTPClientTransport with its defaults:
// Node's fetch (undici: its own connection pool per origin), the standalone GET stream it opens after initialize,
// its own GET reconnect: 1 s, x1.5, at most 2 retries) for the load captures. One bounded session:
//   parallel       initialize, tools/list, then nine tools/call at once (one Promise.all: add(i,10*i) for i=1..4,
//                  slow_count(3) with a progressToken (onprogress), echo("call i") for i=1..4, issued in that order)
//   session NAME   initialize, tools/list, add(1,2), echo("hello"), slow_count(3) with a progressToken, add(40,2),
//                  0.1 s apart; clientInfo.name mcptap-load-client-NAME
//   expiry IDLE    initialize, tools/list, add(1,2), IDLE ms idle (session, GET stream and all left open), then
//                  add(40,2) and echo("again")
// then DELETE (terminateSession) and close. The client neither retries a request nor re-initializes: when the SDK
// throws, the error is logged and the run goes on to the next step (session, expiry) or ends (parallel). Errors the
// transport reports by itself (the GET stream, its reconnects) are logged as they come. With LOAD_START_AT (ms since
// the epoch) in the environment it waits until that time (at most 10 s) before it connects: load.sh starts several
// clients together that way, Python ones included (which take longer to load their SDK). Each request times out after
// 15 s (the client's own timeout); a 40 s guard ends the run.
//   node client.mjs URL parallel|session NAME|expiry IDLE
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, what, arg] = [new URL(process.argv[2]), process.argv[3], process.argv[4]];
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 40000);
const opts = { timeout: 15000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

if (process.env.LOAD_START_AT) {
    const wait = Math.min(10000, Math.max(0, Number(process.env.LOAD_START_AT) - Date.now()));
    log('waiting', wait / 1000, 's for the common start');
    await sleep(wait);
}
const client = new Client({ name: `mcptap-load-client${what === 'session' ? `-${arg}` : ''}`, version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = new StreamableHTTPClientTransport(url);
const call = async (name, args) => {
    const extra = name === 'slow_count' ? { ...opts, onprogress: (p) => log('progress', p.progress, p.total) } : opts;
    const r = await client.callTool({ name, arguments: args }, undefined, extra);
    log(name, JSON.stringify(args), '->', r.content.map((c) => c.text));
};
const step = (name, args) => call(name, args)
    .catch((e) => log(name, 'the SDK threw:', e?.constructor?.name, e?.code ?? '', e?.message ?? e));
try {
    await client.connect(transport, opts);
    log('session', transport.sessionId, 'protocol', transport.protocolVersion);
    const tools = await client.listTools(undefined, opts);
    log('tools', tools.tools.map((t) => t.name));
    if (what === 'parallel') {
        const calls = [1, 2, 3, 4].map((i) => ['add', { a: i, b: 10 * i }]);
        calls.push(['slow_count', { n: 3 }], ...[1, 2, 3, 4].map((i) => ['echo', { text: `call ${i}` }]));
        await Promise.all(calls.map(([name, args]) => call(name, args)));
        log('all', calls.length, 'calls answered');
    } else if (what === 'session') {
        const calls = [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['slow_count', { n: 3 }],
            ['add', { a: 40, b: 2 }]];
        for (const [name, args] of calls) {
            await step(name, args);
            await sleep(100);
        }
    } else {
        await step('add', { a: 1, b: 2 });
        log('idle', arg, 'ms');
        await sleep(Number(arg));
        await step('add', { a: 40, b: 2 });
        await sleep(100);
        await step('echo', { text: 'again' });
    }
    await transport.terminateSession().catch((e) => log('DELETE failed:', e?.message ?? e));
} catch (e) {
    log('the SDK threw:', e?.constructor?.name, e?.code ?? '', e?.message ?? e);
    log('run ended after the SDK threw (no retry, no new session)');
}
await client.close();
clearTimeout(guard);
log('done');
