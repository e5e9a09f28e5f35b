"""The official Python SDK (mcp 2.3.0, this folder's venv) as an OAuth resource server: MCPServer with
`auth=AuthSettings(issuer_url=AS, resource_server_url=.../mcp, required_scopes=["mcp:tools"],
validate_token_resource=False)` and a `token_verifier` that introspects the token at the authorization server (the
TS demo AS of server.mjs), as the SDK's examples/servers/simple-auth resource server does. Stateful streamable HTTP
with the SDK's defaults (SSE replies, session ids), 127.0.0.1. Tool: add(a, b).

    python server.py PORT AS-URL
"""

import sys

import httpx2

from mcp.server.auth.provider import AccessToken, TokenVerifier
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer

PORT, AS = int(sys.argv[1]), sys.argv[2]


class IntrospectionTokenVerifier(TokenVerifier):
    async def verify_token(self, token: str) -> AccessToken | None:
        async with httpx2.AsyncClient(timeout=10) as h:
            r = await h.post(f"{AS.rstrip('/')}/introspect", data={"token": token})
        if r.status_code != 200:
            return None
        d = r.json()
        if not d.get("active"):
            return None
        return AccessToken(token=token, client_id=d["client_id"], scopes=d.get("scope", "").split(),
                           expires_at=d.get("exp"), resource=d.get("aud"))


mcp = MCPServer(
    "auth-py",
    token_verifier=IntrospectionTokenVerifier(),
    auth=AuthSettings(issuer_url=AS, resource_server_url=f"http://127.0.0.1:{PORT}/mcp",
                      required_scopes=["mcp:tools"], validate_token_resource=False),
)


@mcp.tool()
def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


if __name__ == "__main__":
    mcp.run(transport="streamable-http", host="127.0.0.1", port=PORT)
