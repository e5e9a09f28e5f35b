"""The official Python SDK client (mcp 2.3.0, run in the sdks group's venv sdks/.venv) of the servers2 group, against a
published MCP server.

    python py_client.py URL [--mode auto|legacy] [--sse] [--header NAME:VALUE]... [--call NAME JSON]...

Streamable HTTP: `Client(URL, mode=MODE, read_timeout_seconds=10)` over the SDK's default httpx2 client; with
--header, `Client(streamable_http_client(URL, http_client=create_mcp_http_client(headers=...)), ...)`, the same
client with those headers on every request. auto (the default here, the SDK's own default) posts a 2026-07-28
`server/discover` first and falls back to the initialize handshake when the server does not answer it; legacy is the
handshake only. --sse: HTTP+SSE, `Client(sse_client(URL, headers=...), mode="legacy", ...)` (GET URL, the `endpoint`
event, every message POSTed there). Then tools/list, each --call NAME JSON-ARGS in order (a tool that fails, as most of
these do offline, is logged: an error result or a JSON-RPC error), 0.1 s apart, and close (leaving the client sends
DELETE when it holds a session id). Each request times out after 10 s, the whole run after 30 s
(../pysdk_tools.py `bounded_run`: when the SDK raises, the run ends there, no retry, no new session).
"""

import argparse
import asyncio
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import bounded_run, log  # noqa: E402  (../pysdk_tools.py)


async def exercise(client_cm, calls) -> None:
    from mcp.shared.exceptions import MCPError

    async with client_cm as client:
        log("negotiated", client.protocol_version, client.server_info)
        tools = await client.list_tools()
        log("tools", len(tools.tools), [t.name for t in tools.tools][:40])
        for name, arguments in calls:
            try:
                r = await client.call_tool(name, arguments)
                log(name, arguments, "->", "isError", r.is_error, [getattr(c, "text", c)[:120] for c in r.content])
            except MCPError as e:
                log(name, arguments, "-> JSON-RPC error", str(e)[:200])
            await asyncio.sleep(0.1)


async def main(a) -> None:
    from mcp.client.client import Client
    from mcp.client.sse import sse_client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    headers = dict(h.split(":", 1) for h in a.header)
    calls = [(n, json.loads(j)) for n, j in a.call]
    if a.sse:
        server = sse_client(a.url, headers=headers or None)
        mode = "legacy"
    elif headers:
        server = streamable_http_client(a.url, http_client=create_mcp_http_client(headers=headers))
        mode = a.mode
    else:
        server, mode = a.url, a.mode
    await bounded_run(exercise(Client(server, mode=mode, read_timeout_seconds=10), calls))


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("url")
    p.add_argument("--mode", default="auto", choices=["legacy", "auto"])
    p.add_argument("--sse", action="store_true")
    p.add_argument("--header", action="append", default=[])
    p.add_argument("--call", action="append", nargs=2, default=[], metavar=("NAME", "JSON"))
    asyncio.run(main(p.parse_args()))
