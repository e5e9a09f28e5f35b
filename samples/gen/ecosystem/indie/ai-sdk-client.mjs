// The Vercel AI SDK's MCP client (npm @ai-sdk/mcp, createMCPClient; `ai` 7.x has no MCP client of its own), with its own
// transports: { type: 'http' } (Streamable HTTP; by default it first probes `server/discover` at 2026-07-28 and falls
// back to `initialize`) or { type: 'sse' } (legacy HTTP+SSE). Defaults otherwise. One bounded session: connect,
// tools/list, add(1,2), echo("hello"), slow_count(3), add(40,2), close (DELETE when it holds a session id).
// The client has no progress API (callTool takes name, arguments, signal/timeouts; no _meta), so slow_count runs
// without a progressToken and the server sends no notifications/progress.
//   node ai-sdk-client.mjs http|sse URL
import { createMCPClient } from '@ai-sdk/mcp';

const [type = 'http', url = 'http://127.0.0.1:18900/mcp'] = process.argv.slice(2);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);
const options = { timeout: 15000 };
const pause = () => new Promise((r) => setTimeout(r, 100));

const client = await createMCPClient({
    transport: { type, url },
    clientName: 'mcptap-indie-ai-sdk-client',
    onUncaughtError: (e) => console.error('uncaught:', e?.message ?? e),
});
console.error('server', JSON.stringify(client.serverInfo), 'protocol', client.initializeResult?.protocolVersion);
const tools = await client.listTools({ options });
console.error('tools', tools.tools.map((t) => t.name));
for (const [name, args] of [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['slow_count', { n: 3 }], ['add', { a: 40, b: 2 }]]) {
    const r = await client.callTool({ name, arguments: args, options });
    console.error(name, JSON.stringify(args), '->', r.content.map((c) => c.text));
    await pause();
}
await client.close();
clearTimeout(guard);
