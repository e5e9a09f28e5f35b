"""The official Python SDK client (mcp 2.3.0, this folder's venv) with its OAuth support: an httpx2.AsyncClient whose
`auth` is mcp.client.auth.OAuthClientProvider (in-memory TokenStorage, no token at first), under
streamable_http_client + ClientSession (the initialize handshake), as the SDK's README OAuth example wires it. The
SDK calls redirect_handler with the authorization URL (a browser would open it); this harness fetches it on
loopback itself, without following the redirect, and callback_handler returns the code and state from its Location
header, as the redirect listener would.

    python client.py URL CALLS INTERVAL-S [admin]

CALLS tools/call add(i, i) INTERVAL-S apart; with `admin`, a tools/call admin_report after the second one. The
script that starts it bounds the run (timeout).
"""

import sys
import time
import warnings
from urllib.parse import parse_qs, urlparse

import anyio
import httpx2

from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider, TokenStorage
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

warnings.simplefilter("ignore")
T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


class Memory(TokenStorage):
    def __init__(self):
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        log(f"tokens saved: expires_in {tokens.expires_in}, scope {tokens.scope}")
        self.tokens = tokens

    async def get_client_info(self):
        return self.client

    async def set_client_info(self, client_info):
        self.client = client_info


LAST = {}


async def redirect_handler(url: str) -> None:
    log("authorize:", urlparse(url).path, "scope", parse_qs(urlparse(url).query).get("scope"))
    async with httpx2.AsyncClient(follow_redirects=False) as h:
        r = await h.get(url)
    q = parse_qs(urlparse(r.headers["location"]).query)
    LAST["code"], LAST["state"] = q["code"][0], q.get("state", [None])[0]
    log("authorize answered", r.status_code)


async def callback_handler() -> AuthorizationCodeResult:
    return AuthorizationCodeResult(code=LAST["code"], state=LAST["state"])


async def main(url, calls, interval, admin):
    oauth = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(
            client_name="auth-py-client",
            redirect_uris=["http://127.0.0.1:20709/callback"],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="client_secret_post",
        ),
        storage=Memory(),
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )
    async with httpx2.AsyncClient(auth=oauth, timeout=30) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                init = await session.initialize()
                log("negotiated", init.protocol_version)
                tools = await session.list_tools()
                log("tools", [t.name for t in tools.tools])
                for i in range(1, calls + 1):
                    await call(session, "add", {"a": i, "b": i})
                    if admin and i == 2:
                        await call(session, "admin_report", {})
                    if i < calls:
                        await anyio.sleep(interval)
    log("done")


async def call(session, name, args):
    try:
        r = await session.call_tool(name, args)
        log(name, "->", r.content[0].text if r.content else r)
    except Exception as e:  # noqa: BLE001 - what the SDK raised is the point
        log(name, "failed:", type(e).__name__, str(e)[:200])


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), len(sys.argv) > 4 and sys.argv[4] == "admin")
