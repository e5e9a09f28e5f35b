// sensor5's long TS sessions: SESSIONS concurrent sessions of the official TypeScript SDK client (1.32.2: Client +
// StreamableHTTPClientTransport, defaults: after initialize the transport opens its GET stream), each SECONDS long:
// add(k,i) once a second, and 6 s in slow_count(100) with onprogress (about 10 s) beside them, then
// terminateSession() (DELETE) and close. One JSON line per call, then a summary line. Bounded: 90 s.
//   node long.mjs URL SESSIONS SECONDS
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, n, secs] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const t0 = Date.now();
const out = (o) => console.log(JSON.stringify({ t: (Date.now() - t0) / 1000, ...o }));
const results = [];
const textOf = (r) => r.content.map((c) => c.text ?? '').join('');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function one(k) {
    const step = async (name, p, check) => {
        let ok, detail;
        try { [ok, detail] = check(await p); } catch (e) { ok = false; detail = `${e.name}: ${String(e.message).slice(0, 200)}`; }
        out({ session: k, call: name, ok, detail });
        results.push(ok);
    };
    try {
        const transport = new StreamableHTTPClientTransport(new URL(url));
        const client = new Client({ name: 'sensor5-ts-client', version: '1.0.0' });
        await client.connect(transport);
        out({ session: k, call: 'initialize', ok: true, detail: client.getServerVersion()?.name });
        const slow = (async () => {
            await sleep(6000);
            await step('slow_count(100)', client.callTool({ name: 'slow_count', arguments: { n: 100 } }, undefined,
                { timeout: 30000, onprogress: () => {} }), (r) => [textOf(r) === 'counted 100', textOf(r)]);
        })();
        for (let i = 0; i < secs; i++) {
            await step(`add(${k},${i})`, client.callTool({ name: 'add', arguments: { a: k, b: i } }, undefined, { timeout: 30000 }),
                (r) => [textOf(r) === String(k + i), textOf(r)]);
            await sleep(1000);
        }
        await slow;
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
