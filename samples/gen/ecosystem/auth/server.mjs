// The official TS SDK 1.32.2 (this folder's node_modules) as an OAuth 2.1 authorization server and an MCP resource
// server, on two ports of 127.0.0.1, the way its examples/server/simpleStreamableHttp.js --oauth sets them up:
//   AS  express + mcpAuthRouter (metadata, /register, /authorize, /token, /revoke) over the SDK's demo provider
//       (examples/server/demoInMemoryOAuthProvider.js, DemoInMemoryAuthProvider) plus /introspect as in the demo.
//       The demo provider issues 1-hour tokens and no refresh tokens; the subclass below adds the two things a real
//       deployment sets: the access token lifetime (TTL seconds) and refresh tokens (rotated on use), and RFC 7009
//       revocation. With REVOKE-AFTER > 0 the AS revokes every token it issued (access and refresh) that many
//       seconds after the first one: an operator revoking the grant mid-session.
//   RS  express + mcpAuthMetadataRouter (protected resource metadata for /mcp, scopes_supported mcp:tools) +
//       requireBearerAuth (token verified by introspection at the AS, as the example does) in front of the SDK's
//       stateful StreamableHTTPServerTransport (one per session, randomUUID ids). Tools: add(a, b), and
//       admin_report(), which needs scope mcp:admin: a tools/call of it goes through a second requireBearerAuth
//       with requiredScopes ['mcp:admin'] (the SDK's 403 insufficient_scope answer).
// The verifier throws the SDK's InvalidTokenError for a token the AS does not know (requireBearerAuth answers 401
// invalid_token); with `example` it throws a plain Error as simpleStreamableHttp.js does verbatim (answered 500).
//   node server.mjs AS-PORT RS-PORT TTL REVOKE-AFTER [example]
import { randomUUID } from 'node:crypto';
import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { mcpAuthRouter, mcpAuthMetadataRouter, createOAuthMetadata, getOAuthProtectedResourceMetadataUrl }
    from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { z } from 'zod';

const [asPort, rsPort, ttl, revokeAfter] = process.argv.slice(2, 6).map(Number);
const exampleVerifier = process.argv[6] === 'example';
const t0 = Date.now();
const log = (...a) => console.error(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);

class Provider extends DemoInMemoryAuthProvider {
    constructor() { super(undefined); this.refresh = new Map(); this.revokeTimer = null; }
    issue(clientId, scopes, resource) {
        const token = randomUUID(), refresh = randomUUID();
        this.tokens.set(token, { token, clientId, scopes, expiresAt: Date.now() + ttl * 1000, resource, type: 'access' });
        this.refresh.set(refresh, { clientId, scopes, resource });
        if (revokeAfter > 0 && !this.revokeTimer) {
            this.revokeTimer = setTimeout(() => {
                log(`revoking ${this.tokens.size} access and ${this.refresh.size} refresh tokens`);
                this.tokens.clear(); this.refresh.clear();
            }, revokeAfter * 1000);
        }
        log(`issued ${token} (scopes ${scopes.join(' ')}, ${ttl} s) + refresh ${refresh}`);
        return { access_token: token, token_type: 'bearer', expires_in: ttl, refresh_token: refresh, scope: scopes.join(' ') };
    }
    async exchangeAuthorizationCode(client, code) {
        const data = this.codes.get(code);
        if (!data) throw new InvalidGrantError('Invalid authorization code');
        this.codes.delete(code);
        return this.issue(client.client_id, data.params.scopes || [], data.params.resource);
    }
    async exchangeRefreshToken(client, refreshToken, scopes, resource) {
        const data = this.refresh.get(refreshToken);
        if (!data || data.clientId !== client.client_id) throw new InvalidGrantError('Invalid refresh token');
        this.refresh.delete(refreshToken);
        return this.issue(client.client_id, scopes?.length ? scopes : data.scopes, resource ?? data.resource);
    }
    async revokeToken(client, request) {
        this.tokens.delete(request.token); this.refresh.delete(request.token);
    }
}

// ---- authorization server
const issuerUrl = new URL(`http://127.0.0.1:${asPort}`);
const mcpUrl = new URL(`http://127.0.0.1:${rsPort}/mcp`);
const provider = new Provider();
const authApp = express();
authApp.use(express.json());
authApp.use(express.urlencoded());
authApp.use(mcpAuthRouter({ provider, issuerUrl, scopesSupported: ['mcp:tools', 'mcp:admin'] }));
authApp.post('/introspect', async (req, res) => {
    try {
        const info = await provider.verifyAccessToken(req.body.token);
        res.json({ active: true, client_id: info.clientId, scope: info.scopes.join(' '), exp: info.expiresAt, aud: info.resource });
    } catch (error) {
        res.status(401).json({ active: false, error: 'Unauthorized', error_description: `Invalid token: ${error}` });
    }
});
authApp.listen(asPort, '127.0.0.1', () => log(`AS on ${asPort}`));
const oauthMetadata = createOAuthMetadata({ provider, issuerUrl, scopesSupported: ['mcp:tools', 'mcp:admin'] });
oauthMetadata.introspection_endpoint = new URL('/introspect', issuerUrl).href;

// ---- resource server
const verifier = {
    verifyAccessToken: async (token) => {
        const r = await fetch(oauthMetadata.introspection_endpoint, { method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token }).toString() });
        if (!r.ok) {
            const text = await r.text().catch(() => null);
            // `example`: the example's own line, a plain Error, which requireBearerAuth answers 500
            if (exampleVerifier) throw new Error(`Invalid or expired token: ${text}`);
            throw new InvalidTokenError(`Invalid or expired token: ${text}`);
        }
        const d = await r.json();
        return { token, clientId: d.client_id, scopes: d.scope ? d.scope.split(' ') : [], expiresAt: d.exp,
            resource: d.aud ? new URL(d.aud) : undefined };
    }
};
const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(mcpUrl);
const bearer = requireBearerAuth({ verifier, requiredScopes: [], resourceMetadataUrl });
const adminBearer = requireBearerAuth({ verifier, requiredScopes: ['mcp:admin'], resourceMetadataUrl });
const needsAdmin = (body) => [body].flat().some((m) => m?.method === 'tools/call' && m.params?.name === 'admin_report');

function build() {
    const server = new McpServer({ name: 'auth-ts', version: '1.0.0' });
    server.tool('add', 'Add two integers.', { a: z.number(), b: z.number() },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
    server.tool('admin_report', 'A report for administrators (scope mcp:admin).', {},
        async (_args, extra) => ({ content: [{ type: 'text', text: `report for ${extra.authInfo?.clientId}` }] }));
    return server;
}
const transports = {};
const app = express();
app.use(express.json());
app.use(mcpAuthMetadataRouter({ oauthMetadata, resourceServerUrl: mcpUrl, scopesSupported: ['mcp:tools'], resourceName: 'auth-ts' }));
app.post('/mcp', bearer, (req, res, next) => (needsAdmin(req.body) ? adminBearer(req, res, next) : next()), async (req, res) => {
    const sid = req.headers['mcp-session-id'];
    let transport = sid ? transports[sid] : undefined;
    if (!transport) {
        if (sid || !isInitializeRequest(req.body)) {
            res.status(sid ? 404 : 400).json({ jsonrpc: '2.0', error: { code: -32000, message: sid ? 'Session not found' : 'Bad Request: No valid session ID provided' }, id: null });
            return;
        }
        transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (id) => { transports[id] = transport; log(`session ${id}`); } });
        transport.onclose = () => { if (transport.sessionId) delete transports[transport.sessionId]; };
        await build().connect(transport);
    }
    await transport.handleRequest(req, res, req.body);
});
const other = async (req, res) => {
    const t = transports[req.headers['mcp-session-id']];
    if (!t) { res.status(req.headers['mcp-session-id'] ? 404 : 400).send(req.headers['mcp-session-id'] ? 'Session not found' : 'Missing session ID'); return; }
    await t.handleRequest(req, res);
};
app.get('/mcp', bearer, other);
app.delete('/mcp', bearer, other);
app.listen(rsPort, '127.0.0.1', () => log(`RS on ${rsPort}`));
process.on('SIGINT', () => process.exit(0));
