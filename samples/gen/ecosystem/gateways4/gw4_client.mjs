// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, this folder's node_modules) of the gateways4 group,
// pointed at a gateway; modelled on ../gradio/ts_client.mjs. One bounded session: initialize (+ the standalone GET
// stream the Streamable HTTP transport opens by default), tools/list, P+add(1,2), P+echo("hello T"), P+slow_count(3)
// with onprogress (so a progressToken), P+add(40,2), 0.1 s apart; with RESTART files as in ../gateways3/gw3_client.py: touch the
// first, wait for the second (the script restarts the backend), then P+add(2,3), P+echo("after restart T"), P+add(5,5); then, for
// Streamable HTTP, terminateSession (DELETE) and close. A 45 s guard ends the run; each request times out after 10 s.
//   node gw4_client.mjs MODE URL PREFIX TAG [--ready-file F --go-file G] [--restart-ready-file F --restart-go-file G]
//   MODE streamable: StreamableHTTPClientTransport; sse: SSEClientTransport (HTTP+SSE); fallback: the SDK README's
//   backwards-compatible client: connect with StreamableHTTPClientTransport, and when that fails, with
//   SSEClientTransport on the same URL.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const { values: o, positionals } = parseArgs({ allowPositionals: true, options: {
    'ready-file': { type: 'string' }, 'go-file': { type: 'string' },
    'restart-ready-file': { type: 'string' }, 'restart-go-file': { type: 'string' } } });
const [mode, href, prefix = '', tag = 'A'] = positionals;
const [ready, go, rready, rgo] = [o['ready-file'], o['go-file'], o['restart-ready-file'], o['restart-go-file']];
const url = new URL(href);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 45000);
const opts = { timeout: 10000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, tag, ...a);
const pause = (ms = 100) => new Promise((r) => setTimeout(r, ms));
const waitFor = async (f) => { for (let i = 0; i < 300 && !fs.existsSync(f); i++) await pause(); };

const newClient = () => {
    const c = new Client({ name: `mcptap-gateways4-ts-${tag}`, version: '1.0.0' });
    c.onerror = (e) => log('client error:', e?.message ?? e);
    return c;
};
let client = newClient();
let transport;
if (mode === 'sse') {
    transport = new SSEClientTransport(url);
    await client.connect(transport, opts);
} else {
    transport = new StreamableHTTPClientTransport(url);
    try {
        await client.connect(transport, opts);
    } catch (e) {
        if (mode !== 'fallback') throw e;
        log('Streamable HTTP failed:', e?.message ?? e, '- falling back to SSEClientTransport');
        client = newClient();
        transport = new SSEClientTransport(url);
        await client.connect(transport, opts);
    }
}
log('connected', transport.constructor.name, 'session', transport.sessionId, 'server', JSON.stringify(client.getServerVersion()));
const step = async (name, args, extra = {}) => {
    try {
        const r = await client.callTool({ name: prefix + name, arguments: args }, undefined, { ...opts, ...extra });
        log(prefix + name, JSON.stringify(args), '->', JSON.stringify(r.content.map((c) => c.text)));
    } catch (e) { log(prefix + name, 'failed:', e?.message ?? e); }
    await pause();
};
try {
    const tools = await client.listTools(undefined, opts);
    log('tools', JSON.stringify(tools.tools.map((t) => t.name)));
} catch (e) { log('tools/list failed:', e?.message ?? e); }
if (ready) { fs.writeFileSync(ready, ''); await waitFor(go); }
await step('add', { a: 1, b: 2 });
await step('echo', { text: `hello ${tag}` });
const progress = [];
await step('slow_count', { n: 3 }, { onprogress: (p) => { log('progress', JSON.stringify(p)); progress.push(p.progress); } });
log('progress seen', JSON.stringify(progress));
await step('add', { a: 40, b: 2 });
if (rready) {
    fs.writeFileSync(rready, '');
    await waitFor(rgo);
    await step('add', { a: 2, b: 3 });
    await step('echo', { text: `after restart ${tag}` });
    await step('add', { a: 5, b: 5 });
}
if (transport instanceof StreamableHTTPClientTransport) {
    try { await transport.terminateSession(); } catch (e) { log('terminateSession failed:', e?.message ?? e); }
}
await client.close();
clearTimeout(guard);
log('done');
