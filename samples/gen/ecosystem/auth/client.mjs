// The official TS SDK 1.32.2 client (Client + StreamableHTTPClientTransport with an authProvider): an in-memory
// OAuthClientProvider as in the SDK's examples/client/simpleOAuthClient (InMemoryOAuthClientProvider), with no
// token at first. Where the SDK would send the user's browser to the authorization URL, this harness fetches it on
// loopback itself (redirect: 'manual') and keeps the code from the Location header, as a browser and the redirect
// listener would; the application then calls transport.finishAuth(code) and goes on, as simpleOAuthClient does
// (it reconnects with a new transport at connect; mid-session it retries the call on the same transport).
//   node client.mjs URL CALLS INTERVAL-MS [admin]
// CALLS tools/call add(i, i) INTERVAL-MS apart; with `admin`, a tools/call admin_report after the second one.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';

const [url, calls, interval, extra] = process.argv.slice(2);
const t0 = Date.now();
const log = (...a) => console.log(`[${((Date.now() - t0) / 1000).toFixed(3)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

class InMemoryOAuthClientProvider {
    constructor(redirectUrl, clientMetadata) { this._redirectUrl = redirectUrl; this._clientMetadata = clientMetadata; this.code = undefined; }
    get redirectUrl() { return this._redirectUrl; }
    get clientMetadata() { return this._clientMetadata; }
    clientInformation() { return this._clientInformation; }
    saveClientInformation(info) { this._clientInformation = info; }
    tokens() { return this._tokens; }
    saveTokens(tokens) { log(`tokens saved: expires_in ${tokens.expires_in}, scope ${tokens.scope}`); this._tokens = tokens; }
    async redirectToAuthorization(authorizationUrl) {
        log(`authorize: ${authorizationUrl.pathname}?scope=${authorizationUrl.searchParams.get('scope')}`);
        const r = await fetch(authorizationUrl, { redirect: 'manual' });
        const loc = new URL(r.headers.get('location'));
        this.code = loc.searchParams.get('code');
        log(`authorize answered ${r.status}, code ${this.code ? 'received' : 'missing'}`);
    }
    saveCodeVerifier(v) { this._codeVerifier = v; }
    codeVerifier() { return this._codeVerifier; }
    invalidateCredentials(scope) { log(`invalidate ${scope}`); if (scope === 'all' || scope === 'tokens') this._tokens = undefined; if (scope === 'all' || scope === 'client') this._clientInformation = undefined; }
}

const provider = new InMemoryOAuthClientProvider('http://127.0.0.1:20709/callback', {
    client_name: 'auth-ts-client', redirect_uris: ['http://127.0.0.1:20709/callback'],
    grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_post'
});

let client, transport;
async function connect() {
    for (let attempt = 0; attempt < 3; attempt++) {
        transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
        client = new Client({ name: 'auth-ts-client', version: '1.0.0' });
        try { await client.connect(transport); log(`connected, session ${transport.sessionId}`); return; }
        catch (e) {
            if (!(e instanceof UnauthorizedError)) throw e;
            log('connect: unauthorized, finishing auth with the code');
            await transport.finishAuth(provider.code);
        }
    }
    throw new Error('could not connect');
}
async function call(name, args) {
    for (let attempt = 0; attempt < 2; attempt++) {
        try {
            const r = await client.callTool({ name, arguments: args });
            log(`${name} -> ${r.content?.[0]?.text} (session ${transport.sessionId})`);
            return;
        } catch (e) {
            if (e instanceof UnauthorizedError) {
                log(`${name}: unauthorized, finishing auth with the code`);
                await transport.finishAuth(provider.code);
                continue;
            }
            log(`${name} failed: ${e.constructor.name}: ${e.message}`);
            return;
        }
    }
}

await connect();
const tools = await client.listTools();
log(`tools: ${tools.tools.map((t) => t.name).join(' ')}`);
for (let i = 1; i <= Number(calls); i++) {
    await call('add', { a: i, b: i });
    if (extra === 'admin' && i === 2) await call('admin_report', {});
    if (i < Number(calls)) await sleep(Number(interval));
}
await transport.terminateSession().catch((e) => log(`terminate: ${e.message}`));
await client.close();
log('done');
