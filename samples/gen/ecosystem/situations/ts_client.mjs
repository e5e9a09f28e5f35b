// The official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, this folder's pins): Client +
// StreamableHTTPClientTransport with their defaults (no request options: the SDK's 60 s request timeout, its GET
// stream reconnection defaults). What the application does with it is the scenario:
//   node ts_client.mjs URL stall S     connect, tools/call sleep(S), wait for the SDK's answer (its timeout), 3 s, close
//   node ts_client.mjs URL idle S      connect, tools/list, S s idle (the session's GET stream open), add(40,2), close
//   node ts_client.mjs URL retry N     connect, tools/list, then add(i,1) once a second N times; each error is logged
//                                      and the next call made all the same (an application's retry loop), close
//   node ts_client.mjs URL slow N      connect, tools/call slow_count(N) with onprogress (so a progressToken: N
//                                      notifications/progress 0.1 s apart), add(40,2), close
//   node ts_client.mjs URL everything N   (server-everything) connect, tools/call toggle-simulated-logging (its
//                                      notifications/message every 5 s on the GET stream), then get-sum(i,1) once a
//                                      second N times (errors logged, the next call made all the same), close
// close = terminateSession (DELETE) + close. Every SDK error is logged, never retried by us except as said.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, mode, arg] = process.argv.slice(2);
const n = Number(arg);
const T0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - T0) / 1000).toFixed(3)}]`, ...a);
const pause = (s) => new Promise((res) => setTimeout(res, s * 1000));
const guard = setTimeout(() => { log('guard: 100 s'); process.exit(3); }, 100000);

const client = new Client({ name: `situations-ts-client-${mode}`, version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(url));
transport.onerror = (e) => log('transport error:', e?.message ?? e);
await client.connect(transport);
log('connected, session', transport.sessionId, 'version', transport.protocolVersion);
const callLogged = async (name, args) => {
    try {
        const r = await client.callTool({ name, arguments: args });
        log(name, JSON.stringify(args), '->', r.content.map((c) => c.text));
    } catch (e) {
        log(name, JSON.stringify(args), 'raised:', e?.constructor?.name, e?.code ?? '', e?.message);
    }
};
if (mode === 'stall') {
    await callLogged('sleep', { seconds: n });
    await pause(3);
} else if (mode === 'idle') {
    log('tools', (await client.listTools()).tools.map((t) => t.name));
    log(`idle ${n} s`);
    await pause(n);
    await callLogged('add', { a: 40, b: 2 });
} else if (mode === 'slow') {
    try {
        const r = await client.callTool({ name: 'slow_count', arguments: { n } }, undefined,
            { onprogress: (p) => { if (p.progress === 1 || p.progress === n) log('progress', JSON.stringify(p)); } });
        log('slow_count ->', r.content.map((c) => c.text));
    } catch (e) { log('slow_count raised:', e?.message); }
    await callLogged('add', { a: 40, b: 2 });
} else if (mode === 'everything') {
    client.setNotificationHandler((await import('@modelcontextprotocol/sdk/types.js')).LoggingMessageNotificationSchema,
        (m) => log('log message:', JSON.stringify(m.params).slice(0, 120)));
    await callLogged('toggle-simulated-logging', {});
    for (let i = 1; i <= n; i++) {
        await pause(1);
        await callLogged('get-sum', { a: i, b: 1 });
    }
} else if (mode === 'retry') {
    log('tools', (await client.listTools()).tools.map((t) => t.name));
    for (let i = 1; i <= n; i++) {
        await callLogged('add', { a: i, b: 1 });
        await pause(1);
    }
}
try { await transport.terminateSession(); } catch (e) { log('terminateSession raised:', e?.message); }
await client.close();
log('closed');
clearTimeout(guard);
