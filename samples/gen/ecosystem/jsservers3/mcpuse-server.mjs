// mcp-use 2.5.2 server of the jsservers3 group: the README's/`MCPServer` doc example (`new MCPServer({ name, version })`,
// `server.tool({ name, description, inputSchema: z.object(...) }, cb)`, `await server.listen(PORT)`), every option at
// its default: basePath /mcp, host 127.0.0.1, `legacy: "stateless"` (2025-era requests answered by a fresh instance
// over a session-less transport, GET/DELETE 405; 2026-07-28 requests served statelessly on the same endpoint).
// Tools: add(a,b), echo(text), slow_count(n) (n x ctx.reportProgress, 0.1 s apart). Telemetry off by the package's
// own switch (MCP_USE_ANONYMIZED_TELEMETRY=false, set by the capture script).
//   node mcpuse-server.mjs PORT
import { MCPServer } from 'mcp-use';
import { z } from 'zod';

const port = Number(process.argv[2] ?? 19414);
const text = (t) => ({ content: [{ type: 'text', text: String(t) }] });
const server = new MCPServer({ name: 'jsservers3-mcp-use-server', version: '1.0.0' });
server.tool({ name: 'add', description: 'a + b', inputSchema: z.object({ a: z.number(), b: z.number() }) },
    async ({ a, b }) => text(a + b));
server.tool({ name: 'echo', description: 'echo text', inputSchema: z.object({ text: z.string() }) },
    async ({ text: t }) => text(t));
server.tool({ name: 'slow_count', description: 'count with progress', inputSchema: z.object({ n: z.number() }) },
    async ({ n }, ctx) => {
        for (let i = 1; i <= n; i++) {
            await ctx.reportProgress(i, n, `step ${i}`);
            await new Promise((r) => setTimeout(r, 100));
        }
        return text(`counted ${n}`);
    });
const { url } = await server.listen(port, { host: '127.0.0.1' });
console.error(`mcp-use server on ${url}`);
