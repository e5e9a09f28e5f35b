// The tools of the proxies group's TS SDK backend: the compress group's (../ts_common.mjs: add(a,b), echo(text),
// report(rows), slow_count(n)) plus wait(seconds) (a long tool call that sends nothing until its result). TS SDK 1.x
// McpServer, zod 3 shapes from this folder's zod.
import { z } from 'zod';
import { registerTools as register, text } from '../ts_common.mjs';

export function registerTools(server) {
    register(server, z);
    server.registerTool('wait', { description: 'wait `seconds`, then answer (no progress)', inputSchema: { seconds: z.number() } },
        async ({ seconds }) => {
            await new Promise((r) => setTimeout(r, seconds * 1000));
            return text(`waited ${seconds} s`);
        });
    return server;
}
