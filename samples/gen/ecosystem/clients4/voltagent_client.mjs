// clients4 driver of VoltAgent's MCP client layer (@voltagent/core MCPConfiguration; no model, no Agent run):
// getTools() connects and lists, each tool's execute() is called as an Agent's tool loop would call it:
// add(1, 2), slow_count(3), fail("boom"); then disconnect().
//   node voltagent_client.mjs TYPE URL       TYPE: http (Streamable HTTP, SSE fallback on failure), streamable-http, sse
//   node voltagent_client.mjs TYPE URL restart   instead: add(1, 2), a 6 s pause (the harness restarts the server),
//                                                add(3, 4), add(5, 6), then disconnect()
import { MCPConfiguration } from '@voltagent/core';

const [type, url, mode] = process.argv.slice(2);
const CALLS = mode === 'restart'
    ? [['add', { a: 1, b: 2 }], ['pause'], ['add', { a: 3, b: 4 }], ['add', { a: 5, b: 6 }]]
    : [['add', { a: 1, b: 2 }], ['slow_count', { n: 3 }], ['fail', { reason: 'boom' }]];
const mcp = new MCPConfiguration({ servers: { c4: { type, url, timeout: 20000 } } });
const tools = await mcp.getTools();
const byName = Object.fromEntries(tools.map((t) => [t.name.replace(/^c4_/, ''), t]));
console.log('tools:', tools.map((t) => t.name).join(', '));
for (const [name, args] of CALLS) {
    if (name === 'pause') { await new Promise((r) => setTimeout(r, 6000)); continue; }
    try {
        const r = await byName[name].execute(args, {});
        console.log(name, '->', JSON.stringify(r).slice(0, 200));
    } catch (e) {
        console.log(name, 'raised', String(e).slice(0, 200));
    }
}
try { await mcp.disconnect(); } catch (e) { console.log('disconnect raised', String(e).slice(0, 200)); }
console.log('disconnected');
