// Official TypeScript SDK 1.x server (@modelcontextprotocol/sdk 1.32.2) on express, served by node:https (the tls2
// group): the SDK README's stateful pattern routed by ../ts_common.mjs (a StreamableHTTPServerTransport per session,
// sessionIdGenerator randomUUID, no event store, SSE replies), tools add, echo, report, slow_count. The only TLS
// settings are what a user passes to https.createServer: the certificate and key, and optionally a cipher list and
// the protocol range (Node's defaults otherwise: TLS 1.2-1.3, its default cipher list).
//   node ts-https-server.mjs PORT CERT KEY [CIPHERS] [MIN_VERSION] [MAX_VERSION]
import fs from 'node:fs';
import https from 'node:https';
import express from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerTools, routeSessions } from '../ts_common.mjs';

const [portArg, cert, key, ciphers, minVersion, maxVersion] = process.argv.slice(2);
const port = Number(portArg);

const app = express();
app.use(express.json());
routeSessions(app, {
    StreamableHTTPServerTransport, isInitializeRequest,
    newServer: () => registerTools(new McpServer({ name: 'tls2-ts-https-server', version: '1.0.0' }), z),
});

const tls = { cert: fs.readFileSync(cert), key: fs.readFileSync(key) };
if (ciphers) tls.ciphers = ciphers;
if (minVersion) tls.minVersion = minVersion;
if (maxVersion) tls.maxVersion = maxVersion;
https.createServer(tls, app).listen(port, '127.0.0.1', () => console.error(`TS SDK server on https://127.0.0.1:${port}/mcp`));
