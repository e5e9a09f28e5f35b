// tRPC v11 client as the docs show it: splitLink, subscriptions over httpSubscriptionLink (EventSource from the
// `eventsource` package, Node 20 has none), everything else over httpBatchLink.
//   node trpc_client.mjs URL [--subscribe-only]
// Calls: greet (query), addPost (mutation), three queries at once (one batched GET), two mutations at once (one
// batched POST), a failing query (UNAUTHORIZED), then the onPostAdd subscription until the server's last event
// (id LAST, default 8) or 20 s.
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { EventSource } from 'eventsource';

const url = process.argv[2];
const subscribeOnly = process.argv.includes('--subscribe-only');
const LAST = '8';
const client = createTRPCClient({
  links: [
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({ url, EventSource }),
      false: httpBatchLink({ url }),
    }),
  ],
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

if (!subscribeOnly) {
  console.log('greet', await client.greet.query({ name: 'trpc' }));
  await sleep(100);
  console.log('addPost', await client.addPost.mutate({ title: 'first' }));
  await sleep(100);
  console.log('batch', await Promise.all([client.greet.query({ name: 'a' }), client.greet.query({ name: 'b' }), client.postCount.query()]));
  await sleep(100);
  console.log('batch mutations', await Promise.all([client.addPost.mutate({ title: 'second' }), client.addPost.mutate({ title: '' }).catch((e) => `error ${e.data?.code}`)]));
  await sleep(100);
  try { await client.secret.query(); } catch (e) { console.log('secret', e.data?.code, e.data?.httpStatus); }
  await sleep(100);
}

await new Promise((resolve) => {
  const timer = setTimeout(() => { console.log('subscription: timeout'); sub.unsubscribe(); resolve(); }, 20000);
  const sub = client.onPostAdd.subscribe(undefined, {
    onStarted: () => console.log('subscription started'),
    onData: (d) => {
      console.log('event', d.id, JSON.stringify(d.data));
      if (d.id === LAST) { clearTimeout(timer); sub.unsubscribe(); resolve(); }
    },
    onConnectionStateChange: (s) => console.log('state', s.state, s.error ? s.error.message : ''),
    onError: (e) => { console.log('error', e.message); },
    onComplete: () => { console.log('complete'); clearTimeout(timer); resolve(); },
  });
});
await sleep(200);
console.log('done');
process.exit(0);
