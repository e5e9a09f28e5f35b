// The buffering group's TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, StreamableHTTPClientTransport over
// Node's fetch, `Accept-Encoding: gzip, deflate`): initialize (+ the standalone GET stream the transport opens),
// tools/list, add(1,2), announce(4, 1.5) (4 notifications on the GET stream, 1.5 s apart), slow_count(5, 1.5) with
// onprogress (5 notifications/progress 1.5 s apart), 3 s idle, add(40,2), terminateSession (DELETE), close. Each
// request times out after 30 s (the SDK's option), the run after 60 s. Steps that fail are logged and the run goes on.
// With MODE `java` (a server with only add/echo/slow_count(n), the javasdk group's Java SDK server): tools/list,
// add(1,2), slow_count(100) (100 notifications/progress 0.1 s apart, the Java server's pace), 3 s idle, add(40,2), close.
//   node ts_client.mjs URL [java]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const [href, mode = 'gap'] = process.argv.slice(2);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 60000);
const opts = { timeout: 30000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const client = new Client({ name: 'mcptap-buffering-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => log('resource updated', n.params.uri));
const transport = new StreamableHTTPClientTransport(new URL(href));
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };
const callTool = async (name, args, extra = {}) => {
    const r = await step(name, () => client.callTool({ name, arguments: args }, undefined, { ...opts, ...extra }));
    log(name, JSON.stringify(args), '->', r ? r.content.map((c) => c.text) : 'no result');
};

await client.connect(transport, opts);
log('session', transport.sessionId, 'protocol', transport.protocolVersion);
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.map((t) => t.name));
await callTool('add', { a: 1, b: 2 });
if (mode === 'java') {
    await callTool('slow_count', { n: 100 }, { onprogress: (p) => { if (p.progress === 1 || p.progress % 20 === 0) log('progress', JSON.stringify(p)); } });
} else {
    await callTool('announce', { n: 4, gap: 1.5 });
    await callTool('slow_count', { n: 5, gap: 1.5 }, { onprogress: (p) => log('progress', JSON.stringify(p)) });
}
await sleep(3000);
await callTool('add', { a: 40, b: 2 });
await step('terminateSession', () => transport.terminateSession());
await client.close();
clearTimeout(guard);
log('done');
