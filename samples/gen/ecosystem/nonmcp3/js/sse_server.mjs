// A generic SSE feed with better-sse (createSession on Node's http server, as its docs show): GET /events pushes
// "tick" events with ids 1, 2, 3, ...; each connection gets 3 events 250 ms apart and is then ended by the server
// (a feed with a time limit per connection). A reconnect with Last-Event-ID N continues at N+1 (better-sse reads the
// header into session.lastId). retry: 500.   node sse_server.mjs PORT
import http from 'node:http';
import { createSession } from 'better-sse';

const port = Number(process.argv[2]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

http
  .createServer(async (req, res) => {
    if (!req.url.startsWith('/events')) { res.writeHead(404).end(); return; }
    const session = await createSession(req, res, { retry: 500 });
    let n = Number(session.lastId) || 0;
    console.log(`connect, Last-Event-ID '${session.lastId}'`);
    for (let i = 0; i < 3 && session.isConnected; i++) {
      await sleep(250);
      n += 1;
      session.push({ n, at: Date.now() % 100000 }, 'tick', String(n));
    }
    await sleep(50);
    res.end();
  })
  .listen(port, '127.0.0.1');
console.log(`better-sse on 127.0.0.1:${port}/events`);
