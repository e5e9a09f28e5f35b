// The tools of the proxies group's TS SDK backend: a copy of compress/tools.mjs plus wait(seconds) (a long tool call
// that sends nothing until its result). TS SDK 1.x McpServer, zod 3 shapes: add(a,b), echo(text),
// report(rows) (a plain-text table of `rows` lines, about 55 bytes each: a result of a few KB, so compression
// middleware has something to compress) and slow_count(n) (n x notifications/progress 0.1 s apart, related to the
// request, when it carries a progressToken).
import { z } from 'zod';

const text = (t) => ({ content: [{ type: 'text', text: String(t) }] });

export function reportText(rows) {
    const lines = [];
    for (let i = 1; i <= rows; i++) {
        lines.push(`row ${String(i).padStart(3, '0')} | status ok | latency ${(i * 7) % 97} ms | region eu-west`);
    }
    return lines.join('\n');
}

export function registerTools(server) {
    server.registerTool('add', { description: 'a + b', inputSchema: { a: z.number(), b: z.number() } },
        async ({ a, b }) => text(a + b));
    server.registerTool('echo', { description: 'echo text', inputSchema: { text: z.string() } },
        async ({ text: t }) => text(t));
    server.registerTool('report', { description: 'a plain-text status table of `rows` lines', inputSchema: { rows: z.number() } },
        async ({ rows }) => text(reportText(rows)));
    server.registerTool('slow_count', { description: 'count with progress', inputSchema: { n: z.number() } },
        async ({ n }, extra) => {
            const token = extra._meta?.progressToken;
            for (let i = 1; i <= n; i++) {
                if (token !== undefined) {
                    await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n, message: `step ${i}` } });
                }
                await new Promise((r) => setTimeout(r, 100));
            }
            return text(`counted ${n}`);
        });
    server.registerTool('wait', { description: 'wait `seconds`, then answer (no progress)', inputSchema: { seconds: z.number() } },
        async ({ seconds }) => {
            await new Promise((r) => setTimeout(r, seconds * 1000));
            return text(`waited ${seconds} s`);
        });
    return server;
}
