// The OpenAI Agents SDK for TypeScript (npm @openai/agents-core 0.20.0, the core of @openai/agents; its MCP
// classes run the TS SDK v2 client @modelcontextprotocol/client 2.0.0) as an MCP client, without an agent run and
// without an LLM: the MCPServer object an Agent would be given (`mcpServers: [server]`), driven through the methods
// the Agent's runner calls: `await server.connect()`, `await server.listTools()`, `await server.callTool(name,
// args)` for add(1,2), echo("hello"), slow_count(3), add(40,2), 0.1 s apart, then `await server.close()`. Defaults
// otherwise (cacheToolsList off; tracing disabled by OPENAI_AGENTS_DISABLE_TRACING=1 from the group script).
// Bounded: a 30 s timer ends the process.
//   node openai-agents-client.mjs streamable URL   # MCPServerStreamableHttp({ url, name })
//   node openai-agents-client.mjs sse URL          # MCPServerSSE({ url, name }) (legacy HTTP+SSE)
import { MCPServerSSE, MCPServerStreamableHttp } from '@openai/agents-core';

const CALLS = [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['slow_count', { n: 3 }], ['add', { a: 40, b: 2 }]];
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
setTimeout(() => { log('timeout: 30 s'); process.exit(3); }, 30000).unref();

const [mode, url] = process.argv.slice(2);
const Cls = mode === 'sse' ? MCPServerSSE : MCPServerStreamableHttp;
const server = new Cls({ url, name: 'agentsjs' });
try {
    await server.connect();
    const tools = await server.listTools();
    log('tools', tools.map((t) => t.name));
    for (const [name, args] of CALLS) {
        const r = await server.callTool(name, args);
        log(name, JSON.stringify(args), '->', JSON.stringify(r).slice(0, 200));
        await new Promise((r) => setTimeout(r, 100));
    }
} catch (e) {
    log('error:', e?.constructor?.name, (e?.message ?? String(e)).slice(0, 300));
}
await server.close();
log('closed');
process.exit(0);
