// The official TS SDK 1.32.2 client (`Client`, `StreamableHTTPClientTransport` or `SSEClientTransport`, their defaults
// otherwise) of the servers2 group, against a published MCP server: connect (initialize, plus the standalone GET
// stream the Streamable HTTP transport opens by default), tools/list, then each --call NAME JSON-ARGS in order (a tool
// that fails, as most of these do offline, is logged, not retried), 0.1 s apart, then close() (the SDK's own: it ends
// the transport and sends no DELETE). --header NAME:VALUE adds a header to every request (requestInit; for SSE also
// the GET of the stream). Each request times out after 15 s; a 30 s guard ends the process. Node's global fetch.
//   node ts_client.mjs streamable|sse URL [--header NAME:VALUE]... [--call NAME JSON]...
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const argv = process.argv.slice(2);
const [kind, href] = argv;
const headers = {};
const calls = [];
for (let i = 2; i < argv.length; i++) {
    if (argv[i] === '--header') { const [k, ...v] = argv[++i].split(':'); headers[k] = v.join(':'); }
    else if (argv[i] === '--call') { calls.push([argv[i + 1], JSON.parse(argv[i + 2])]); i += 2; }
    else throw new Error(`unknown argument ${argv[i]}`);
}
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const guard = setTimeout(() => { log('client timed out'); process.exit(2); }, 30000);
const opts = { timeout: 15000 };
const url = new URL(href);
const requestInit = { headers };
const transport = kind === 'sse'
    ? new SSEClientTransport(url, { requestInit, eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...init?.headers, ...headers } }) } })
    : new StreamableHTTPClientTransport(url, { requestInit });
const client = new Client({ name: 'mcptap-servers2-ts', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', String(e?.message ?? e).slice(0, 200)); return undefined; } };
await client.connect(transport, opts);
log('connected', JSON.stringify(client.getServerVersion()), 'session', transport.sessionId, 'protocol', transport.protocolVersion);
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.length, JSON.stringify(tools?.tools.map((t) => t.name)).slice(0, 400));
for (const [name, args] of calls) {
    const r = await step(name, () => client.callTool({ name, arguments: args }, undefined, opts));
    log(name, JSON.stringify(args), '->', r ? `isError ${r.isError} ${JSON.stringify(r.content?.map((c) => (c.type === 'text' ? c.text.slice(0, 120) : c.type)))}` : 'no result');
    await new Promise((res) => setTimeout(res, 100));
}
await client.close();
clearTimeout(guard);
log('closed');
