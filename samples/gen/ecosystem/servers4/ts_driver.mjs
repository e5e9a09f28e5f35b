// servers4's TS SDK 1.32.2 driver:
//   node ts_driver.mjs http|sse URL [--header NAME:VALUE] [--call TOOL JSON]... [--sleep S] [--delete]
// Connects with the SDK's Client over StreamableHTTPClientTransport (http) or SSEClientTransport (sse), each with its
// defaults (the Streamable HTTP transport opens its standalone GET stream after initialize by itself), lists the tools,
// waits --sleep S seconds (the session idle, its GET stream open), runs each --call in order (a failing tool is
// printed, not retried), 0.2 s apart; --delete ends the session with terminateSession() (the DELETE) before close().
// Every request is bounded (15 s), the whole run 40 s plus the sleep.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const [kind, url, ...rest] = process.argv.slice(2);
const calls = [];
let del = false;
let idle = 0;
const headers = {};
for (let i = 0; i < rest.length; i++) {
  if (rest[i] === '--header') { const [k, ...v] = rest[i + 1].split(':'); headers[k] = v.join(':'); i += 1; }
  else if (rest[i] === '--call') { calls.push([rest[i + 1], JSON.parse(rest[i + 2])]); i += 2; }
  else if (rest[i] === '--sleep') { idle = Number(rest[i + 1]); i += 1; }
  else if (rest[i] === '--delete') del = true;
}
setTimeout(() => { console.log('[ts] overall timeout'); process.exit(3); }, 40000 + idle * 1000).unref();
const log = (...a) => console.log('[ts]', ...a);
// --header goes on every request (requestInit); for SSE also on the GET stream (eventSourceInit's fetch).
const requestInit = { headers };
const transport = kind === 'sse'
  ? new SSEClientTransport(new URL(url), {
      requestInit,
      eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...(init?.headers ?? {}), ...headers } }) },
    })
  : new StreamableHTTPClientTransport(new URL(url), { requestInit });
const client = new Client({ name: 'mcptap-servers4-ts', version: '1.0.0' });
const opts = { timeout: 15000 };
await client.connect(transport, opts);
const sv = client.getServerVersion() ?? {};
log('server', sv.name, sv.version, 'session', transport.sessionId ?? '-');
const tools = await client.listTools({}, opts);
log('tools', tools.tools.length, tools.tools.slice(0, 12).map(t => t.name).join(','));
if (idle > 0) { log('idle', idle, 's'); await new Promise(r => setTimeout(r, idle * 1000)); }
for (const [name, args] of calls) {
  try {
    const r = await client.callTool({ name, arguments: args }, undefined, opts);
    log('call', name, r.isError ? 'isError' : 'ok', JSON.stringify(r.content ?? r).slice(0, 160));
  } catch (e) {
    log('call', name, 'error', String(e).slice(0, 160));
  }
  await new Promise(r => setTimeout(r, 200));
}
if (del && kind !== 'sse') {
  try { await transport.terminateSession(); log('terminated'); } catch (e) { log('terminate error', String(e).slice(0, 120)); }
}
await client.close();
log('closed');
process.exit(0);
