// Vercel AI SDK MCP client (@ai-sdk/mcp 2.0.99, its own HttpMCPTransport, not the MCP SDK's) driven directly, no
// model: createMCPClient({transport: {type: 'http', url}}), tools(), then one call, then add(40,2) through the tool
// wrappers' execute(), close (DELETE). No retry of ours.
//   node aisdk_client.mjs URL slow|ticker N [legacy]
//     legacy    protocolVersionDiscovery: false and transport.initialProtocolVersion '2025-11-25' (the client's own
//               options): a classic initialize and a stateful session with its standalone GET stream. Without it
//               the client first tries 2026-07-28 (server/discover) and stays stateless where the server answers.
//     slow N    slow_count(N) (the AI SDK sends no progressToken, so the server streams no progress)
//     ticker N  ticker(N), then 5 s idle while the ticks come on the standalone GET stream
import { createMCPClient } from '@ai-sdk/mcp';

const [url, what, nArg, mode] = process.argv.slice(2);
const legacy = mode === 'legacy';
const n = Number(nArg);
const t0 = Date.now();
const log = (...a) => console.log(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);

const client = await createMCPClient({
    transport: legacy ? { type: 'http', url, initialProtocolVersion: '2025-11-25' } : { type: 'http', url },
    ...(legacy ? { protocolVersionDiscovery: false } : {}),
    onUncaughtError: (e) => log('uncaught error:', e?.message ?? e),
});
try {
    const tools = await client.tools();
    log('tools', Object.keys(tools));
    const step = async (label, name, args) => {
        try {
            const r = await tools[name].execute(args, { toolCallId: name, messages: [], abortSignal: AbortSignal.timeout(10000) });
            log(label, '->', JSON.stringify(r.content ?? r).slice(0, 200));
        } catch (e) { log(label, 'raised:', e?.name, String(e?.message ?? e).slice(0, 200)); }
    };
    if (what === 'slow') {
        await step(`slow_count(${n})`, 'slow_count', { n });
    } else {
        await step(`ticker(${n})`, 'ticker', { n });
        await new Promise((r) => setTimeout(r, 5000));
    }
    await step('add(40,2)', 'add', { a: 40, b: 2 });
} finally {
    await client.close();
    log('closed');
}
