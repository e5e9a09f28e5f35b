// An MCP host's side of mcp-remote (0.15.1, this folder's pins), as Claude Desktop and other stdio-only hosts run it:
// the official TypeScript SDK client (1.32.2) over stdio to `mcp-remote URL CALLBACK-PORT` (its defaults otherwise:
// transport strategy http-first, legacy protocol mode; MCP_REMOTE_CONFIG_DIR points at the script's run folder so
// nothing is read from or written to the home directory). Only mcp-remote's HTTP side is on the wire.
//   node mcp_remote_client.mjs URL CALLBACK-PORT
// tools/list, add(1,2), echo("hello"), close. 40 s guard.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';

const [url, cbPort] = process.argv.slice(2);
const T0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - T0) / 1000).toFixed(3)}]`, ...a);
const guard = setTimeout(() => { log('guard: 40 s'); process.exit(3); }, 40000);
const proxy = fileURLToPath(new URL('./node_modules/mcp-remote/dist/proxy.js', import.meta.url));

const transport = new StdioClientTransport({
    command: process.execPath, args: [proxy, url, cbPort], stderr: 'inherit',
    env: { ...process.env },
});
const client = new Client({ name: 'situations-mcp-remote-host', version: '1.0.0' });
await client.connect(transport);
log('connected through mcp-remote');
log('tools', (await client.listTools()).tools.map((t) => t.name));
for (const [name, args] of [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }]]) {
    const r = await client.callTool({ name, arguments: args });
    log(name, JSON.stringify(args), '->', r.content.map((c) => c.text));
}
await client.close();
log('closed');
clearTimeout(guard);
