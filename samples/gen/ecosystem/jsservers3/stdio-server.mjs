// The stdio MCP server the jsservers3 group's mcp-proxy bridge spawns: the official TS SDK 1.32.2 McpServer over
// StdioServerTransport (newline-delimited JSON-RPC on stdin/stdout, never on the wire), with the tools of
// ../ts_common.mjs: add(a,b), echo(text), report(rows), slow_count(n) (n notifications/progress 0.1 s apart when the
// request carries a progressToken).
//   node stdio-server.mjs
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { registerTools } from '../ts_common.mjs';

const server = registerTools(new McpServer({ name: 'jsservers3-stdio-server', version: '1.0.0' }), z);
await server.connect(new StdioServerTransport());
