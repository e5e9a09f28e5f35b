"""The official Python SDK (mcp 2.3.0) MCPServer of pysdk_tools.py (add, echo, slow_count) under uvicorn, 127.0.0.1
only, HTTP/1.1: the server the agents, devtools, relays and egress groups run their clients against. Runs in the sdks
group's venv (sdks/.venv). NAME is its serverInfo name, so the wire shows which server an initialize reached; `{port}`
in it is replaced by PORT.

    python py_server.py PORT --name NAME                 streamable_http_app on /mcp with its defaults (stateful, SSE
                                                         replies without ids, no event store; it answers 2026-07-28
                                                         requests too), plain HTTP
    python py_server.py PORT --name NAME --sse           the legacy HTTP+SSE app (sse_app defaults: GET /sse,
                                                         POST /messages/?session_id=), plain HTTP
    python py_server.py PORT --name NAME --stateless     streamable_http_app on /mcp with stateless_http=True (mints
                                                         no Mcp-Session-Id, a fresh transport for each request; SSE
                                                         replies without ids, no event store), plain HTTP
    python py_server.py PORT --name NAME --require-auth  streamable_http_app on /mcp (defaults as above) of a server
                                                         that is an OAuth resource server by the SDK's own auth support,
                                                         as the SDK's README shows one (MCPServer(..., token_verifier=...,
                                                         auth=AuthSettings(...))): a token verifier that accepts no
                                                         token, AuthSettings with resource_server_url
                                                         http://127.0.0.1:PORT/mcp and required_scopes ["user"]; the SDK
                                                         answers every request to /mcp without a valid bearer token 401
                                                         with `WWW-Authenticate: Bearer error="invalid_token", ...,
                                                         resource_metadata=...` (its RequireAuthMiddleware) and serves
                                                         the RFC 9728 metadata at /.well-known/oauth-protected-resource/mcp;
                                                         plain HTTP. The issuer_url (https://auth.example.com, the
                                                         README's) is only written into that metadata, never contacted
    python py_server.py PORT --name NAME --cert C --key K  streamable_http_app over TLS (uvicorn ssl_certfile/ssl_keyfile:
                                                         a self-signed certificate for 127.0.0.1); writes no key log
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import uvicorn  # noqa: E402
from pysdk_tools import HOST, build_server, streamable_app  # noqa: E402


class NoTokenAccepted:
    """A TokenVerifier (mcp.server.auth.provider) that accepts no token: every request is unauthenticated."""

    async def verify_token(self, token):
        return None


def auth_server(name, port):
    """build_server(NAME) (the same tools) made with the SDK's auth arguments, as its README's resource-server example
    passes them to MCPServer."""
    from mcp.server.auth.settings import AuthSettings

    auth = AuthSettings(issuer_url="https://auth.example.com", resource_server_url=f"http://{HOST}:{port}/mcp",
                        required_scopes=["user"], validate_token_resource=True)
    return build_server(name, token_verifier=NoTokenAccepted(), auth=auth)


def app_for(name, a):
    """The ASGI app the options ask for (the usage above)."""
    if a.require_auth:
        return auth_server(name, a.port).streamable_http_app(streamable_http_path="/mcp", host=HOST)
    if a.sse:
        return build_server(name).sse_app(host=HOST)
    if a.stateless:
        return build_server(name).streamable_http_app(streamable_http_path="/mcp", host=HOST, stateless_http=True)
    return streamable_app(name)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("port", type=int)
    p.add_argument("--name", required=True)
    p.add_argument("--sse", action="store_true")
    p.add_argument("--stateless", action="store_true")
    p.add_argument("--require-auth", action="store_true")
    p.add_argument("--cert")
    p.add_argument("--key")
    a = p.parse_args()
    app = app_for(a.name.replace("{port}", str(a.port)), a)
    tls = {"ssl_certfile": a.cert, "ssl_keyfile": a.key} if a.cert else {}
    uvicorn.run(app, host=HOST, port=a.port, log_level="warning", lifespan="on", **tls)
