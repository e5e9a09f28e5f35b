// Effect 4's MCP client: effect 4.1.5 `effect/ai` McpClient.layerHttp (its own Streamable HTTP client code, no MCP
// SDK) over Effect's FetchHttpClient (Node's global fetch). One bounded session: connect (initialize, or server/discover
// for 2026-07-28), tools/list, add(1,2), HOLD seconds idle (default 0), echo("hello"), slow_count(3), add(40,2), then
// the layer's scope closes (DELETE for a 2025-11-25 session the server did not expire). Failed calls are logged and
// the run goes on. Each call times out after 20 s (the client's timeout option), the whole run after 40 + HOLD s.
//   node client.mjs URL PROTOCOL [HOLD_S]      PROTOCOL: 2025-11-25 (McpProtocol.v2025_11_25) or 2026-07-28
import { NodeRuntime } from '@effect/platform-node';
import { Effect, Layer } from 'effect';
import { McpClient, McpProtocol } from 'effect/ai';
import { FetchHttpClient } from 'effect/http';

const [url = 'http://127.0.0.1:19640/mcp', version = '2025-11-25', holdArg = '0'] = process.argv.slice(2);
const hold = Number(holdArg);
const protocol = version === '2026-07-28' ? McpProtocol.v2026_07_28 : McpProtocol.v2025_11_25;
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, (40 + hold) * 1000);
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);

const program = Effect.gen(function* () {
    const client = yield* McpClient.McpClient;
    log('negotiated', client.protocolVersion, 'server', JSON.stringify(client.serverInfo));
    const tools = yield* client.listTools({ timeout: '20 seconds' });
    log('tools', tools.map((t) => t.name));
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const [name, args] of [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['slow_count', { n: 3 }], ['add', { a: 40, b: 2 }]]) {
        if (hold > 0 && name === 'echo') { log(`holding ${hold} s`); yield* Effect.sleep(`${hold} seconds`); }
        const r = yield* client.callTool({ tool: byName[name], arguments: args }, { timeout: '20 seconds' }).pipe(
            Effect.catch((e) => Effect.succeed({ content: [{ text: `failed: ${e?.reason?._tag ?? ''} ${e?.message ?? e}` }] })));
        log(name, JSON.stringify(args), '->', r.content.map((c) => c.text));
        yield* Effect.sleep('100 millis');
    }
});

const ClientLayer = McpClient.layerHttp({
    name: 'mcptap-jsservers5-effect4-client',
    version: '1.0.0',
    protocol,
    url,
    timeout: '20 seconds',
}).pipe(Layer.provide(FetchHttpClient.layer));

program.pipe(
    Effect.provide(ClientLayer),
    Effect.tapCause((c) => Effect.sync(() => log('failed:', String(c)))),
    Effect.ensuring(Effect.sync(() => { clearTimeout(guard); log('done'); })),
    NodeRuntime.runMain,
);
