// The official TypeScript SDK (1.32.2) Streamable HTTP server as its README sets it up: createMcpExpressApp() (its
// default host 127.0.0.1, so the SDK's localhost Host-header check: localhost, 127.0.0.1, [::1]), one
// StreamableHTTPServerTransport per session (sessionIdGenerator randomUUID, SSE replies, no event store) kept in a
// map by session id, POST/GET/DELETE on /mcp; tools add(a,b) and echo(text). `app.listen(PORT)` without a host, as
// in the README: Node listens on :: with IPV6_V6ONLY off, so both families connect.
//   node ts_server.mjs PORT
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const port = Number(process.argv[2]);
const transports = {};

function newServer() {
  const server = new McpServer({ name: 'ipv6-ts-server', version: '1.0.0' });
  server.tool('add', 'Add two integers.', { a: z.number().int(), b: z.number().int() }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
  server.tool('echo', 'Echo the text back.', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server;
}

const app = createMcpExpressApp();
app.post('/mcp', async (req, res) => {
  const sid = req.headers['mcp-session-id'];
  let transport = sid ? transports[sid] : undefined;
  if (!transport && !sid && isInitializeRequest(req.body)) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => { transports[id] = transport; console.error('session', id, 'from', req.socket.remoteAddress); },
    });
    transport.onclose = () => { if (transport.sessionId) delete transports[transport.sessionId]; };
    await newServer().connect(transport);
  } else if (!transport) {
    res.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
    return;
  }
  await transport.handleRequest(req, res, req.body);
});
const other = async (req, res) => {
  const transport = transports[req.headers['mcp-session-id']];
  if (!transport) { res.status(400).send('Invalid or missing session ID'); return; }
  await transport.handleRequest(req, res);
};
app.get('/mcp', other);
app.delete('/mcp', other);
app.listen(port, () => console.error('listening on', port));
