// An official TypeScript SDK 1.x client at an older release (sdk110 = 1.10.2, sdk117 = 1.17.5, sdk124 = 1.24.3),
// for the eras2 captures: Client + StreamableHTTPClientTransport with their defaults (classic initialize with the
// release's LATEST_PROTOCOL_VERSION, the standalone GET). connect, tools/list, add(1,2), echo("hello"),
// slow_count(3) with onprogress (a progressToken), add(40,2), terminateSession (DELETE when a session id exists),
// close; 30 s guard.
//   node v1-client.mjs sdk110|sdk117|sdk124 URL
const [pkg = 'sdk110', href = 'http://127.0.0.1:20417/mcp'] = process.argv.slice(2);
const { Client } = await import(`${pkg}/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${pkg}/client/streamableHttp.js`);
import { readFileSync } from 'node:fs';
const { version } = JSON.parse(readFileSync(new URL(`./node_modules/${pkg}/package.json`, import.meta.url)));
const guard = setTimeout(() => { console.error('client timed out'); process.exit(2); }, 30000);
const opts = { timeout: 15000 };
const client = new Client({ name: `eras2-ts-sdk-${version}-client`, version });
client.onerror = (e) => console.error('client error:', e?.message ?? e);
const transport = new StreamableHTTPClientTransport(new URL(href));
try {
    await client.connect(transport, opts);
    console.error('server', JSON.stringify(client.getServerVersion()), 'session', transport.sessionId,
        'protocol', transport.protocolVersion ?? '(transport keeps none)');
    const tools = await client.listTools(undefined, opts);
    console.error('tools', tools.tools.map((t) => t.name));
    const show = (name, args, r) => console.error(name, JSON.stringify(args), '->', r.content.map((c) => c.text));
    const pause = () => new Promise((r) => setTimeout(r, 100));
    for (const [name, args] of [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }]]) {
        show(name, args, await client.callTool({ name, arguments: args }, undefined, opts));
        await pause();
    }
    const progress = [];
    show('slow_count', { n: 3 }, await client.callTool({ name: 'slow_count', arguments: { n: 3 } }, undefined,
        { ...opts, onprogress: (p) => progress.push(p.progress) }));
    console.error('progress seen', JSON.stringify(progress));
    await pause();
    show('add', { a: 40, b: 2 }, await client.callTool({ name: 'add', arguments: { a: 40, b: 2 } }, undefined, opts));
    if (transport.sessionId) {
        try { await transport.terminateSession(); } catch (e) { console.error('terminateSession:', e?.message ?? e); }
    }
} catch (e) {
    console.error('the SDK raised:', e?.message ?? e);
}
await client.close();
clearTimeout(guard);
