// express-http-proxy 2.1.2 (npm) on express 5 in front of an MCP server, for the proxies5 group
// (samples/gen/ecosystem/proxies5.sh): the README's `app.use('/', proxy(host))`. With `--decorate`, a
// userResHeaderDecorator that adds one response header (as its README's example; a CORS header here), which the
// README says turns streaming off (the response is buffered). Everything else default (backend errors go to express's
// default error handler).
//   node express_proxy.mjs FRONT BACK [--decorate]
import express from 'express';
import proxy from 'express-http-proxy';

const [frontArg, backArg, mode] = process.argv.slice(2);
const front = Number(frontArg), back = Number(backArg);
const opts = {};
if (mode === '--decorate') {
    opts.userResHeaderDecorator = (headers) => ({ ...headers, 'access-control-allow-origin': '*' });
}
const app = express();
app.use('/', proxy(`http://127.0.0.1:${back}`, opts));
app.listen(front, '127.0.0.1', () => console.error(`express-http-proxy 127.0.0.1:${front} -> 127.0.0.1:${back} ${mode ?? ''}`));
