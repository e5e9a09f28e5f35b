// The official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2), its defaults (Node 20's fetch: undici,
// which connects with the happy-eyeballs `autoSelectFamily` default of Node 20), against URL:
//   node client.mjs streamable URL   StreamableHTTPClientTransport: initialize, tools/list, add(1,2), echo("hello"),
//                                    then terminateSession() (DELETE) and close
//   node client.mjs pause URL        as streamable, but the application waits 4 s between add and echo (the server is
//                                    restarted meanwhile); an error of echo is logged and the application goes on to
//                                    terminateSession() and close, as before
//   node client.mjs sse URL          SSEClientTransport (HTTP+SSE 2024-11-05): GET URL, POSTs to the endpoint it
//                                    names: initialize, tools/list, the first tool once, then close
// The script that starts it bounds the run (timeout).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const [mode, url] = process.argv.slice(2);
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);

const client = new Client({ name: 'ipv6-ts-client', version: '1.0.0' });
const transport = mode === 'sse' ? new SSEClientTransport(new URL(url)) : new StreamableHTTPClientTransport(new URL(url));
try {
  await client.connect(transport);
  log('connected, negotiated', transport.protocolVersion ?? '(sse)', 'session', transport.sessionId ?? '-');
  const tools = await client.listTools();
  log('tools', tools.tools.map((t) => t.name));
  if (tools.tools.some((t) => t.name === 'add')) {
    log('add ->', JSON.stringify((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).content));
    if (mode === 'pause') {
      await new Promise((r) => setTimeout(r, 4000));
      try {
        log('echo ->', JSON.stringify((await client.callTool({ name: 'echo', arguments: { text: 'hello' } })).content));
      } catch (e) {
        log('the SDK raised:', e?.constructor?.name, String(e?.message ?? e).slice(0, 300));
      }
    } else log('echo ->', JSON.stringify((await client.callTool({ name: 'echo', arguments: { text: 'hello' } })).content));
  } else {
    const t = tools.tools[0];
    log(t.name, '->', JSON.stringify((await client.callTool({ name: t.name, arguments: { message: 'hello' } })).content).slice(0, 200));
  }
  if (mode !== 'sse') {
    try { await transport.terminateSession(); } catch (e) { log('terminateSession raised:', String(e?.message ?? e).slice(0, 300)); }
  }
} catch (e) {
  log('the SDK raised:', e?.constructor?.name, String(e?.message ?? e).slice(0, 300), e?.cause ? String(e.cause) : '');
}
await client.close();
log('closed');
