// json-rpc-2.0's README client: JSONRPCClient over fetch (ids 1, 2, 3, ... from the client's counter): echo, the log
// notification, sum, fail (error -32000), an unknown method (-32601), then a batch by requestAdvanced([...]) of
// echo, sum and a log notification.   node jrpc2_client.mjs URL
import { JSONRPCClient } from 'json-rpc-2.0';

const url = process.argv[2];
const client = new JSONRPCClient((jsonRPCRequest) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(jsonRPCRequest),
  }).then((response) => {
    if (response.status === 200) {
      return response.json().then((jsonRPCResponse) => client.receive(jsonRPCResponse));
    } else if (jsonRPCRequest.id !== undefined) {
      return Promise.reject(new Error(response.statusText));
    }
  }),
);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const show = (p) => p.then((r) => JSON.stringify(r), (e) => `error ${e.code} ${e.message}`);

console.log('echo', await show(client.request('echo', { text: 'Hello, World!' })));
await sleep(100);
client.notify('log', { message: 'Hello, World!' });
await sleep(200);
console.log('sum', await show(client.request('sum', { x: 40, y: 2 })));
await sleep(100);
console.log('fail', await show(client.request('fail', {})));
await sleep(100);
console.log('unknown', await show(client.request('nope', {})));
await sleep(100);
const batch = [
  { jsonrpc: '2.0', id: 100, method: 'echo', params: { text: 'batched' } },
  { jsonrpc: '2.0', id: 101, method: 'sum', params: { x: 1, y: 1 } },
  { jsonrpc: '2.0', method: 'log', params: { message: 'batched note' } },
];
console.log('batch', JSON.stringify(await client.requestAdvanced(batch)));
await sleep(100);
console.log('done');
