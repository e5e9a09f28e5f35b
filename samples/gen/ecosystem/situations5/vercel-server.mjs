// @vercel/mcp-adapter 0.5.1 (the package later renamed mcp-handler) as its README writes a Next.js route handler
// (`app/[transport]/route.ts`: `const handler = createMcpHandler((server) => { server.tool(...) }, {}, { redisUrl,
// maxDuration: 60 }); export { handler as GET, handler as POST, handler as DELETE }`), served here without Next.js by
// @hono/node-server's `serve` (the handler is a fetch-style (Request) => Response, as Next.js calls it). Endpoints
// (the adapter's defaults): Streamable HTTP at /mcp (stateless: one transport without session ids), the legacy
// HTTP+SSE stream at /sse and its message URL /message, legacy sessions relayed through Redis. Tools add and echo.
//   node vercel-server.mjs PORT REDIS_PORT
import { serve } from '@hono/node-server';
import { createMcpHandler } from '@vercel/mcp-adapter';
import { z } from 'zod';

const [port, redisPort] = process.argv.slice(2).map(Number);
const handler = createMcpHandler(
    (server) => {
        server.tool('add', 'Add two integers.', { a: z.number().int(), b: z.number().int() },
            async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
        server.tool('echo', 'Echo the text back.', { text: z.string() },
            async ({ text }) => ({ content: [{ type: 'text', text }] }));
    },
    {},
    { redisUrl: `redis://127.0.0.1:${redisPort}`, maxDuration: 60, verboseLogs: true },
);
serve({ fetch: handler, hostname: '127.0.0.1', port }, () => console.error(`listening on 127.0.0.1:${port}`));
