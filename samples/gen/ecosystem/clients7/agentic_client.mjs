// clients7 driver for Agentic's MCP adapter (@agentic/mcp 7.6.9, @agentic/core 7.6.9, on the TS SDK 1.32.2):
// createMcpTools as its README shows it; each tool is an AIFunction named NAME_TOOL that an agent framework's
// adapter executes with the model's arguments; no model. Modes:
//   node agentic_client.mjs URL sse           createMcpTools({serverUrl}) (its URL option: the legacy HTTP+SSE
//                                             SSEClientTransport), AIFunction add, slow_count, fail, client.close()
//   node agentic_client.mjs URL http          the same with {transport: new StreamableHTTPClientTransport(URL)}
//   node agentic_client.mjs URL sse-restart   serverUrl: add, pause 6 s (the harness restarts the server), add
//                                             three times more, client.close()
//   node agentic_client.mjs URL http-restart  transport: the same
import { createMcpTools } from '@agentic/mcp';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, mode = 'sse'] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const NAME = 'clients7';

async function call(mcp, name, args) {
    const fn = mcp.functions.get(`${NAME}_${name}`);
    try {
        // fn.execute(args): the path of Agentic's framework adapters (@agentic/ai-sdk, langchain, ...), which hand it
        // the arguments the framework parsed. Calling fn(JSON string) itself passes the string on unparsed (the MCP
        // tools' schema parse is the identity): tools/call with "arguments": "{...}", answered -32602.
        const out = await fn.execute(args);
        console.log(`${name} -> ${JSON.stringify(out).slice(0, 200)}`);
    } catch (e) {
        console.log(`${name} failed: ${e?.constructor?.name}: ${String(e?.message ?? e).slice(0, 200)}`);
    }
}

const opts = mode.startsWith('http')
    ? { name: NAME, transport: new StreamableHTTPClientTransport(new URL(url)) }
    : { name: NAME, serverUrl: url };
const mcp = await createMcpTools(opts);
console.log('tools:', [...mcp.functions].map((f) => f.spec?.name ?? f.name).join(', '));
if (mode.endsWith('restart')) {
    await call(mcp, 'add', { a: 1, b: 2 });
    await sleep(6000);
    await call(mcp, 'add', { a: 3, b: 4 });
    await call(mcp, 'add', { a: 5, b: 6 });
    await call(mcp, 'add', { a: 7, b: 8 });
} else {
    await call(mcp, 'add', { a: 1, b: 2 });
    await call(mcp, 'slow_count', { n: 3 });
    if (mcp.functions.get(`${NAME}_fail`)) await call(mcp, 'fail', { reason: 'boom' });
}
await mcp.client.close();
console.log('closed');
process.exit(0);
