// sensor4's TS client load (sensor3's; with STALE = `stale`, each session first tries to resume a session id the server
// never issued, the transport's documented `sessionId` option, as an app that saved the id before a server restart:
// connect() then sends no initialize; the app's tools/list goes out with that Mcp-Session-Id, the server refuses it,
// and the session then connects afresh): SESSIONS concurrent sessions of the official TypeScript SDK client (1.32.2: Client +
// StreamableHTTPClientTransport, defaults), each: tools/list, a burst of 6 concurrent add calls, slow_count(3) with
// onprogress, in every BIG_EVERY-th session big(BIG_KB), then terminateSession() (DELETE) and close. One JSON line
// per call on stdout, then a summary line. Bounded: 90 s for the run, 30 s a request.
//   node ts_client.mjs URL SESSIONS BIG_EVERY BIG_KB [stale]
// HTTPS: NODE_EXTRA_CA_CERTS=cert.pem node --tls-keylog=KEYS ts_client.mjs https://...
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { randomUUID } from 'node:crypto';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, n, bigEvery, bigKb] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5])];
const stale = process.argv[6] === 'stale';
const t0 = Date.now();
const out = (o) => console.log(JSON.stringify({ t: (Date.now() - t0) / 1000, ...o }));
const results = [];
const textOf = (r) => r.content.map((c) => c.text ?? '').join('');

async function one(k) {
    const step = async (name, p, check) => {
        let ok, detail;
        try { [ok, detail] = check(await p); } catch (e) { ok = false; detail = `${e.name}: ${String(e.message).slice(0, 200)}`; }
        out({ session: k, call: name, ok, detail });
        results.push(ok);
    };
    const opts = { timeout: 30000 };
    if (stale) {
        const sessionId = randomUUID();
        try {
            const c = new Client({ name: 'sensor4-ts-client', version: '1.0.0' });
            await c.connect(new StreamableHTTPClientTransport(new URL(url), { sessionId }));  // no initialize sent
            const r = await c.listTools(undefined, { timeout: 30000 });
            out({ session: k, call: 'resume', ok: true, detail: `${sessionId} ${r.tools.length} tools` });
            await c.close();
        } catch (e) {
            out({ session: k, call: 'resume', ok: false, detail: `${sessionId} ${e.name}: ${String(e.message).slice(0, 160)}` });
        }
    }
    try {
        const transport = new StreamableHTTPClientTransport(new URL(url));
        const client = new Client({ name: 'sensor4-ts-client', version: '1.0.0' });
        await client.connect(transport);
        out({ session: k, call: 'initialize', ok: true, detail: client.getServerVersion()?.name });
        await step('tools/list', client.listTools(undefined, opts), (r) => [r.tools.some((t) => t.name === 'wait'), `${r.tools.length} tools`]);
        await Promise.all([0, 1, 2, 3, 4, 5].map((j) => step(`add(${k},${j})`,
            client.callTool({ name: 'add', arguments: { a: k, b: j } }, undefined, opts),
            (r) => [textOf(r) === String(k + j) && !r.isError, textOf(r)])));
        await step('slow_count(3)', client.callTool({ name: 'slow_count', arguments: { n: 3 } }, undefined, { ...opts, onprogress: () => {} }),
            (r) => [textOf(r) === 'counted 3', textOf(r)]);
        if (bigEvery && k % bigEvery === 0) {
            await step(`big(${bigKb})`, client.callTool({ name: 'big', arguments: { kb: bigKb } }, undefined, opts),
                (r) => [textOf(r).length === bigKb * 1024, `${textOf(r).length} chars`]);
        }
        await transport.terminateSession();
        await client.close();
        out({ session: k, call: 'close', ok: true, detail: '' });
    } catch (e) {
        out({ session: k, call: 'session', ok: false, detail: `${e.name}: ${String(e.message).slice(0, 200)}` });
        results.push(false);
    }
}

const timer = setTimeout(() => { out({ session: -1, call: 'run', ok: false, detail: '90 s timeout' }); process.exit(3); }, 90000);
await Promise.all(Array.from({ length: n }, (_, k) => one(k)));
clearTimeout(timer);
const good = results.filter(Boolean).length;
out({ summary: true, calls: results.length, ok: good, failed: results.length - good });
