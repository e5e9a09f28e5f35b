// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, StreamableHTTPClientTransport on Node's fetch
// with its own Accept-Encoding). One bounded session: initialize (+ the standalone GET the transport opens),
// tools/list (30 tools), echo("hello"), slow("wait") with a progressToken (5 notifications/progress, 1 s apart),
// catalog_tool_07("widget"), then DELETE (terminateSession) and close. 40 s guard; 15 s per request.
//   node client.mjs URL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const url = new URL(process.argv[2]);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 40000);
const opts = { timeout: 15000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const client = new Client({ name: 'mcptap-compress2-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = new StreamableHTTPClientTransport(url);
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };
await client.connect(transport, opts);
log('session', transport.sessionId, 'protocol', transport.protocolVersion);
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.length);
const show = (name, r) => log(name, '->', r ? r.content.map((c) => c.text) : 'no result');
show('echo', await step('echo', () => client.callTool({ name: 'echo', arguments: { text: 'hello' } }, undefined, opts)));
show('slow', await step('slow', () => client.callTool({ name: 'slow', arguments: { text: 'wait' } }, undefined,
    { ...opts, onprogress: (p) => log('progress', p.progress, p.message) })));
show('catalog_tool_07', await step('catalog_tool_07', () => client.callTool({ name: 'catalog_tool_07', arguments: { text: 'widget' } }, undefined, opts)));
await step('terminateSession', () => transport.terminateSession());
await client.close();
clearTimeout(guard);
log('done');
