// What the compress and proxies groups' TS SDK 1.x servers share: their tool set and the SDK README's stateful
// session routing on express. This file imports no npm package: Node resolves a bare specifier from the importing
// file's folder, and only the groups' folders have node_modules (each with its own pins), so the group files pass in
// their zod and SDK classes.
import { randomUUID } from 'node:crypto';

export const text = (t) => ({ content: [{ type: 'text', text: String(t) }] });

export function reportText(rows) {
    const lines = [];
    for (let i = 1; i <= rows; i++) {
        lines.push(`row ${String(i).padStart(3, '0')} | status ok | latency ${(i * 7) % 97} ms | region eu-west`);
    }
    return lines.join('\n');
}

// registerTools(server, z): add(a,b), echo(text), report(rows) (a plain-text table of `rows` lines, about 55 bytes
// each: a result of a few KB, so compression middleware has something to compress) and slow_count(n) (n x
// notifications/progress 0.1 s apart, related to the request, when it carries a progressToken), on an McpServer,
// zod 3 shapes. Names, descriptions, shapes and order are what tools/list puts on the wire of committed captures.
export function registerTools(server, z) {
    server.registerTool('add', { description: 'a + b', inputSchema: { a: z.number(), b: z.number() } },
        async ({ a, b }) => text(a + b));
    server.registerTool('echo', { description: 'echo text', inputSchema: { text: z.string() } },
        async ({ text: t }) => text(t));
    server.registerTool('report', { description: 'a plain-text status table of `rows` lines', inputSchema: { rows: z.number() } },
        async ({ rows }) => text(reportText(rows)));
    server.registerTool('slow_count', { description: 'count with progress', inputSchema: { n: z.number() } },
        async ({ n }, extra) => {
            const token = extra._meta?.progressToken;
            for (let i = 1; i <= n; i++) {
                if (token !== undefined) {
                    await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n, message: `step ${i}` } });
                }
                await new Promise((r) => setTimeout(r, 100));
            }
            return text(`counted ${n}`);
        });
    return server;
}

// routeSessions(app, { StreamableHTTPServerTransport, isInitializeRequest, newServer, transportOptions }): POST, GET
// and DELETE /mcp on an express app (express.json() already in use), a transport per session (sessionIdGenerator
// randomUUID, no event store) made by an initialize request without a session id, connected to newServer().
export function routeSessions(app, {
    StreamableHTTPServerTransport, isInitializeRequest, newServer, transportOptions = {},
}) {
    const transports = {};
    app.post('/mcp', async (req, res) => {
        const sid = req.headers['mcp-session-id'];
        let transport = sid ? transports[sid] : undefined;
        if (!transport) {
            if (sid || !isInitializeRequest(req.body)) {
                res.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
                return;
            }
            transport = new StreamableHTTPServerTransport({
                sessionIdGenerator: () => randomUUID(),
                ...transportOptions,
                onsessioninitialized: (id) => { transports[id] = transport; },
            });
            transport.onclose = () => { if (transport.sessionId) delete transports[transport.sessionId]; };
            await newServer().connect(transport);
        }
        await transport.handleRequest(req, res, req.body);
    });

    const sessionRequest = async (req, res) => {
        const sid = req.headers['mcp-session-id'];
        const transport = sid ? transports[sid] : undefined;
        if (!transport) { res.status(400).send('Invalid or missing session ID'); return; }
        await transport.handleRequest(req, res);
    };
    app.get('/mcp', sessionRequest);
    app.delete('/mcp', sessionRequest);
    return app;
}

// routeLegacy(app, { SSEServerTransport, json, newServer }): the SDK README's HTTP+SSE pattern (2024-11-05) on an
// express app: GET /sse opens an SSEServerTransport whose endpoint event names /messages?sessionId=..., connected
// to newServer(); POST /messages (parsed by `json`, express.json()) goes to that session's transport, 400 without.
export function routeLegacy(app, { SSEServerTransport, json, newServer }) {
    const transports = {};
    app.get('/sse', async (req, res) => {
        const transport = new SSEServerTransport('/messages', res);
        transports[transport.sessionId] = transport;
        res.on('close', () => { delete transports[transport.sessionId]; });
        await newServer().connect(transport);
    });
    app.post('/messages', json, async (req, res) => {
        const transport = transports[req.query.sessionId];
        if (!transport) { res.status(400).send('No transport found for sessionId'); return; }
        await transport.handlePostMessage(req, res, req.body);
    });
    return app;
}
