// The official TS SDK 1.32.2 client (`Client` + `StreamableHTTPClientTransport` or `SSEClientTransport`, defaults
// otherwise) under a clientInfo name of our choice: connect (initialize; Streamable HTTP also opens the standalone GET
// stream), tools/list, each --call NAME JSON 0.1 s apart,
// close() (no DELETE). As ../servers2/ts_client.mjs, whose client name is fixed; used where a server looks at the
// name (n8n-mcp answers 2024-11-05 to a client whose name contains "n8n" or "langchain"). Requests time out after
// 15 s, the process after 30 s.
//   node named_client.mjs NAME streamable|sse URL [--header NAME:VALUE]... [--call NAME JSON]...
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const [clientName, kind, href, ...rest] = process.argv.slice(2);
const headers = {};
const calls = [];
for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--header') { const [k, ...v] = rest[++i].split(':'); headers[k] = v.join(':'); }
    else if (rest[i] === '--call') { calls.push([rest[i + 1], JSON.parse(rest[i + 2])]); i += 2; }
    else throw new Error(`unknown argument ${rest[i]}`);
}
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}] ${clientName}`, ...a);
const guard = setTimeout(() => { log('client timed out'); process.exit(2); }, 30000);
const opts = { timeout: 15000 };
const requestInit = { headers };
const transport = kind === 'sse'
    ? new SSEClientTransport(new URL(href), { requestInit, eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...init?.headers, ...headers } }) } })
    : new StreamableHTTPClientTransport(new URL(href), { requestInit });
const client = new Client({ name: clientName, version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
await client.connect(transport, opts);
log('connected', JSON.stringify(client.getServerVersion()), 'session', transport.sessionId, 'protocol', transport.protocolVersion);
const tools = await client.listTools(undefined, opts).catch((e) => log('tools/list failed:', e?.message));
log('tools', tools?.tools.length);
for (const [name, args] of calls) {
    try {
        const r = await client.callTool({ name, arguments: args }, undefined, opts);
        log(name, '->', `isError ${r.isError}`, JSON.stringify(r.content?.map((c) => (c.type === 'text' ? c.text.slice(0, 100) : c.type))));
    } catch (e) { log(name, 'failed:', String(e?.message ?? e).slice(0, 200)); }
    await new Promise((res) => setTimeout(res, 100));
}
await client.close();
clearTimeout(guard);
log('closed');
