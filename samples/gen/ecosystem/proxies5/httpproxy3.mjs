// http-proxy-3 2.0.1 (npm) as a reverse proxy in front of an MCP server, for the proxies5 group
// (samples/gen/ecosystem/proxies5.sh): its README's basic example, createProxyServer({ target }).listen(), plus the
// README's 'error' handler (without one, a backend error throws). Everything else default (no changeOrigin, no ws).
//   node httpproxy3.mjs FRONT BACK
import { createProxyServer } from 'http-proxy-3';

const [front, back] = process.argv.slice(2).map(Number);
const proxy = createProxyServer({ target: `http://127.0.0.1:${back}` });
proxy.on('error', (err, req, res) => {
    console.error('proxy error:', err?.code ?? err?.message);
    if (res && !res.headersSent && typeof res.writeHead === 'function') {
        res.writeHead(502, { 'Content-Type': 'text/plain' });
        res.end('Bad gateway');
    } else if (res) {
        res.end();
    }
});
proxy.listen(front, '127.0.0.1');
console.error(`http-proxy-3 127.0.0.1:${front} -> 127.0.0.1:${back}`);
