// clients7 driver for the BeeAI Framework TypeScript package (beeai-framework 0.1.30): its MCPTool adapter as its
// documentation shows it (the application makes a TS SDK 1.32.2 Client and transport, MCPTool.fromClient lists the
// tools, an agent runs each one through Tool.run), no model, no agent. Modes:
//   node beeai_client.mjs URL           Client + StreamableHTTPClientTransport, MCPTool.fromClient, run add,
//                                       slow_count, fail, client.close()
//   node beeai_client.mjs URL restart   fromClient, add, pause 6 s (the harness restarts the server), add three
//                                       times more, client.close()
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCPTool } from 'beeai-framework/tools/mcp';

const [url, mode = 'http'] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function call(tools, name, input) {
    const tool = tools.find((t) => t.name === name);
    try {
        const out = await tool.run(input);
        console.log(`${name} -> ${out.getTextContent().slice(0, 200)}`);
    } catch (e) {
        console.log(`${name} failed: ${e?.constructor?.name}: ${String(e?.message ?? e).slice(0, 200)}`);
    }
}

const client = new Client({ name: 'clients7-beeai', version: '1.0.0' }, { capabilities: {} });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const tools = await MCPTool.fromClient(client);
console.log('tools:', tools.map((t) => t.name).join(', '));
if (mode === 'restart') {
    await call(tools, 'add', { a: 1, b: 2 });
    await sleep(6000);
    await call(tools, 'add', { a: 3, b: 4 });
    await call(tools, 'add', { a: 5, b: 6 });
    await call(tools, 'add', { a: 7, b: 8 });
} else {
    await call(tools, 'add', { a: 1, b: 2 });
    await call(tools, 'slow_count', { n: 3 });
    if (tools.some((t) => t.name === 'fail')) await call(tools, 'fail', { reason: 'boom' });
}
await client.close();
console.log('closed');
process.exit(0);
