// An A2A client made with the official JS SDK (@a2a-js/sdk 1.3.0: ClientFactory, its JSON-RPC transport over the
// global fetch of Node), for samples/gen/ecosystem/nonmcp2.sh. NOT MCP.
//
//   node a2a_client.mjs BASE_URL
//
// The same steps as ../a2a_client.py, in the protocol the card's best interface offers (v1.0 methods): card,
// blocking sendMessage "hello" + getTask, sendMessageStream "hi, streaming" read to its end, sendMessageStream
// "slow task" left after 3 events (the stream aborted), resubscribeTask read for 3 events, cancelTask while it is
// open, read to its end, getTask of it, getTask of an unknown id (an error). Bounded to 40 s.
import { ClientFactory } from '@a2a-js/sdk/client';
import { randomUUID } from 'node:crypto';

const base = process.argv[2];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (...a) => console.log(...a);
setTimeout(() => { log('timeout'); process.exit(3); }, 40000).unref();

const msg = (t) => ({ message: { messageId: randomUUID(), contextId: '', taskId: '', role: 1,
  parts: [{ content: { $case: 'text', value: t } }], metadata: undefined, extensions: [], referenceTaskIds: [] } });
const what = (ev) => {
  const p = ev.payload;
  if (!p) return '?';
  if (p.$case === 'task') return `task ${p.value.id.slice(0, 8)} ${p.value.status?.state}`;
  if (p.$case === 'statusUpdate') return `status ${p.value.status?.state} ${p.value.status?.message?.parts?.[0]?.content?.value ?? ''}`;
  if (p.$case === 'artifactUpdate') return `artifact ${JSON.stringify(p.value.artifact?.parts?.[0]?.content?.value)}`;
  return p.$case;
};

const client = await new ClientFactory().createFromUrl(base);
const r = await client.sendMessage(msg('hello'));
const first = r.id ? r : (r.payload?.value ?? r);
log('send:', JSON.stringify(first).slice(0, 100));
await sleep(200);
let t = await client.getTask({ id: first.id, historyLength: undefined, tenant: '' });
log('get:', t.status?.state, t.artifacts.length, 'artifacts');
await sleep(200);
for await (const ev of client.sendMessageStream(msg('hi, streaming'))) log('stream:', what(ev));
await sleep(200);

let slowId, n = 0;
const ac = new AbortController();
try {
  for await (const ev of client.sendMessageStream(msg('slow task'), { signal: ac.signal })) {
    log('slow:', what(ev));
    if (ev.payload?.$case === 'task') slowId = ev.payload.value.id;
    if (++n === 3) { ac.abort(); break; }
  }
} catch (e) { log('slow stream:', e.name); }
log('left the slow stream');
await sleep(200);
n = 0;
for await (const ev of client.resubscribeTask({ id: slowId, tenant: '' })) {
  log('resubscribed:', what(ev));
  if (++n === 3) {
    const c = await client.cancelTask({ id: slowId, tenant: '', metadata: undefined });
    log('cancel:', c.status?.state);
  }
}
await sleep(200);
t = await client.getTask({ id: slowId, historyLength: undefined, tenant: '' });
log('get:', t.status?.state);
try {
  await client.getTask({ id: '00000000-0000-0000-0000-000000000000', historyLength: undefined, tenant: '' });
} catch (e) { log('get unknown:', e.name, String(e.message).slice(0, 100)); }
process.exit(0);
