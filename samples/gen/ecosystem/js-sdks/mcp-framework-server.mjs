// mcp-framework server (MCPServer with tools added by addTool), for the js-sdks captures.
// Tools: add(a,b), echo(text), slow_count(n) (n x notifications/progress 0.1 s apart via reportProgress when the
// request has a progressToken).
//   node mcp-framework-server.mjs PORT http-stream   # HTTP Stream transport, endpoint /mcp, defaults
//   node mcp-framework-server.mjs PORT http-stream batch   # the same with responseMode "batch" (JSON replies)
//   node mcp-framework-server.mjs PORT sse           # SSE transport (GET /sse + POST /messages)
import { MCPServer, MCPTool } from 'mcp-framework';
import { z } from 'zod';

const port = Number(process.argv[2] ?? 18730);
const type = process.argv[3] ?? 'http-stream';
const responseMode = process.argv[4];   // undefined: mcp-framework's default ("stream" in 0.2.22; its README still says "batch")
const text = (t) => ({ content: [{ type: 'text', text: String(t) }] });

class AddTool extends MCPTool {
    name = 'add';
    description = 'a + b';
    schema = z.object({ a: z.number().describe('first'), b: z.number().describe('second') });
    async execute({ a, b }) { return String(a + b); }
}
class EchoTool extends MCPTool {
    name = 'echo';
    description = 'echo text';
    schema = z.object({ text: z.string().describe('text to echo') });
    async execute({ text: t }) { return t; }
}
class SlowCountTool extends MCPTool {
    name = 'slow_count';
    description = 'count with progress';
    schema = z.object({ n: z.number().describe('how many steps') });
    async execute({ n }) {
        for (let i = 1; i <= n; i++) {
            await this.reportProgress(i, n, `step ${i}`);
            await new Promise((r) => setTimeout(r, 100));
        }
        return `counted ${n}`;
    }
}

const server = new MCPServer({
    name: 'js-sdks-mcp-framework-server', version: '1.0.0',
    basePath: new URL('.', import.meta.url).pathname + 'run/mcp-framework-empty',
    transport: { type, options: { port, host: '127.0.0.1', ...(responseMode ? { responseMode } : {}) } },
});
server.addTool(AddTool);
server.addTool(EchoTool);
server.addTool(SlowCountTool);
await server.start();
console.error(`mcp-framework server (${type}) on 127.0.0.1:${port}`);
