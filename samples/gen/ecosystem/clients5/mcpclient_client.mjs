// clients5 driver for the npm package `mcp-client` (punkpeye, 1.13.1, on the TS SDK 1.32.2): its MCPClient API as an
// application uses it, no model. Modes:
//   node mcpclient_client.mjs URL           connect (httpStream), getAllTools, ping, callTool add, slow_count, fail, close
//   node mcpclient_client.mjs URL sse       the same with {type: "sse"} (legacy HTTP+SSE)
//   node mcpclient_client.mjs URL restart   connect, add, pause 6 s (the harness restarts the server), add three times, close
import { MCPClient } from 'mcp-client';

const [url, mode = 'http'] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const text = (r) => (r?.content ?? []).map((c) => c.text ?? JSON.stringify(c)).join(' ') + (r?.isError ? ' (isError)' : '');

async function call(client, name, args) {
    try {
        console.log(`${name} -> ${text(await client.callTool({ name, arguments: args }))}`);
    } catch (e) {
        console.log(`${name} failed: ${e?.constructor?.name}: ${String(e?.message ?? e).slice(0, 200)}`);
    }
}

const client = new MCPClient({ name: 'clients5-mcp-client', version: '1.0.0' }, { capabilities: {} });
await client.connect({ type: mode === 'sse' ? 'sse' : 'httpStream', url });
const tools = await client.getAllTools();
console.log('tools:', tools.map((t) => t.name).join(', '));
if (mode === 'restart') {
    await call(client, 'add', { a: 1, b: 2 });
    await sleep(6000);
    await call(client, 'add', { a: 3, b: 4 });
    await call(client, 'add', { a: 5, b: 6 });
    await call(client, 'add', { a: 7, b: 8 });
} else {
    console.log('ping ->', JSON.stringify(await client.ping()));
    await call(client, 'add', { a: 1, b: 2 });
    await call(client, 'slow_count', { n: 3 });
    if (tools.some((t) => t.name === 'fail')) await call(client, 'fail', { reason: 'boom' });
}
await client.close();
console.log('closed');
process.exit(0);
