// graphql-sse client (createClient, the docs' iterate() usage) in distinct connections mode (default) or
// single connection mode (--single):   node gql_client.mjs URL [--single]
// A query, a mutation, a subscription of 5 greetings, two subscriptions at once (countdown from 3 and greetings),
// a query with an error (unknown field).
import { createClient } from 'graphql-sse';

const url = process.argv[2];
const single = process.argv.includes('--single');
const client = createClient({ url, singleConnection: single, retryAttempts: 2 });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function all(payload) {
  const out = [];
  try {
    for await (const result of client.iterate(payload)) out.push(result);
  } catch (e) {
    out.push(`error: ${Array.isArray(e) ? JSON.stringify(e) : e.message}`);
  }
  return out;
}

console.log('query', JSON.stringify(await all({ query: '{ hello }' })));
await sleep(100);
console.log('mutation', JSON.stringify(await all({ query: 'mutation { bump }' })));
await sleep(100);
console.log('subscription', JSON.stringify(await all({ query: 'subscription { greetings }' })));
await sleep(100);
console.log('two at once', JSON.stringify(await Promise.all([
  all({ query: 'subscription Count($n: Int!) { countdown(from: $n) }', variables: { n: 3 }, operationName: 'Count' }),
  all({ query: 'subscription { greetings }' }),
])));
await sleep(100);
console.log('bad query', JSON.stringify(await all({ query: '{ nosuchfield }' })));
client.dispose();
await sleep(200);
console.log('done');
process.exit(0);
