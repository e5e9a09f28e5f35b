// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, StreamableHTTPClientTransport) for the
// agentsjs group's Mastra server captures: initialize (+ the standalone GET stream the transport opens by default),
// tools/list, add(1,2), echo("hello"), slow_count(3) with a progressToken (onprogress, on that call only), add(40,2), 0.1 s apart,
// then DELETE (terminateSession) and close. When the SDK raises, the error is logged and the run ends there (no
// retry). Bounded: a 30 s timer, 15 s request timeouts.
//   node ts-client.mjs URL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
setTimeout(() => { log('timeout: 30 s'); process.exit(3); }, 30000).unref();
const opts = { timeout: 15000 };
const client = new Client({ name: 'mcptap-agentsjs-ts-client', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(process.argv[2]));
try {
    await client.connect(transport, opts);
    log('session', transport.sessionId, 'server', JSON.stringify(client.getServerVersion()));
    log('tools', (await client.listTools(undefined, opts)).tools.map((t) => t.name));
    const calls = [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['slow_count', { n: 3 }], ['add', { a: 40, b: 2 }]];
    for (const [name, a] of calls) {
        const r = await client.callTool({ name, arguments: a }, undefined, name === 'slow_count'
            ? { ...opts, onprogress: (p) => log('progress', p.progress) } : opts);
        log(name, JSON.stringify(a), '->', JSON.stringify(r.content));
        await new Promise((r) => setTimeout(r, 100));
    }
    await transport.terminateSession();
} catch (e) {
    log('the SDK raised:', e?.constructor?.name, (e?.message ?? String(e)).slice(0, 300));
}
await client.close();
log('closed');
process.exit(0);
