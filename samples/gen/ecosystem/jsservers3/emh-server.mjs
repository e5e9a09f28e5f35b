// express-mcp-handler 0.3.0 server of the jsservers3 group, on express 5.3.0 with express.json(), the official TS SDK
// 1.32.2 McpServer behind it, 127.0.0.1 only, HTTP/1.1. Tools: add(a,b), echo(text), slow_count(n) (n
// notifications/progress 0.1 s apart when the request carries a progressToken), as in ../ts_common.mjs.
//   node emh-server.mjs PORT stateless|stateful|sse
// stateless: the README's Quick Start, `app.post('/mcp', statelessHandler(serverFactory))` and nothing else (a
//            fresh McpServer and transport per POST; no route for GET or DELETE /mcp: express answers those itself)
// stateful:  the package's stateful handlers as version 0.3.0 exports them, `statefulHandlers(serverFactory,
//            { sessionIdGenerator: randomUUID })` ({ postHandler, getHandler, deleteHandler }) mounted on POST, GET
//            and DELETE /mcp (the README still shows an older `statefulHandler(server, options)`, which 0.3.0 no
//            longer exports)
// sse:       the README's SSE mode, `sseHandlers(serverFactory, {})` on GET /sse and POST /messages
import { randomUUID } from 'node:crypto';
import express from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { statefulHandlers, statelessHandler, sseHandlers } from 'express-mcp-handler';
import { registerTools } from '../ts_common.mjs';

const port = Number(process.argv[2] ?? 19412);
const mode = process.argv[3] ?? 'stateless';
const serverFactory = () => registerTools(new McpServer({ name: 'jsservers3-emh-server', version: '1.0.0' }), z);
const onError = (e, sid) => console.error('handler error', sid ?? '', e?.message ?? e);

const app = express();
app.use(express.json());
if (mode === 'stateless') {
    app.post('/mcp', statelessHandler(serverFactory, { onError }));
} else if (mode === 'stateful') {
    const h = statefulHandlers(serverFactory, { sessionIdGenerator: randomUUID, onError });
    app.post('/mcp', h.postHandler);
    app.get('/mcp', h.getHandler);
    app.delete('/mcp', h.deleteHandler);
} else {
    const h = sseHandlers(serverFactory, { onError });
    app.get('/sse', h.getHandler);
    app.post('/messages', h.postHandler);
}
app.listen(port, '127.0.0.1', () => console.error(`express-mcp-handler (${mode}) on 127.0.0.1:${port}`));
