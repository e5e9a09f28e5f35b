// The official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, loaded by path from the load group's
// node_modules: ../load/node_modules, pinned by ../load/package-lock.json) for the load2 captures.
// StreamableHTTPClientTransport with its defaults (Node's fetch, the standalone GET stream it opens after initialize,
// its own reconnects). One bounded session:
//   parallel NAME   initialize, tools/list, then six tools/call at once in one Promise.all, issued in this order:
//                   slow_count(20) (progressToken: 20 notifications/progress 0.1 s apart, about 2 s), add(1,2),
//                   echo("fast 1"), slow_count(20), add(3,4), echo("fast 2"); then add(40,2), DELETE, close.
//                   clientInfo.name mcptap-load2-ts-NAME
//   resume          initialize, tools/list, slow_count(20) with a progressToken and `onresumptiontoken` (the SDK's
//                   hook that hands the application each SSE event id); after the 5th progress notification the
//                   client closes its transport (client.close(): the SDK aborts its fetches, the POST stream's
//                   connection is dropped, no notifications/cancelled is sent), waits 0.5 s, connects the same Client
//                   to a new transport with the same sessionId (the SDK skips initialize then) and sends the same
//                   tools/call with `resumptionToken` = the last event id it saw: the SDK sends no POST but
//                   `GET /mcp` with `Last-Event-ID`, on which the server replays the rest of that stream (the SDK's
//                   own resumption path, as in its examples/client/simpleStreamableHttp.ts). Then add(40,2), DELETE.
// The client neither retries nor re-initializes by itself; what the SDK throws is logged and the run goes on or ends.
// Every request times out after 15 s (the client's own timeout); a 40 s guard ends the run. With LOAD_START_AT (ms
// since the epoch) it first waits until then (at most 10 s), so that several clients start together.
//   node client.mjs URL parallel NAME | resume
const sdk = new URL('../load/node_modules/@modelcontextprotocol/sdk/dist/esm/', import.meta.url);
const { Client } = await import(new URL('client/index.js', sdk));
const { StreamableHTTPClientTransport } = await import(new URL('client/streamableHttp.js', sdk));
const { CallToolResultSchema } = await import(new URL('types.js', sdk));

const [url, what, arg] = [new URL(process.argv[2]), process.argv[3], process.argv[4] ?? '1'];
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
const client = new Client({ name: `mcptap-load2-ts${what === 'parallel' ? `-${arg}` : '-resume'}`, version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
let transport = new StreamableHTTPClientTransport(url);
const texts = (r) => r.content.map((c) => c.text);
const call = async (name, args, extra = {}) => {
    const o = name === 'slow_count'
        ? { ...opts, onprogress: (p) => log(name, 'progress', p.progress, p.total), ...extra } : { ...opts, ...extra };
    const r = await client.callTool({ name, arguments: args }, undefined, o);
    log(name, JSON.stringify(args), '->', texts(r));
};
const step = (name, args, extra) => call(name, args, extra)
    .catch((e) => log(name, JSON.stringify(args), 'the SDK threw:', e?.constructor?.name, e?.code ?? '', e?.message ?? e));
try {
    await client.connect(transport, opts);
    log('session', transport.sessionId, 'protocol', transport.protocolVersion);
    const tools = await client.listTools(undefined, opts);
    log('tools', tools.tools.map((t) => t.name));
    if (what === 'parallel') {
        const calls = [['slow_count', { n: 20 }], ['add', { a: 1, b: 2 }], ['echo', { text: 'fast 1' }],
            ['slow_count', { n: 20 }], ['add', { a: 3, b: 4 }], ['echo', { text: 'fast 2' }]];
        await Promise.all(calls.map(([name, args]) => step(name, args)));
        log('all', calls.length, 'calls settled');
        await step('add', { a: 40, b: 2 });
    } else {
        const sessionId = transport.sessionId;
        const version = transport.protocolVersion;
        let token;
        let seen = 0;
        let cut;
        const cutNow = new Promise((r) => { cut = r; });
        const first = step('slow_count', { n: 20 }, {
            onresumptiontoken: (t) => { token = t; },
            onprogress: (p) => { seen += 1; log('slow_count progress', p.progress, p.total, 'last event id', token); if (seen === 5) cut(); },
        });
        await Promise.race([cutNow, first]);
        log('closing the transport after', seen, 'progress notifications; last event id', token);
        await client.close();
        await first;
        await sleep(500);
        transport = new StreamableHTTPClientTransport(url, { sessionId });
        await client.connect(transport, opts);   // sessionId set: the SDK skips initialize
        log('reconnected to session', transport.sessionId, '(negotiated before:', version, ')');
        if (token === undefined) {
            log('no event id was seen: nothing to resume from');
        } else {
            const r = await client.request({ method: 'tools/call', params: { name: 'slow_count', arguments: { n: 20 } } },
                CallToolResultSchema, { ...opts, resumptionToken: token, onresumptiontoken: (t) => { token = t; } })
                .catch((e) => { log('resume: the SDK threw:', e?.constructor?.name, e?.message ?? e); return undefined; });
            if (r) log('resumed slow_count ->', texts(r), 'last event id', token);
        }
        await step('add', { a: 40, b: 2 });
    }
    await transport.terminateSession().catch((e) => log('DELETE failed:', e?.message ?? e));
} catch (e) {
    log('the SDK threw:', e?.constructor?.name, e?.code ?? '', e?.message ?? e);
    log('run ended after the SDK threw (no retry, no new session)');
}
await client.close();
clearTimeout(guard);
log('done');
