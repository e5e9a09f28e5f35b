// A stdio MCP server on the official TypeScript SDK (1.32.2): tools add(a,b) and echo(text). supergateway runs it
// as its child and serves it over HTTP+SSE.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'ipv6-stdio', version: '1.0.0' });
server.tool('add', 'Add two integers.', { a: z.number().int(), b: z.number().int() }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
server.tool('echo', 'Echo the text back.', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
await server.connect(new StdioServerTransport());
