// Strands Agents TypeScript SDK (@strands-agents/sdk 1.19.0) MCP client of the jsservers3 group, without a model: the
// SDK's `McpClient({ url })` (its own construction of the official TS SDK 1.32.2 StreamableHTTPClientTransport, the
// peer dependency), as an Agent would use it for its tools: connect, listTools(), callTool() of add(1,2),
// echo("hello"), slow_count(3) and add(40,2) (Strands passes no progress callback, so no progressToken: the server
// sends no progress), disconnect. McpClient's defaults: MCP instrumentation on (it injects OpenTelemetry trace
// context into the tool arguments when a span is active; no exporter is configured, so nothing is sent anywhere).
// The whole run is bounded by 40 s.
//   node strands-client.mjs URL [--tasks]
// --tasks: `tasksConfig: {}`, the option Strands documents for long-running tools ("task-based invocation with
// progress tracking": the TS SDK's experimental tasks.callToolStream, which falls back to a plain tools/call when
// the server does not declare the tasks capability).
import { McpClient } from '@strands-agents/sdk';

const [href = 'http://127.0.0.1:19417/mcp'] = process.argv.slice(2);
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 40000);
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const tasks = process.argv.includes('--tasks');
const mcp = new McpClient({ url: href, applicationName: 'mcptap-jsservers3-strands', applicationVersion: '1.0.0', ...(tasks ? { tasksConfig: {} } : {}) });
try {
    await mcp.connect();
    log('connected', JSON.stringify(mcp.serverVersion));
    const tools = await mcp.listTools();
    log('tools', tools.map((t) => t.name));
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const [name, args] of [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['slow_count', { n: 3 }], ['add', { a: 40, b: 2 }]]) {
        try {
            const r = await mcp.callTool(byName[name], args);
            log(name, JSON.stringify(args), '->', JSON.stringify(r).slice(0, 120));
        } catch (e) { log(name, 'failed:', e?.message ?? e); }
        await sleep(100);
    }
} catch (e) {
    log('failed:', e?.message ?? e);
}
await mcp.disconnect();
clearTimeout(guard);
log('done');
