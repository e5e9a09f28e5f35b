// One bounded MCP client session of a third-party JS/TS MCP client (or the official TS SDK client) across a server
// restart, driven the way an application drives it, without an LLM: connect (initialize), tools/list, add(1,2),
// echo("hello"); then it writes READY and waits for GO (at most 20 s) while restartjs.sh kills the server (SIGKILL)
// and starts a new process on the same port (sessions are in the old process's memory: the session id the client
// holds is dead); then add(40,2), echo("again"), close, 0.7 s between steps. Each call is awaited on its own: when
// one throws (or the framework returns an error result), the error is logged and the run goes on with the same
// client object (an agent hands a tool error to its model and calls the next tool through the same client); nothing
// here retries, reconnects or re-initializes: whatever the wire shows after the 404 is the client's own doing.
// With --cut, after echo the client writes READY and calls slow_count(30) with a progress token (30 progress
// notifications 0.1 s apart, about 3 s) and the script kills the server about 1 s into that call; the client waits
// for GO after the call has returned or thrown, then add, echo, close as above. Neither client retries a POST whose SSE
// reply was cut without an event id, so with --cut the application sets the client's own request timeout to 8 s
// (ts-sdk: RequestOptions.timeout on each call; mastra: MCPClient `timeout`), instead of the default 60 s, to keep the
// capture short and show what the client does after that timeout.
// A 40 s guard ends the process; request timeouts are the clients' own defaults unless said below.
//   node client.mjs KIND URL READY GO [--cut]
//   KIND: ts-sdk (@modelcontextprotocol/sdk 1.32.2 Client + StreamableHTTPClientTransport, onprogress on slow_count;
//           close: transport.terminateSession(), client.close())
//         mastra (@mastra/mcp 2.0.0 MCPClient, server `restartjs`; enableProgressTracking with --cut; tool.execute();
//           close: disconnect())
//         openai-agents (@openai/agents-core 0.20.0 MCPServerStreamableHttp: connect(), listTools(), callTool(),
//           close())
//         genkit (@genkit-ai/mcp 1.42.0 createMcpClient, ready(), getActiveTools(genkit({})), tool actions called;
//           close: disable())
//         langchain (@langchain/mcp-adapters 1.1.4 MultiServerMCPClient, transport 'http', getTools(), tool.invoke();
//           close())
//         ai-sdk (@ai-sdk/mcp 2.0.99 createMCPClient, transport { type: 'http' }, listTools(), callTool(); close())
import { existsSync, writeFileSync } from 'node:fs';
import { need } from './load.mjs';

const [kind, url, ready, go] = process.argv.slice(2);
const cut = process.argv.includes('--cut');
const CUT_TIMEOUT = 8000;   // --cut: the request timeout the application sets (the clients' default is 60 s)
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const short = (x) => { try { return JSON.stringify(x).slice(0, 240); } catch { return String(x).slice(0, 240); } };
setTimeout(() => { log('guard: 40 s, exit'); process.exit(3); }, 40000).unref();
process.on('unhandledRejection', (e) => log('unhandled rejection:', e?.constructor?.name, String(e?.message ?? e).slice(0, 200)));

// Each adapter: open() (connect + tools/list, returns tool names), call(name, args, progress), close().
const adapters = {
    'ts-sdk': () => {
        const { Client } = need('agentsjs', '@modelcontextprotocol/sdk/client/index.js');
        const { StreamableHTTPClientTransport } = need('agentsjs', '@modelcontextprotocol/sdk/client/streamableHttp.js');
        const client = new Client({ name: 'mcptap-restartjs-ts-sdk', version: '1.0.0' });
        client.onerror = (e) => log('client.onerror:', String(e?.message ?? e).slice(0, 200));
        const transport = new StreamableHTTPClientTransport(new URL(url));
        return {
            open: async () => {
                await client.connect(transport);
                log('session', transport.sessionId, 'server', short(client.getServerVersion()));
                return (await client.listTools()).tools.map((t) => t.name);
            },
            call: (name, args, progress) => client.callTool({ name, arguments: args }, undefined, {
                ...(cut ? { timeout: CUT_TIMEOUT } : {}),
                ...(progress ? { onprogress: (p) => log('progress', p.progress, p.total) } : {}),
            }),
            close: async () => {
                try { await transport.terminateSession(); } catch (e) { log('terminateSession threw:', e?.message); }
                await client.close();
            },
        };
    },
    mastra: () => {
        const { MCPClient } = need('agentsjs', '@mastra/mcp');
        const mcp = new MCPClient({
            id: 'restartjs-mastra',
            ...(cut ? { timeout: CUT_TIMEOUT } : {}),
            servers: { restartjs: { url: new URL(url), ...(cut ? { enableProgressTracking: true } : {}) } },
        });
        let tools;
        return {
            open: async () => { tools = await mcp.listTools(); return Object.keys(tools); },
            call: (name, args) => tools[`restartjs_${name}`].execute(args, {}),
            close: () => mcp.disconnect(),
        };
    },
    'openai-agents': () => {
        const { MCPServerStreamableHttp } = need('agentsjs', '@openai/agents-core');
        const server = new MCPServerStreamableHttp({ url, name: 'restartjs' });
        return {
            open: async () => { await server.connect(); return (await server.listTools()).map((t) => t.name); },
            call: (name, args) => server.callTool(name, args),
            close: () => server.close(),
        };
    },
    genkit: () => {
        const { genkit } = need('agentsjs', 'genkit');
        const { createMcpClient } = need('agentsjs', '@genkit-ai/mcp');
        const ai = genkit({});
        const client = createMcpClient({ name: 'restartjs', mcpServer: { url } });
        let tools;
        return {
            open: async () => {
                await client.ready();
                tools = Object.fromEntries((await client.getActiveTools(ai)).map((t) => [t.__action.name, t]));
                return Object.keys(tools);
            },
            call: (name, args) => tools[Object.keys(tools).find((k) => k.endsWith(`/${name}`))](args),
            close: () => client.disable(),
        };
    },
    langchain: () => {
        const { MultiServerMCPClient } = need('agents', '@langchain/mcp-adapters');
        const client = new MultiServerMCPClient({ mcpServers: { restartjs: { transport: 'http', url } } });
        let tools;
        return {
            open: async () => { tools = Object.fromEntries((await client.getTools()).map((t) => [t.name, t])); return Object.keys(tools); },
            call: (name, args) => tools[name].invoke(args),
            close: () => client.close(),
        };
    },
    'ai-sdk': () => {
        const { createMCPClient } = need('indie', '@ai-sdk/mcp');
        let client;
        return {
            open: async () => {
                client = await createMCPClient({
                    transport: { type: 'http', url },
                    clientName: 'mcptap-restartjs-ai-sdk',
                    onUncaughtError: (e) => log('onUncaughtError:', String(e?.message ?? e).slice(0, 200)),
                });
                return (await client.listTools()).tools.map((t) => t.name);
            },
            call: (name, args) => client.callTool({ name, arguments: args }),
            close: () => client.close(),
        };
    },
};

const step = async (label, fn) => {
    try {
        const r = await fn();
        log(label, '->', short(r));
    } catch (e) {
        log(label, 'threw', e?.constructor?.name, e?.code ?? '', String(e?.message ?? e).slice(0, 300).replace(/\s+/g, ' '));
    }
};
const waitGo = async () => {
    for (let n = 0; n < 200 && !existsSync(go); n++) await sleep(100);
    log(existsSync(go) ? 'GO' : 'no GO in 20 s');
};

const c = adapters[kind]();
let opened = false;
try {
    log('tools', await c.open());
    opened = true;
} catch (e) {
    log('open threw', e?.constructor?.name, String(e?.message ?? e).slice(0, 300));
}
if (opened) {
    await sleep(700);
    await step('add {"a":1,"b":2}', () => c.call('add', { a: 1, b: 2 }));
    await sleep(700);
    await step('echo {"text":"hello"}', () => c.call('echo', { text: 'hello' }));
    await sleep(700);
    writeFileSync(ready, kind);
    log('wrote READY');
    if (cut) await step('slow_count {"n":30}', () => c.call('slow_count', { n: 30 }, true));
    await waitGo();
    await sleep(700);
    await step('add {"a":40,"b":2}', () => c.call('add', { a: 40, b: 2 }));
    await sleep(700);
    await step('echo {"text":"again"}', () => c.call('echo', { text: 'again' }));
    await sleep(700);
}
await step('close', () => c.close());
log('end');
process.exit(0);
