// clients4 driver of LlamaIndex.TS's MCP tools (@llamaindex/tools mcp(); no model, no agent run): tools() connects
// and lists, each FunctionTool is called as an agent would call it: add(1, 2), slow_count(3), fail("boom"); then
// cleanup().
//   node llamaindex_client.mjs URL [sse]      sse: useSSETransport (the legacy transport)
import { mcp } from '@llamaindex/tools';

const [url, sse] = process.argv.slice(2);
const client = mcp({ url, useSSETransport: sse === 'sse', verbose: false });
const tools = await client.tools();
const byName = Object.fromEntries(tools.map((t) => [t.metadata.name, t]));
console.log('tools:', Object.keys(byName).join(', '));
for (const [name, args] of [['add', { a: 1, b: 2 }], ['slow_count', { n: 3 }], ['fail', { reason: 'boom' }]]) {
    try {
        const r = await byName[name].call(args);
        console.log(name, '->', JSON.stringify(r).slice(0, 200));
    } catch (e) {
        console.log(name, 'raised', String(e).slice(0, 200));
    }
}
await client.cleanup();
console.log('cleaned up');
