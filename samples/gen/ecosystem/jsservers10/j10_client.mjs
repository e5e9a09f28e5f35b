// Official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, ./package-lock.json) of the jsservers10 captures:
// one bounded session over StreamableHTTPClientTransport (Node's fetch, its defaults), or, for a ws:// URL, over the
// SDK's WebSocketClientTransport (subprotocol `mcp`; needs Node's global WebSocket: Node 22). Steps: initialize (+ the
// standalone GET stream the transport opens after `notifications/initialized` is answered 202), tools/list, then
// every call of the STEPS file (a JSON list of [tool, arguments]), terminateSession (a DELETE only when the server
// minted a session id), close.
// Each request times out after 10 s, the run after 50 s; a step that fails is logged and the run goes on.
// PAUSE/READY/GO (optional): before call number PAUSE (0-based), create READY and wait (max 20 s) for GO: the script
// restarts the server meanwhile.
// MCP_BEARER (environment, optional): sent as `Authorization: Bearer <value>` on every request (dynatrace's --http).
//   node j10_client.mjs URL STEPS.json TAG [PAUSE READY GO]
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';

const [href, stepsFile, tag = 'A', pause = '', ready = '', go = ''] = process.argv.slice(2);
const steps = JSON.parse(fs.readFileSync(stepsFile, 'utf8'));
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 50000);
const opts = { timeout: 10000 };
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, tag, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const client = new Client({ name: 'mcptap-jsservers10-ts-client', version: '1.0.0' });
client.onerror = (e) => log('client error:', e?.message ?? e);
const requestInit = process.env.MCP_BEARER ? { headers: { Authorization: `Bearer ${process.env.MCP_BEARER}` } } : undefined;
const transport = href.startsWith('ws') ? new WebSocketClientTransport(new URL(href)) : new StreamableHTTPClientTransport(new URL(href), { requestInit });
const step = async (name, fn) => { try { return await fn(); } catch (e) { log(name, 'failed:', e?.message ?? e); return undefined; } };
const short = (c) => (c.text ?? JSON.stringify(c)).slice(0, 120);

await client.connect(transport, opts);
log('session', transport.sessionId, 'protocol', transport.protocolVersion, 'server', JSON.stringify(client.getServerVersion()));
const tools = await step('tools/list', () => client.listTools(undefined, opts));
log('tools', tools?.tools.map((t) => t.name));
for (const [i, [name, args]] of steps.entries()) {
    if (pause !== '' && i === Number(pause)) {
        fs.writeFileSync(ready, '');
        log('paused before call', i);
        for (let k = 0; k < 400 && !fs.existsSync(go); k++) await sleep(50);
    }
    const r = await step(name, () => client.callTool({ name, arguments: args }, undefined, opts));
    log(name, JSON.stringify(args), '->', r ? `${r.isError ? 'isError' : 'ok'} ${JSON.stringify((r.content ?? []).map(short))}` : 'no result');
    await sleep(100);
}
if (transport.terminateSession) await step('terminateSession', () => transport.terminateSession());
await client.close();
clearTimeout(guard);
log('done');
