// tRPC v11 server (standalone adapter, the docs' pattern): a query, a mutation and a tracked() subscription over SSE.
//   node trpc_server.mjs PORT [--last N]
// The subscription `onPostAdd` yields tracked(id, post) every 300 ms, ids "1".."LAST" (default 8), then returns;
// given a lastEventId (the reconnecting client's), it continues after it (the docs' "tracked" pattern).
import { initTRPC, tracked, TRPCError } from '@trpc/server';
import { createHTTPServer } from '@trpc/server/adapters/standalone';
import { z } from 'zod';

const port = Number(process.argv[2]);
const li = process.argv.indexOf('--last');
const LAST = li > 0 ? Number(process.argv[li + 1]) : 8;

const t = initTRPC.create({ sse: { ping: { enabled: true, intervalMs: 2000 }, client: { reconnectAfterInactivityMs: 5000 } } });
const posts = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const appRouter = t.router({
  greet: t.procedure.input(z.object({ name: z.string() })).query(({ input }) => ({ text: `hello ${input.name}` })),
  postCount: t.procedure.query(() => posts.length),
  addPost: t.procedure
    .input(z.object({ title: z.string().min(1) }))
    .mutation(({ input }) => {
      const post = { id: posts.length + 1, title: input.title };
      posts.push(post);
      return post;
    }),
  secret: t.procedure.query(() => {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: 'no token' });
  }),
  onPostAdd: t.procedure
    .input(z.object({ lastEventId: z.string().nullish() }).optional())
    .subscription(async function* (opts) {
      let n = opts.input?.lastEventId ? Number(opts.input.lastEventId) : 0;
      console.log(`subscription from lastEventId=${opts.input?.lastEventId ?? '-'}`);
      while (n < LAST && !opts.signal?.aborted) {
        await sleep(300);
        n += 1;
        yield tracked(String(n), { title: `post ${n}` });
      }
    }),
});

createHTTPServer({ router: appRouter }).listen(port, '127.0.0.1');
console.log(`tRPC on 127.0.0.1:${port}`);
