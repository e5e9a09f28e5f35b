// @rekog/mcp-nest 2.0.5 server of the jsservers3 group: the README's Quick Start (an @McpController with @Tool
// methods, McpStrategy with `new StreamableHttpTransport(OPTIONS)`, NestFactory on @nestjs/platform-express,
// connectMicroservice + startAllMicroservices before listen), written in plain JavaScript: the decorators the README
// writes with `@` are applied by hand (Tool(...)(proto, key, descriptor), Payload()/Ctx() as parameter decorators,
// McpController()(class)), which is what TypeScript's emitted code does. Tools: add(a,b), echo(text),
// slow_count(n) (n x ctx.reportProgress, 0.1 s apart). 127.0.0.1 only, HTTP/1.1, endpoint /mcp (the default).
//   node nest-server.mjs PORT [--stateful]
// Without --stateful: `new StreamableHttpTransport()`, the library's default (stateless, JSON replies, both eras
// on one endpoint: "dual"). With --stateful: `{ statefulMode: true }`, the option its docs name for sessions
// (Mcp-Session-Id, SSE replies, GET/DELETE).
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Module } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import nest from '@rekog/mcp-nest';
import { z } from 'zod';

const { McpController, Tool, McpStrategy, StreamableHttpTransport } = nest;
const port = Number(process.argv[2] ?? 19410);
const stateful = process.argv.includes('--stateful');
const text = (t) => ({ content: [{ type: 'text', text: String(t) }] });

class ToolsController {
    async add({ a, b }) { return text(a + b); }
    async echo({ text: t }) { return text(t); }
    async slowCount({ n }, ctx) {
        for (let i = 1; i <= n; i++) {
            await ctx.reportProgress({ progress: i, total: n, message: `step ${i}` });
            await new Promise((r) => setTimeout(r, 100));
        }
        return text(`counted ${n}`);
    }
}
const tool = (key, options) => {
    const proto = ToolsController.prototype;
    Tool(options)(proto, key, Object.getOwnPropertyDescriptor(proto, key));
    Payload()(proto, key, 0);
    Ctx()(proto, key, 1);
};
tool('add', { name: 'add', description: 'a + b', parameters: z.object({ a: z.number(), b: z.number() }) });
tool('echo', { name: 'echo', description: 'echo text', parameters: z.object({ text: z.string() }) });
tool('slowCount', { name: 'slow_count', description: 'count with progress', parameters: z.object({ n: z.number() }) });
McpController()(ToolsController);

const mcp = new McpStrategy({
    name: 'jsservers3-nest-server',
    version: '1.0.0',
    transports: [new StreamableHttpTransport(stateful ? { statefulMode: true } : undefined)],
});
class AppModule {}
Module({ controllers: [ToolsController] })(AppModule);

const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
mcp.setHttpAdapter(app.getHttpAdapter());
app.connectMicroservice({ strategy: mcp });
await app.startAllMicroservices();
await app.listen(port, '127.0.0.1');
console.error(`mcp-nest on 127.0.0.1:${port}/mcp (${stateful ? 'stateful' : 'default: stateless'})`);
