// hono-mcp-server-sse-transport 0.0.7 (SSETransport on Hono's own streamSSE) with the official TS SDK McpServer 1.32.2
// on Hono 4.13.23 + @hono/node-server 2.1.11: the package README's setup (GET /sse, POST /messages?sessionId=).
// Tools: add, echo, slow (n progress notifications, 1 s apart, when the call has a progressToken). Usage: node hono_sse_server.mjs PORT
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { streamSSE } from 'hono/streaming';
import { SSETransport } from 'hono-mcp-server-sse-transport';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const port = Number(process.argv[2]);
function build() {
  const mcpServer = new McpServer({ name: 'servers8-hono-sse', version: '1.0.0' }, { capabilities: { tools: {} } });
  mcpServer.tool('add', 'Add two numbers', { a: z.number(), b: z.number() }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
  mcpServer.tool('echo', 'Echo text', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  mcpServer.tool('slow', 'Wait n seconds, reporting progress', { n: z.number() }, async ({ n }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= n; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n } });
    }
    return { content: [{ type: 'text', text: `waited ${n} s` }] };
  });
  return mcpServer;
}

const app = new Hono();
const transports = {};
app.get('/sse', (c) => streamSSE(c, async (stream) => {
  const transport = new SSETransport('/messages', stream);
  transports[transport.sessionId] = transport;
  stream.onAbort(() => { delete transports[transport.sessionId]; });
  await build().connect(transport);
  while (true) await stream.sleep(60_000);
}));
app.post('/messages', async (c) => {
  const transport = transports[c.req.query('sessionId')];
  if (transport == null) return c.text('No transport found for sessionId', 400);
  return await transport.handlePostMessage(c);
});
serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => console.log(`hono sse on ${port}`));
