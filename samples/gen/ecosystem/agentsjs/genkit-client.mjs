// Genkit's MCP client (npm @genkit-ai/mcp 1.42.0 with genkit 1.42.0, on the TS SDK 1.x client
// @modelcontextprotocol/sdk 1.32.2) the way its README uses it, without a model: `const ai = genkit({})` (no
// plugin, no model), `createMcpClient({ name: 'agentsjs', mcpServer: { url } })`, `await client.ready()`, `await
// client.getActiveTools(ai)` (Genkit tool actions named `agentsjs/<tool>`), each tool action called directly:
// add(1,2), echo("hello"), slow_count(3), add(40,2), 0.1 s apart, then `await client.disable()` (Genkit's way to
// close the connection). Bounded: a 30 s timer ends the process.
//   node genkit-client.mjs URL
import { genkit } from 'genkit';
import { createMcpClient } from '@genkit-ai/mcp';

const CALLS = [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['slow_count', { n: 3 }], ['add', { a: 40, b: 2 }]];
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
setTimeout(() => { log('timeout: 30 s'); process.exit(3); }, 30000).unref();

const ai = genkit({});
const client = createMcpClient({ name: 'agentsjs', mcpServer: { url: process.argv[2] } });
try {
    await client.ready();
    const tools = Object.fromEntries((await client.getActiveTools(ai)).map((t) => [t.__action.name, t]));
    log('tools', Object.keys(tools));
    for (const [name, args] of CALLS) {
        const key = Object.keys(tools).find((k) => k.endsWith(`/${name}`));
        const r = await tools[key](args);
        log(name, JSON.stringify(args), '->', JSON.stringify(r).slice(0, 200));
        await new Promise((r) => setTimeout(r, 100));
    }
} catch (e) {
    log('error:', e?.constructor?.name, (e?.message ?? String(e)).slice(0, 300));
}
await client.disable();
log('disabled');
process.exit(0);
