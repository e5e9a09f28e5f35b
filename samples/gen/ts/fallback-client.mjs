// TypeScript SDK client with the SDK's documented backwards-compatibility pattern
// (src/examples/client/streamableHttpWithSseFallbackClient.ts): try StreamableHTTPClientTransport on the URL;
// if connect() throws (for ANY reason, as in the example), fall back to SSEClientTransport on the same URL.
// Then tools/list, 4 x tools/call, close. Bounded (30 s guard).
// Usage: node fallback-client.mjs URL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const url = new URL(process.argv[2]);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);

async function connectWithBackwardsCompatibility(url) {
    const client = new Client({ name: 'mcptap-fallback-client', version: '1.0.0' });
    try {
        const transport = new StreamableHTTPClientTransport(url);
        await client.connect(transport);
        console.error('connected with Streamable HTTP');
        return { client, transport };
    } catch (error) {
        console.error(`Streamable HTTP failed (${error}); falling back to HTTP+SSE`);
        const sseClient = new Client({ name: 'mcptap-fallback-client', version: '1.0.0' });
        const transport = new SSEClientTransport(url);
        await sseClient.connect(transport);
        console.error('connected with deprecated HTTP+SSE');
        return { client: sseClient, transport };
    }
}

const { client, transport } = await connectWithBackwardsCompatibility(url);
const tools = await client.listTools();
console.error('tools', tools.tools.map((t) => t.name));
const calls = [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['add', { a: 40, b: 2 }], ['echo', { text: 'bye' }]];
for (const [name, args] of calls) {
    const r = await client.callTool({ name, arguments: args });
    console.error(name, JSON.stringify(args), '->', r.content.map((c) => c.text));
    await new Promise((r) => setTimeout(r, 100));
}
await client.close();
clearTimeout(guard);
