// Official TypeScript SDK 1.x client (@modelcontextprotocol/sdk 1.32.2) of the runtimes group; runs on Node, Bun or
// Deno (the runtime's global fetch). One bounded session: StreamableHTTPClientTransport (its defaults: a standalone GET
// stream after initialize), or with --sse the legacy SSEClientTransport (GET URL, endpoint event, POSTs there).
// initialize, tools/list, add(1,2), echo("hello"), slow_count(N) with onprogress (N notifications/progress 0.1 s
// apart), HOLD s idle, add(40,2), then terminateSession (DELETE; Streamable HTTP only) and close. With --long=L, a
// slow_count(L) without onprogress (so no progressToken: the tool is silent for L/10 s) comes right after
// slow_count(N), with a 40 s timeout. Each other request times out after 20 s, the whole run after
// 40 + (N + L)/10 + HOLD s; a failed step is logged and the run goes on.
//   node|bun client.mjs URL [N] [HOLD] [--sse] [--long=L]
//   deno run --allow-net --allow-env --allow-read client.mjs URL [N] [HOLD] [--sse]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const argv = globalThis.Deno ? Deno.args : process.argv.slice(2);
const sse = argv.includes('--sse');
const long = Number((argv.find((a) => a.startsWith('--long=')) ?? '--long=0').slice(7));
const [href, slowArg = '5', holdArg = '0'] = argv.filter((a) => !a.startsWith('--'));
const slow = Number(slowArg), hold = Number(holdArg);
const runtime = globalThis.Bun ? `bun ${Bun.version}` : globalThis.Deno ? `deno ${Deno.version.deno}` : `node ${process.version}`;
const exit = (c) => (globalThis.Deno ? Deno.exit(c) : process.exit(c));
const guard = setTimeout(() => { console.error('client timed out'); exit(2); }, (40 + (slow + long) / 10 + hold) * 1000);
const opts = { timeout: 20000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const client = new Client({ name: 'mcptap-runtimes-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const transport = sse ? new SSEClientTransport(new URL(href)) : new StreamableHTTPClientTransport(new URL(href));
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };
const callTool = async (name, a, extra = {}) => {
    const r = await step(name, () => client.callTool({ name, arguments: a }, undefined, { ...opts, ...extra }));
    log(name, JSON.stringify(a), '->', r ? r.content.map((c) => c.text) : 'no result');
    await sleep(100);
};

log('runtime', runtime, sse ? 'HTTP+SSE' : 'Streamable HTTP');
await client.connect(transport, opts);
log('session', transport.sessionId, 'protocol', transport.protocolVersion ?? '-', 'server', JSON.stringify(client.getServerVersion()));
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.map((t) => t.name));
await callTool('add', { a: 1, b: 2 });
await callTool('echo', { text: 'hello' });
let seen = 0;
await callTool('slow_count', { n: slow }, { onprogress: () => { seen++; } });
log('progress notifications seen', seen);
if (long > 0) await callTool('slow_count', { n: long }, { timeout: 40000 });
if (hold > 0) { log(`holding ${hold} s`); await sleep(hold * 1000); }
await callTool('add', { a: 40, b: 2 });
if (!sse) await step('terminateSession', () => transport.terminateSession());
await client.close();
clearTimeout(guard);
log('done');
exit(0);
