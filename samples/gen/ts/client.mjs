// TypeScript SDK client (StreamableHTTPClientTransport) for the mcptap sample captures.
// Bounded: initialize, tools/list, 4 x tools/call, then DELETE (terminateSession) and close.
// Usage: node client.mjs URL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const url = new URL(process.argv[2] ?? 'http://127.0.0.1:18103/mcp');
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);

const client = new Client({ name: 'mcptap-sample-ts-client', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(url);
await client.connect(transport);
console.error('session', transport.sessionId, 'protocol', transport.protocolVersion);
const tools = await client.listTools();
console.error('tools', tools.tools.map((t) => t.name));
const calls = [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['add', { a: 40, b: 2 }], ['echo', { text: 'bye' }]];
for (const [name, args] of calls) {
    const r = await client.callTool({ name, arguments: args });
    console.error(name, JSON.stringify(args), '->', r.content.map((c) => c.text));
    await new Promise((r) => setTimeout(r, 100));
}
await transport.terminateSession();
await client.close();
clearTimeout(guard);
