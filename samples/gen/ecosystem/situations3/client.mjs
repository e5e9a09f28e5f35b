// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, StreamableHTTPClientTransport with its defaults:
// the standalone GET stream it opens after initialize, reconnects 1 s then 1.5 s later, at most 2 retries, with
// Last-Event-ID when the stream carried an id). One session, the application logic only:
//   initialize, tools/list, ticker(N, MS) (notifications on the GET stream); after the K-th notification it writes
//   READY-FILE (the harness then kills/restarts the server or a replica), waits WAIT s, ticker(3, 100), waits 1.5 s,
//   add(40,2), DELETE (terminateSession), close.
// With MODE `slow` the first call is slow_count(N) with a progressToken instead (progress on the POST reply
// stream; READY-FILE after the K-th progress), request timeout 10 s, and no second ticker.
// It neither retries a request nor re-initializes; errors the SDK throws are logged and the run goes on. 40 s guard.
//   node client.mjs URL READY-FILE N MS K WAIT [ticker|slow]
import { writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const [url, ready, n, ms, k, wait] = [new URL(process.argv[2]), process.argv[3], ...process.argv.slice(4, 8).map(Number)];
const mode = process.argv[8] ?? 'ticker';
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 40000);
const opts = { timeout: 10000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (t) => new Promise((r) => setTimeout(r, t));

let seen = 0;
const client = new Client({ name: 'situations3-ts-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
client.setNotificationHandler(LoggingMessageNotificationSchema, (m) => {
    log('log notification:', m.params.data);
    if (++seen === k) { writeFileSync(ready, 'ready\n'); log('ready file written'); }
});
const transport = new StreamableHTTPClientTransport(url);
const step = async (label, f) => {
    try {
        const r = await f();
        log(label, '->', r.content.map((c) => c.text));
    } catch (e) {
        log(label, 'the SDK threw:', e?.constructor?.name, e?.code ?? '', e?.message ?? e);
    }
};
try {
    await client.connect(transport, opts);
    log('session', transport.sessionId, 'protocol', transport.protocolVersion);
    const tools = await client.listTools(undefined, opts);
    log('tools', tools.tools.map((t) => t.name));
    if (mode === 'slow') {
        let p = 0;
        await step(`slow_count(${n})`, () => client.callTool({ name: 'slow_count', arguments: { n } }, undefined, {
            ...opts, onprogress: (pr) => {
                log('progress', pr.progress, pr.total);
                if (++p === k) { writeFileSync(ready, 'ready\n'); log('ready file written'); }
            } }));
        await sleep(wait * 1000);
    } else {
        await step(`ticker(${n},${ms})`, () => client.callTool({ name: 'ticker', arguments: { n, ms } }, undefined, opts));
        await sleep(wait * 1000);
        await step('ticker(3,100)', () => client.callTool({ name: 'ticker', arguments: { n: 3, ms: 100 } }, undefined, opts));
    }
    await sleep(1500);
    await step('add(40,2)', () => client.callTool({ name: 'add', arguments: { a: 40, b: 2 } }, undefined, opts));
    await transport.terminateSession().catch((e) => log('DELETE failed:', e?.message ?? e));
} catch (e) {
    log('the SDK threw:', e?.constructor?.name, e?.code ?? '', e?.message ?? e);
}
await client.close();
clearTimeout(guard);
log('done');
