// jayson's HTTP client as its README shows it (callback API; ids are the client's generated UUIDs):
// add(1, 2); ping as a notification (id null: no "id" member since 3.6.1), the README's notifications example; ping
// as a request (a health check); fail(100) (an error object); does_not_exist (-32601); then the README's batch:
// [does_not_exist, add(1, 1), a ping notification].   node jayson_client.mjs PORT
import jayson from 'jayson';

const port = Number(process.argv[2]);
const client = jayson.Client.http({ host: '127.0.0.1', port });
const call = (...a) => new Promise((resolve, reject) => client.request(...a, (err, ...rest) => (err ? reject(err) : resolve(rest))));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

console.log('add', JSON.stringify(await call('add', [1, 2])));
await sleep(100);
console.log('ping notification', JSON.stringify(await call('ping', [], null)));
await sleep(100);
console.log('ping request', JSON.stringify(await call('ping', [])));
await sleep(100);
console.log('fail', JSON.stringify(await call('fail', [100])));
await sleep(100);
console.log('unknown', JSON.stringify(await call('does_not_exist', [10, 5])));
await sleep(100);
const batch = [
  client.request('does_not_exist', [10, 5]),
  client.request('add', [1, 1]),
  client.request('ping', [], null),
];
console.log('batch', JSON.stringify(await new Promise((resolve, reject) => client.request(batch, (err, errors, successes) => (err ? reject(err) : resolve({ errors, successes }))))));
console.log('done');
