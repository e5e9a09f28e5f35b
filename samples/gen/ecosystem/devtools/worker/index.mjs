// Cloudflare Agents SDK (npm agents) McpAgent, as the agents docs show it: an McpAgent subclass (a Durable Object,
// one per MCP session) with an McpServer (@modelcontextprotocol/sdk 1.32.2) holding the ecosystem tool set (add, echo,
// report, slow_count with notifications/progress 0.1 s apart, ../../ts_common.mjs), served on /mcp (Streamable
// HTTP, McpAgent.serve) and /sse (legacy HTTP+SSE, McpAgent.serveSSE; POSTs go to /sse/message) by the Worker.
import { McpAgent } from 'agents/mcp';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { registerTools } from '../../ts_common.mjs';

export class DevtoolsMCP extends McpAgent {
    server = new McpServer({ name: 'devtools-cf-agent', version: '1.0.0' });
    async init() { registerTools(this.server, z); }
}

export default {
    fetch(request, env, ctx) {
        const { pathname } = new URL(request.url);
        if (pathname === '/sse' || pathname === '/sse/message') return DevtoolsMCP.serveSSE('/sse').fetch(request, env, ctx);
        if (pathname === '/mcp') return DevtoolsMCP.serve('/mcp').fetch(request, env, ctx);
        return new Response('Not found', { status: 404 });
    },
};
