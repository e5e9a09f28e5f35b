// HTTP/2 over TLS on 127.0.0.1 for the mcptap coverage sample (CAPTURE-HTTP2-UNANALYSED): one POST /mcp with
// an initialize request, answered with a JSON-RPC result. Bounded: one request, then exit.
// Usage: node h2.mjs server PORT CERT KEY KEYLOG | node h2.mjs client PORT
import http2 from 'node:http2';
import fs from 'node:fs';

const [mode, port, cert, key, keylog] = process.argv.slice(2);
if (mode === 'server') {
    const server = http2.createSecureServer({ cert: fs.readFileSync(cert), key: fs.readFileSync(key), allowHTTP1: false });
    // Node's per-connection key log event: NSS key-log lines.
    server.on('keylog', (line) => fs.appendFileSync(keylog, line));
    server.on('stream', (stream) => {
        let body = '';
        stream.on('data', (c) => { body += c; });
        stream.on('end', () => {
            const id = JSON.parse(body).id;
            stream.respond({ ':status': 200, 'content-type': 'application/json' });
            stream.end(JSON.stringify({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'h2', version: '1' } } }));
        });
    });
    server.listen(Number(port), '127.0.0.1');
    setTimeout(() => process.exit(0), 30000);
} else {
    const guard = setTimeout(() => process.exit(2), 10000);
    const client = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
    const req = client.request({ ':method': 'POST', ':path': '/mcp', 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
    req.setEncoding('utf8');
    let out = '';
    req.on('data', (c) => { out += c; });
    req.on('end', () => { console.error(out); client.close(); clearTimeout(guard); });
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'h2', version: '1' } } }));
}
