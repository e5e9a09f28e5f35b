// LangChain.js MCP adapters (npm @langchain/mcp-adapters, on the TS SDK 1.x client) as an MCP client, the way its
// README uses it without an LLM: `new MultiServerMCPClient({ mcpServers: { agents: { transport: 'http', url } } })`
// (its defaults otherwise: automaticSSEFallback on, the connection kept open and shared by every tool), `await
// client.getTools()`, each LangChain tool invoked: add(1,2), echo("hello"), slow_count(3), add(40,2), 0.1 s apart,
// then `await client.close()`. Bounded: a 30 s timer ends the process.
//   node langchain-client.mjs http://127.0.0.1:PORT/mcp
import { MultiServerMCPClient } from '@langchain/mcp-adapters';

const CALLS = [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['slow_count', { n: 3 }], ['add', { a: 40, b: 2 }]];
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
setTimeout(() => { log('timeout: 30 s'); process.exit(3); }, 30000).unref();

const client = new MultiServerMCPClient({ mcpServers: { agents: { transport: 'http', url: process.argv[2] } } });
const tools = Object.fromEntries((await client.getTools()).map((t) => [t.name, t]));
log('tools', Object.keys(tools));
for (const [name, args] of CALLS) {
    log(name, JSON.stringify(args), '->', JSON.stringify(await tools[name].invoke(args)));
    await new Promise((r) => setTimeout(r, 100));
}
await client.close();
log('closed');
