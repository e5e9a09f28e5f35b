// TypeScript SDK client (StreamableHTTPClientTransport, defaults) for the mcptap incident captures.
// initialize, tools/list, 4 x tools/call (errors are reported and the session goes on), DELETE, close.
// Usage: node incident-client.mjs URL [--pause SECONDS]   (--pause: sleep after the 2nd call, GET stream open)
// Bounded: a guard of 30 s + the pause.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const url = new URL(process.argv[2]);
const i = process.argv.indexOf('--pause');
const pause = i > 0 ? Number(process.argv[i + 1]) : 0;
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000 + pause * 1000);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const client = new Client({ name: 'mcptap-incident-ts-client', version: '1.0.0' });
client.onerror = (e) => console.error('client onerror:', String(e));
const transport = new StreamableHTTPClientTransport(url);
await client.connect(transport);
console.error('session', transport.sessionId, 'protocol', transport.protocolVersion);
const tools = await client.listTools();
console.error('tools', tools.tools.map((t) => t.name));
const calls = [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['add', { a: 40, b: 2 }], ['echo', { text: 'bye' }]];
for (const [n, [name, args]] of calls.entries()) {
    try {
        const r = await client.callTool({ name, arguments: args });
        console.error(name, JSON.stringify(args), '->', r.content.map((c) => c.text), 'session', transport.sessionId);
    } catch (e) {
        console.error(name, JSON.stringify(args), '-> error:', String(e));
    }
    await sleep(100);
    if (n === 1 && pause) await sleep(pause * 1000);
}
await transport.terminateSession();
await client.close();
clearTimeout(guard);
