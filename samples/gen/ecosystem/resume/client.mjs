// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, StreamableHTTPClientTransport with its defaults:
// Node's fetch, the standalone GET stream it opens after initialize, its own reconnects: 1 s, x1.5, at most 2
// retries; a POST stream is resumed with GET + Last-Event-ID only if it carried an id and no response came) for the
// resume captures. One bounded session: initialize, tools/list, then
//   slow N   tools/call slow_count(N) with a progressToken (onprogress), request timeout 10 s
//   ticker N tools/call ticker(N), then idles 5 s while the server's notifications/message come on the GET stream
// then add(40,2), DELETE (terminateSession) and close. The client neither retries a request nor re-initializes:
// whatever reconnecting happens is the SDK's own; when the SDK throws, the error is logged and the run goes on to
// the next step. Errors the transport reports by itself (stream cuts, reconnects) are logged as they come.
// A 40 s guard ends the run.
//   node client.mjs URL slow|ticker N
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const [url, what, n] = [new URL(process.argv[2]), process.argv[3], Number(process.argv[4])];
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 40000);
const opts = { timeout: 10000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const client = new Client({ name: 'mcptap-resume-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
client.setNotificationHandler(LoggingMessageNotificationSchema, (m) => log('log notification:', m.params.data));
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
    if (what === 'slow') {
        await step(`slow_count(${n})`, () => client.callTool({ name: 'slow_count', arguments: { n } }, undefined,
            { ...opts, onprogress: (p) => log('progress', p.progress, p.total) }));
    } else {
        await step(`ticker(${n})`, () => client.callTool({ name: 'ticker', arguments: { n } }, undefined, opts));
        await sleep(5000);
    }
    await sleep(100);
    await step('add(40,2)', () => client.callTool({ name: 'add', arguments: { a: 40, b: 2 } }, undefined, opts));
    await transport.terminateSession().catch((e) => log('DELETE failed:', e?.message ?? e));
} catch (e) {
    log('the SDK threw:', e?.constructor?.name, e?.code ?? '', e?.message ?? e);
}
await client.close();
clearTimeout(guard);
log('done');
