// clients7 driver for the Strands Agents TypeScript SDK (@strands-agents/sdk 1.19.0, on the TS SDK 1.32.2): its
// McpClient as an Agent uses it (the client lists its tools as McpTool objects; the agent loop runs a tool through
// McpTool.stream with the model's toolUse), no model, no Agent. Modes:
//   node strands_client.mjs URL           McpClient({url}) listTools, McpTool.stream add, slow_count, fail, disconnect
//   node strands_client.mjs URL restart   listTools, add, pause 6 s (the harness restarts the server), add three
//                                         times more, disconnect
import { McpClient } from '@strands-agents/sdk';

const [url, mode = 'http'] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let n = 0;

// What the agent loop does with a tool the model chose: iterate McpTool.stream(toolContext) to its ToolResultBlock.
async function call(tools, name, input) {
    const tool = tools.find((t) => t.name === name);
    const gen = tool.stream({ toolUse: { toolUseId: `tooluse-${++n}`, name, input }, cancelSignal: undefined });
    let r;
    do { r = await gen.next(); } while (!r.done);
    const block = r.value;
    const text = (block.content ?? []).map((c) => c.text ?? JSON.stringify(c)).join(' ');
    console.log(`${name} -> ${block.status}: ${text.slice(0, 200)}`);
}

const client = new McpClient({ url, applicationName: 'clients7-strands', applicationVersion: '1.0.0' });
const tools = await client.listTools();   // connects lazily (McpClient.connect) and lists
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
await client.disconnect();
console.log('closed');
process.exit(0);
