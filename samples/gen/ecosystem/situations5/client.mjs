// One bounded MCP client session across a server restart, driven the way an application drives it, without an LLM:
// connect (initialize), tools/list, add(1,2), echo("hello"); then it writes READY and waits for GO (at most 20 s)
// while situations5.sh kills the server (SIGKILL) and starts a new process on the same port; then add(40,2),
// echo("again"), add(5,5), echo("third"), close, 0.7 s between steps. Each call is awaited on its own: when one throws
// the error is logged and the run goes on with the same client object (an agent hands a tool error to its model and
// calls the next tool through the same client). Nothing here retries, reconnects, re-initializes or touches session
// ids: whatever the wire shows after the restart is the client's own doing. A 40 s guard ends the process.
//   node client.mjs KIND URL READY GO
//   KIND: ai-sdk  (Vercel AI SDK @ai-sdk/mcp 2.0.99 createMCPClient, transport { type: 'http' } (its own transport),
//                  listTools(), callTool(), close())
//         ts-sdk  (official TS SDK @modelcontextprotocol/sdk 1.32.2 Client + StreamableHTTPClientTransport;
//                  close: transport.terminateSession(), client.close())
import { existsSync, writeFileSync } from 'node:fs';

const [kind, url, ready, go] = process.argv.slice(2);
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const short = (x) => { try { return JSON.stringify(x).slice(0, 240); } catch { return String(x).slice(0, 240); } };
setTimeout(() => { log('guard: 40 s, exit'); process.exit(3); }, 40000).unref();
process.on('unhandledRejection', (e) => log('unhandled rejection:', e?.constructor?.name, String(e?.message ?? e).slice(0, 200)));

const adapters = {
    'ai-sdk': async () => {
        const { createMCPClient } = await import('@ai-sdk/mcp');
        let client;
        return {
            open: async () => {
                client = await createMCPClient({
                    transport: { type: 'http', url },
                    clientName: 'mcptap-situations5-ai-sdk',
                    onUncaughtError: (e) => log('onUncaughtError:', String(e?.message ?? e).slice(0, 200)),
                });
                return (await client.listTools()).tools.map((t) => t.name);
            },
            call: (name, args) => client.callTool({ name, arguments: args }),
            close: () => client.close(),
        };
    },
    'ts-sdk': async () => {
        const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
        const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
        const client = new Client({ name: 'mcptap-situations5-ts-sdk', version: '1.0.0' });
        client.onerror = (e) => log('client.onerror:', String(e?.message ?? e).slice(0, 200));
        const transport = new StreamableHTTPClientTransport(new URL(url));
        return {
            open: async () => {
                await client.connect(transport);
                log('session', transport.sessionId, 'server', short(client.getServerVersion()));
                return (await client.listTools()).tools.map((t) => t.name);
            },
            call: (name, args) => client.callTool({ name, arguments: args }),
            close: async () => {
                try { await transport.terminateSession(); } catch (e) { log('terminateSession threw:', e?.message); }
                await client.close();
            },
        };
    },
};

const step = async (label, fn) => {
    try {
        const r = await fn();
        log(label, '->', short(r));
    } catch (e) {
        log(label, 'threw', e?.constructor?.name, e?.code ?? '', String(e?.message ?? e).slice(0, 300).replace(/\s+/g, ' '));
    }
};
const waitGo = async () => {
    for (let n = 0; n < 200 && !existsSync(go); n++) await sleep(100);
    log(existsSync(go) ? 'GO' : 'no GO in 20 s');
};

const c = await adapters[kind]();
let opened = false;
try {
    log('tools', await c.open());
    opened = true;
} catch (e) {
    log('open threw', e?.constructor?.name, String(e?.message ?? e).slice(0, 300));
}
if (opened) {
    await sleep(700);
    await step('add {"a":1,"b":2}', () => c.call('add', { a: 1, b: 2 }));
    await sleep(700);
    await step('echo {"text":"hello"}', () => c.call('echo', { text: 'hello' }));
    await sleep(700);
    writeFileSync(ready, kind);
    log('wrote READY');
    await waitGo();
    for (const [name, args] of [['add', { a: 40, b: 2 }], ['echo', { text: 'again' }], ['add', { a: 5, b: 5 }], ['echo', { text: 'third' }]]) {
        await sleep(700);
        await step(`${name} ${JSON.stringify(args)}`, () => c.call(name, args));
    }
    await sleep(700);
}
await step('close', () => c.close());
log('end');
process.exit(0);
