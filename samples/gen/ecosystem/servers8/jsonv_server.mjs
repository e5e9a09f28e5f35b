// jsonv-ts 0.10.1's own MCP server (jsonv-ts/mcp: McpServer, Tool and its Hono middleware `mcp`) on Hono 4.13.23 +
// @hono/node-server 2.1.11, README setup with sessionsEnabled: true. Tools: add, echo, slow (2 s). Usage: node jsonv_server.mjs PORT
import { Hono } from "hono";
import { serve } from "@hono/node-server";
import { s } from "jsonv-ts";
import { mcp, Tool } from "jsonv-ts/mcp";

const port = Number(process.argv[2]);
const add = new Tool("add", { description: "Add two numbers", inputSchema: s.object({ a: s.number(), b: s.number() }) },
    ({ a, b }, c) => c.text(String(a + b)));
const echo = new Tool("echo", { description: "Echo text", inputSchema: s.object({ text: s.string() }) },
    ({ text }, c) => c.text(text));
const slow = new Tool("slow", { description: "Wait n seconds", inputSchema: s.object({ n: s.number() }) },
    async ({ n }, c) => { await new Promise((r) => setTimeout(r, n * 1000)); return c.text(`waited ${n} s`); });

const app = new Hono().use(mcp({
    serverInfo: { name: "servers8-jsonv", version: "1.0.0" },
    tools: [add, echo, slow],
    sessionsEnabled: true,
    endpoint: { path: "/mcp" },
}));
serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, () => console.log(`jsonv-ts on ${port}`));
