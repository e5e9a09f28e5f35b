// Mastra's MCP client (npm @mastra/mcp 2.0.0, on the TS SDK v2 client @modelcontextprotocol/client 2.0.0) the way
// its docs use it, without an agent and without an LLM: `new MCPClient({ servers: { agentsjs: { url: new URL(URL),
// enableProgressTracking: true } } })` (its defaults otherwise: no protocolVersion pin, so the SDK's `auto` version
// negotiation; enableProgressTracking is Mastra's documented switch for a progressToken on tools/call), `await
// mcp.listTools()` (Mastra tools keyed `agentsjs_<tool>`), each tool's `execute(input, {})` called directly: add(1,2),
// echo("hello"), slow_count(3), add(40,2), 0.1 s apart, then `await mcp.disconnect()`. Bounded: a 30 s timer ends
// the process.
//   node mastra-client.mjs URL
import { MCPClient } from '@mastra/mcp';

const CALLS = [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['slow_count', { n: 3 }], ['add', { a: 40, b: 2 }]];
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
setTimeout(() => { log('timeout: 30 s'); process.exit(3); }, 30000).unref();

const mcp = new MCPClient({
    id: 'agentsjs-mastra',
    servers: { agentsjs: { url: new URL(process.argv[2]), enableProgressTracking: true } },
});
try {
    const tools = await mcp.listTools();
    log('tools', Object.keys(tools));
    for (const [name, args] of CALLS) {
        const r = await tools[`agentsjs_${name}`].execute(args, {});
        log(name, JSON.stringify(args), '->', JSON.stringify(r).slice(0, 200));
        await new Promise((r) => setTimeout(r, 100));
    }
} catch (e) {
    log('error:', e?.constructor?.name, (e?.message ?? String(e)).slice(0, 300));
}
await mcp.disconnect();
log('disconnected');
process.exit(0);
