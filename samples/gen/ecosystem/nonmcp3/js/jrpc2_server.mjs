// json-rpc-2.0's README server: express + express.json() (body-parser), POST /json-rpc, server.receive(), 204 for a
// notification. Methods: echo and log (the README's), sum, and fail (throws JSONRPCErrorException, the README's
// "error" section).   node jrpc2_server.mjs PORT
import express from 'express';
import { JSONRPCServer, JSONRPCErrorException } from 'json-rpc-2.0';

const port = Number(process.argv[2]);
const server = new JSONRPCServer();
server.addMethod('echo', ({ text }) => text);
server.addMethod('log', ({ message }) => console.log(message));
server.addMethod('sum', ({ x, y }) => x + y);
server.addMethod('fail', () => {
  throw new JSONRPCErrorException('A custom error message', -32000, { detail: 'out of cheese' });
});

const app = express();
app.use(express.json());
app.post('/json-rpc', (req, res) => {
  server.receive(req.body).then((jsonRPCResponse) => {
    if (jsonRPCResponse) res.json(jsonRPCResponse);
    else res.sendStatus(204);
  });
});
app.listen(port, '127.0.0.1');
console.log(`json-rpc-2.0 on 127.0.0.1:${port}/json-rpc`);
