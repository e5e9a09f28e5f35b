// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk 1.32.2) on a JavaScript runtime's own HTTP server:
// Bun.serve under Bun, Deno.serve under Deno (the runtime is detected), with the SDK's web-standard transport
// (WebStandardStreamableHTTPServerTransport: Request in, Response out), as the SDK's doc comment shows for such
// runtimes. Stateful: a transport per session (sessionIdGenerator randomUUID) made by an initialize request without a
// session id; POST/GET/DELETE with a known Mcp-Session-Id go to it; anything else 400 JSON-RPC -32000. Tools of
// ../ts_common.mjs: add, echo, report, slow_count (progress notifications 0.1 s apart).
//   bun web-server.mjs PORT [--json] [--events]
//   deno run --allow-net --allow-env --allow-read web-server.mjs PORT [--json] [--events]
// --json: enableJsonResponse (application/json replies, no per-request SSE). --events: the SDK example's
// InMemoryEventStore (ids on every event, a priming event on 2025-11-25 POST streams). Runtime defaults otherwise
// (Bun.serve's idleTimeout is 10 s: not changed).
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { registerTools } from '../ts_common.mjs';

const args = globalThis.Deno ? Deno.args : process.argv.slice(2);
const port = Number(args[0] ?? 19490);
const json = args.includes('--json'), events = args.includes('--events');
const runtime = globalThis.Bun ? `bun ${Bun.version}` : globalThis.Deno ? `deno ${Deno.version.deno}` : 'node';
const transports = {};
const bad = (msg) => new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: msg }, id: null }),
    { status: 400, headers: { 'content-type': 'application/json' } });

async function handle(req) {
    if (new URL(req.url).pathname !== '/mcp') return new Response('not found', { status: 404 });
    const sid = req.headers.get('mcp-session-id');
    let transport = sid ? transports[sid] : undefined;
    if (transport) return transport.handleRequest(req);
    if (req.method !== 'POST' || sid) return bad('Bad Request: No valid session ID provided');
    const body = await req.json();
    if (!isInitializeRequest(body)) return bad('Bad Request: No valid session ID provided');
    transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: json,
        eventStore: events ? new InMemoryEventStore() : undefined,
        onsessioninitialized: (id) => { transports[id] = transport; },
    });
    transport.onclose = () => { if (transport.sessionId) delete transports[transport.sessionId]; };
    await registerTools(new McpServer({ name: 'runtimes-web-server', version: '1.0.0' }), z).connect(transport);
    return transport.handleRequest(req, { parsedBody: body });
}

if (globalThis.Bun) {
    Bun.serve({ port, hostname: '127.0.0.1', fetch: handle });
} else {
    Deno.serve({ port, hostname: '127.0.0.1', onListen: () => {} }, handle);
}
console.error(`${runtime}: TS SDK web-standard server on 127.0.0.1:${port}/mcp json=${json} events=${events}`);
