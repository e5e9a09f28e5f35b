// The `eventsource` package's EventSource (the WHATWG API for Node): listens for "tick" events on URL, lets the
// browser-style reconnect (Last-Event-ID) happen when the server ends a stream, and closes after event id LAST
// (default 9) or 15 s.   node sse_client.mjs URL [LAST]
import { EventSource } from 'eventsource';

const url = process.argv[2];
const LAST = process.argv[3] || '9';
const es = new EventSource(url);
const stop = setTimeout(() => { console.log('timeout'); es.close(); process.exit(1); }, 15000);
es.addEventListener('open', () => console.log('open'));
es.addEventListener('error', () => console.log('error (readyState', es.readyState + ')'));
es.addEventListener('tick', (ev) => {
  console.log('tick', ev.lastEventId, ev.data);
  if (ev.lastEventId === LAST) { es.close(); clearTimeout(stop); setTimeout(() => process.exit(0), 200); }
});
