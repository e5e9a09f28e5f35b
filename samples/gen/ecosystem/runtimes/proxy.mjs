// A Node reverse proxy of the runtimes group in front of ./node-server.mjs, each set up as its README shows, with
// its defaults (no option about buffering, compression or headers):
//   node proxy.mjs hpm PORT BACKEND         express 5 + http-proxy-middleware 3 createProxyMiddleware({ target })
//   node proxy.mjs fastify PORT BACKEND     fastify 5 + @fastify/http-proxy 11 ({ upstream }, on undici)
//   node proxy.mjs http-proxy PORT BACKEND  node:http + http-proxy 1.18 (node-http-proxy) proxy.web(req, res)
import http from 'node:http';

const [kind, portArg, backendArg] = process.argv.slice(2);
const port = Number(portArg), target = `http://127.0.0.1:${backendArg}`;
const done = () => console.error(`${kind} proxy on 127.0.0.1:${port} -> ${target}`);

if (kind === 'hpm') {
    const { default: express } = await import('express');
    const { createProxyMiddleware } = await import('http-proxy-middleware');
    const app = express();
    app.use('/', createProxyMiddleware({ target, changeOrigin: true }));
    app.listen(port, '127.0.0.1', done);
} else if (kind === 'fastify') {
    const { default: Fastify } = await import('fastify');
    const { default: proxy } = await import('@fastify/http-proxy');
    const app = Fastify();
    await app.register(proxy, { upstream: target });
    await app.listen({ port, host: '127.0.0.1' });
    done();
} else if (kind === 'http-proxy') {
    const { default: httpProxy } = await import('http-proxy');
    const p = httpProxy.createProxyServer({ target });
    p.on('error', (e, req, res) => { console.error('proxy error', e.message); try { res.writeHead(502); res.end(); } catch { /* */ } });
    http.createServer((req, res) => p.web(req, res)).listen(port, '127.0.0.1', done);
} else {
    console.error('kind: hpm | fastify | http-proxy');
    process.exit(2);
}
