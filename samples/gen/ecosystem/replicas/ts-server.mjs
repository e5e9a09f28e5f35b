// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk) on express, one replica of the replicas group's TS
// scenarios: the SDK README's stateful pattern (../ts_common.mjs routeSessions: a StreamableHTTPServerTransport per
// session, sessionIdGenerator randomUUID, no event store, the transports kept in an in-memory map of this process;
// an unknown session id is answered as the SDK's example does, POST 400 -32000 "Bad Request: No valid session ID
// provided", GET/DELETE 400 text "Invalid or missing session ID"), the tool set of ../ts_common.mjs, SSE replies by
// default, plain HTTP/1.1 on 127.0.0.1. The server's name carries the port, so the initialize result on the wire
// says which replica minted a session.
//   node ts-server.mjs PORT
import express from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerTools, routeSessions } from '../ts_common.mjs';

const port = Number(process.argv[2]);

const app = express();
app.use(express.json());

routeSessions(app, {
    StreamableHTTPServerTransport, isInitializeRequest,
    newServer: () => registerTools(new McpServer({ name: `replicas-ts-server-${port}`, version: '1.0.0' }), z),
});

app.listen(port, '127.0.0.1', () => console.error(`TS SDK replica on 127.0.0.1:${port}/mcp`));
