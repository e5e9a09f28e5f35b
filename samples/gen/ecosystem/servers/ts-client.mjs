// The official TS SDK 1.32.2 client (`Client`, `StreamableHTTPClientTransport` or `SSEClientTransport`, their
// defaults: no capabilities, no options) against a published MCP server, one bounded script per server:
//   everything   tools/list, echo("hello"), get-sum(1,2), trigger-long-running-operation(duration 1, steps 3) with an
//                onprogress callback (so the request carries a progressToken), resources/subscribe to
//                demo://resource/dynamic/text/1, toggle-subscriber-updates and toggle-simulated-logging (the server's
//                5 s timers of notifications/resources/updated and notifications/message for this session), then
//                IDLE seconds (default 12) with nothing sent, then close()
//   playwright   tools/list, browser_navigate(PAGE), browser_snapshot, IDLE seconds (default 4: the server's 3 s ping
//                heartbeat), close()
//   markitdown   tools/list, convert_to_markdown(PAGE) twice (an http://127.0.0.1 page and a file:// URI), close()
//   git          tools/list, git_status(REPO), git_log(REPO, maxCount 1) (REPO passed as PAGE), close()
// close() is the SDK's Client.close(): it ends the transport; it sends no DELETE (that takes terminateSession(),
// which a client must call itself). Bounded: a 40 s timer ends the process.
//   node ts-client.mjs everything|playwright|markitdown|git streamable|sse URL [PAGE|REPO [FILE-URI]] [--idle SECONDS]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
    LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

const argv = process.argv.slice(2);
const idleAt = argv.indexOf('--idle');
const idleArg = idleAt >= 0 ? Number(argv.splice(idleAt, 2)[1]) : undefined;
const [server, kind, url, page, fileUri] = argv;
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (s) => new Promise((r) => setTimeout(r, s * 1000));
setTimeout(() => { log('timeout: 40 s'); process.exit(3); }, 40000).unref();

const short = (r) => JSON.stringify(r.content?.map((c) => (c.type === 'text' ? c.text.slice(0, 80) : c.type)));
const client = new Client({ name: 'mcptap-servers-ts', version: '1.0.0' });
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => log('log', n.params.level, String(n.params.data).slice(0, 60)));
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => log('updated', n.params.uri));
const transport = kind === 'sse' ? new SSEClientTransport(new URL(url)) : new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);
log('connected', client.getServerVersion()?.name, client.getServerVersion()?.version);
const tools = await client.listTools();
log('tools', tools.tools.length);
const call = async (name, args, opts) => log(name, JSON.stringify(args), '->', short(await client.callTool({ name, arguments: args }, undefined, opts)));

if (server === 'everything') {
    await call('echo', { message: 'hello' });
    await call('get-sum', { a: 1, b: 2 });
    await call('trigger-long-running-operation', { duration: 1, steps: 3 },
        { onprogress: (p) => log('progress', p.progress, '/', p.total) });
    log('subscribe', JSON.stringify(await client.subscribeResource({ uri: 'demo://resource/dynamic/text/1' })));
    await call('toggle-subscriber-updates', {});
    await call('toggle-simulated-logging', {});
    await sleep(idleArg ?? 12);
} else if (server === 'playwright') {
    await call('browser_navigate', { url: page });
    await call('browser_snapshot', {});
    await sleep(idleArg ?? 4);
} else if (server === 'markitdown') {
    await call('convert_to_markdown', { uri: page });
    await call('convert_to_markdown', { uri: fileUri });
} else if (server === 'git') {
    await call('git_status', { path: page });
    await call('git_log', { path: page, maxCount: 1 });
}
await client.close();
log('closed');
