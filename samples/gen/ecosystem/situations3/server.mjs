// An MCP server the way a user of @karashiiro/mcp 0.7.0 writes one to keep sessions across restarts and replicas:
// `serveHttp(factory, { sessions: { eventStoreFactory } })` (its README: "provide a custom event store factory for
// persistent storage") on the official TS SDK 1.32.2 McpServer. serveHttp restores a session it does not hold in
// memory from the store (`hasSession` + `getInitializeRequest`: it replays the stored initialize through a new
// transport) and hands the store to the SDK transport, which asks it for event ids and replays after Last-Event-ID.
//
// The store is ours, written as a user would: one JSON file per session in a directory given on the command line
// (shared by every process pointed at it), read and rewritten on every call. Event ids (argument IDS):
//   time     `${streamId}_${Date.now()}_${random}`: the format of the library's own InMemoryEventStore
//   counter  a sequence number per session kept in the store object's memory (1, 2, 3, ...), events in the file
// Tools: add, echo, report, slow_count (../ts_common.mjs) and ticker(n, ms): answers at once, then sends n
// notifications/message `tick i` ms apart with no related request, so on the session's standalone GET stream.
//   node server.mjs PORT STORE-DIR time|counter
import { readFileSync, writeFileSync, renameSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { serveHttp } from '@karashiiro/mcp/http';
import { z } from 'zod';
import { registerTools, text } from '../ts_common.mjs';

const [port, dir, ids] = [Number(process.argv[2]), process.argv[3], process.argv[4] ?? 'time'];
mkdirSync(dir, { recursive: true });
const log = (...a) => console.error(new Date().toISOString(), `[${process.pid}]`, ...a);

class FileEventStore {
    constructor(sessionId) {
        this.sessionId = sessionId;
        this.file = join(dir, `${sessionId}.json`);
        this.seq = 0;
    }
    load() {
        try { return JSON.parse(readFileSync(this.file, 'utf8')); } catch { return { init: null, events: [] }; }
    }
    save(data) {
        writeFileSync(`${this.file}.${process.pid}`, JSON.stringify(data));
        renameSync(`${this.file}.${process.pid}`, this.file);
    }
    async storeEvent(streamId, message) {
        const eventId = ids === 'counter' ? String(++this.seq)
            : `${streamId}_${Date.now()}_${Math.random().toString(36).slice(2)}`;
        const data = this.load();
        data.events.push({ eventId, streamId, message });
        this.save(data);
        return eventId;
    }
    async getStreamIdForEventId(eventId) {
        return this.load().events.find((e) => e.eventId === eventId)?.streamId;
    }
    async replayEventsAfter(lastEventId, { send }) {
        const events = this.load().events;
        const i = events.findIndex((e) => e.eventId === lastEventId);
        if (i < 0) return undefined;
        const streamId = events[i].streamId;
        for (const e of events.slice(i + 1)) {
            if (e.streamId === streamId) await send(e.eventId, e.message);
        }
        return streamId;
    }
    clear() { rmSync(this.file, { force: true }); }
    async hasSession() { return this.load().init !== null; }
    async storeInitializeRequest(sessionId, request) { const d = this.load(); d.init = request; this.save(d); }
    async getInitializeRequest() { return this.load().init ?? undefined; }
}

function newServer(sessionId) {
    log('server for session', sessionId);
    const server = new McpServer({ name: `situations3-${ids}-${port}`, version: '1.0.0' }, { capabilities: { logging: {} } });
    registerTools(server, z);
    server.registerTool('ticker', { description: 'n log notifications on the GET stream, ms apart',
        inputSchema: { n: z.number(), ms: z.number().optional() } },
        async ({ n, ms }) => {
            (async () => {
                for (let i = 1; i <= n; i++) {
                    await new Promise((r) => setTimeout(r, ms ?? 200));
                    log('tick', i, 'session', sessionId);
                    await server.server.sendLoggingMessage({ level: 'info', data: `tick ${i} from ${port}` })
                        .catch((e) => log('tick failed', e?.message ?? e));
                }
            })();
            return text(`ticking ${n}`);
        });
    return server;
}

await serveHttp(newServer, {
    port, host: '127.0.0.1', endpoint: '/mcp',
    sessions: { eventStoreFactory: (sessionId) => new FileEventStore(sessionId) },
});
log(`listening on 127.0.0.1:${port}, store ${dir}, ids ${ids}`);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(0));
