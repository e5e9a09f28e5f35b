// What the oldsdks group's TS SDK servers and clients share, whatever SDK version runs them. Imports no npm package
// (Node resolves bare specifiers from the importing file's folder: ts110/ and ts132/ each have their own pinned
// node_modules), so the per-version files pass in the SDK classes. Tools and session routing: ../ts_common.mjs.
import { registerTools, routeSessions } from '../ts_common.mjs';

// serve(sdk, port, name): express on 127.0.0.1:PORT, POST/GET/DELETE /mcp, a StreamableHTTPServerTransport per
// session (stateful, randomUUID ids, no event store, SSE replies: the SDK's defaults), an McpServer NAME with the
// shared tools (add, echo, report, slow_count).
export function serve({ express, McpServer, StreamableHTTPServerTransport, isInitializeRequest, z }, port, name) {
    const app = express();
    app.use(express.json());
    routeSessions(app, {
        StreamableHTTPServerTransport, isInitializeRequest,
        newServer: () => registerTools(new McpServer({ name, version: '1.0.0' }), z),
    });
    app.listen(port, '127.0.0.1');
}

const T0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - T0) / 1000).toFixed(3)}]`, ...a);

// runClient(sdk, url, name): the stock client: connect (initialize + the standalone GET the transport opens),
// tools/list, add(1,2), echo("hello"), slow_count(3) with onprogress (a progressToken), add(40,2), 0.1 s apart,
// terminateSession (DELETE), close. 30 s guard, 15 s per request.
export async function runClient({ Client, StreamableHTTPClientTransport }, url, name) {
    const guard = setTimeout(() => { log('guard: 30 s'); process.exit(3); }, 30000);
    const client = new Client({ name, version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    log('negotiated', client.getServerVersion?.(), transport.protocolVersion ?? '(transport keeps no version)');
    const tools = await client.listTools();
    log('tools', tools.tools.map((t) => t.name));
    const calls = [['add', { a: 1, b: 2 }], ['echo', { text: 'hello' }], ['slow_count', { n: 3 }], ['add', { a: 40, b: 2 }]];
    for (const [tool, args] of calls) {
        const opts = { timeout: 15000 };
        if (tool === 'slow_count') opts.onprogress = (p) => log('progress', JSON.stringify(p));
        const r = await client.callTool({ name: tool, arguments: args }, undefined, opts);
        log(tool, JSON.stringify(args), '->', r.content.map((c) => c.text));
        await new Promise((res) => setTimeout(res, 100));
    }
    await transport.terminateSession();
    await client.close();
    clearTimeout(guard);
}
