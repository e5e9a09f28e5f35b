// The official TS SDK 1.32.2 client (this folder's node_modules): Client + StreamableHTTPClientTransport with their
// defaults, in the situations where the client gives up on a call first:
//   node client.mjs URL abort   tools/list, slow(15) with onprogress and an AbortSignal that the application aborts
//                               after 3.5 s (AbortController: `client.callTool(params, undefined, { signal })`), then
//                               add(1, 2), then client.close()
//   node client.mjs URL hang    tools/list, then slow(15) and wait for it (the script kills this process), then client.close()
// The script that starts it bounds the run (timeout).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, mode] = process.argv.slice(2);
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const client = new Client({ name: 'situations8-ts-client', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);
log('negotiated', transport.protocolVersion, 'session', transport.sessionId);
log('tools', (await client.listTools()).tools.map((t) => t.name));
const onprogress = (p) => log('progress', p.progress, p.total, p.message);
if (mode === 'abort') {
    const ac = new AbortController();
    setTimeout(() => { log('aborting'); ac.abort('the user gave up'); }, 3500);
    try {
        const r = await client.callTool({ name: 'slow', arguments: { seconds: 15 } }, undefined, { signal: ac.signal, onprogress });
        log('slow ->', JSON.stringify(r.content));
    } catch (e) { log('callTool raised:', e?.name, String(e?.message ?? e).slice(0, 200)); }
    await sleep(1000);
    const r = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    log('add ->', JSON.stringify(r.content));
    await sleep(1000);
    await client.close();
    log('closed');
} else {
    log('calling slow(15); waiting to be killed');
    const r = await client.callTool({ name: 'slow', arguments: { seconds: 15 } }, undefined, { onprogress });
    log('slow ->', JSON.stringify(r.content));
    await client.close();
    log('closed');
}
