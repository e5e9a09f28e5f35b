// The official TypeScript SDK client (StreamableHTTPClientTransport) over Node's undici (npm `undici`, pinned in
// package.json) with `allowH2: true`: HTTP/2 over TLS when the server picks ALPN h2. One undici Agent for the
// whole session; its connector is undici's own (`buildConnector`, which offers ALPN `http/1.1, h2`), wrapped
// only to write the TLS secrets of every connection it opens (the socket's 'keylog' event, NSS key-log lines).
// Bounded: initialize, notifications/initialized, tools/list, 5 x tools/call, DELETE (terminateSession), close;
// a 30 s guard exits with 2.
// Usage: node undici-h2-client.mjs URL CA-PEM KEYLOG
import fs from 'node:fs';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [urlArg, caFile, keylog] = process.argv.slice(2);
if (!urlArg || !caFile || !keylog) {
    console.error('usage: node undici-h2-client.mjs URL CA-PEM KEYLOG');
    process.exit(64);
}
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);

const connector = buildConnector({ ca: fs.readFileSync(caFile), allowH2: true });
const connect = (opts, callback) => {
    // tls.connect returns the socket before its handshake starts, so every secret of the handshake is seen.
    const socket = connector(opts, (err, sock) => {
        if (!err) console.error('connected, ALPN', sock.alpnProtocol);
        callback(err, sock);
    });
    socket.on('keylog', (line) => fs.appendFileSync(keylog, line));
    return socket;
};
const dispatcher = new Agent({ allowH2: true, connect });
const fetchH2 = (url, init) => undiciFetch(url, { ...init, dispatcher });

const client = new Client({ name: 'mcptap-sample-undici-h2', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(urlArg), { fetch: fetchH2 });
await client.connect(transport);
console.error('session', transport.sessionId, 'protocol', transport.protocolVersion);
const tools = await client.listTools();
console.error('tools', tools.tools.map((t) => t.name));
const calls = [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['add', { a: 40, b: 2 }],
    ['echo', { text: 'bye' }], ['add', { a: 7, b: 8 }]];
for (const [name, args] of calls) {
    const r = await client.callTool({ name, arguments: args });
    console.error(name, JSON.stringify(args), '->', r.content.map((c) => c.text));
    await new Promise((res) => setTimeout(res, 100));
}
await transport.terminateSession();
await client.close();
await dispatcher.close();
clearTimeout(guard);
