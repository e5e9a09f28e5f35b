// The MCP TypeScript SDK 1.32.2 client over its WebSocketClientTransport (subprotocol "mcp"; it uses the global
// WebSocket, which Node 20 has behind --experimental-websocket): initialize, ping, tools/list, add(2,3),
// slow_count(3) with onprogress, resources/read, close.   node --experimental-websocket ws_client.mjs URL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';

const url = new URL(process.argv[2]);
const client = new Client({ name: 'nonmcp3-ts-ws-client', version: '0.1.0' });
await client.connect(new WebSocketClientTransport(url));
console.log('initialized', client.getServerVersion()?.name);
await client.ping();
console.log('tools', (await client.listTools()).tools.map((t) => t.name));
console.log('add', (await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content[0].text);
const r = await client.callTool({ name: 'slow_count', arguments: { n: 3 } }, undefined, { onprogress: (p) => console.log('progress', p.progress, p.total) });
console.log('slow_count', r.content[0].text);
console.log('read', (await client.readResource({ uri: 'memo://readme' })).contents[0].text);
await client.close();
console.log('closed');
