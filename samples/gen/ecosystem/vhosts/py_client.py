"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) of the vhosts group: one session per HOST, one
after the other, all to the same URL (an nginx address shared by name-based virtual hosts), each with an explicit
`Host: HOST` header that picks the virtual host.

    python py_client.py URL HOST [HOST...]          Streamable HTTP (URL: http://127.0.0.1:PORT/PATH)
    python py_client.py --sse URL HOST [HOST...]    legacy HTTP+SSE (URL: http://127.0.0.1:PORT/sse)

Streamable HTTP: `Client(streamable_http_client(URL, http_client=H), mode="legacy", read_timeout_seconds=10)`, where H is
the SDK's own `create_mcp_http_client(headers={"Host": HOST})` (its default timeouts; httpx2 sends an explicit Host
header instead of the URL's), as ../relays/py_client.py's `Client(URL, mode="legacy")` builds it otherwise: the classic
initialize handshake, a stateful session with its standalone GET stream, DELETE at close. HTTP+SSE: `Client(sse_client(
URL, headers={"Host": HOST}), mode="legacy", ...)` as ../egress/py_sse_client.py (`GET URL`, the `endpoint` event, every
message POSTed there with the same Host). In each session: initialize, tools/list, add(1,2), echo("hello"), 0.1 s apart
(../pysdk_tools.py `exercise`), close; then 0.5 s before the next HOST. Each request times out after 10 s, each session
after 20 s (../pysdk_tools.py `bounded_run`): when the SDK raises (a 502 to the initialize, say), the exception is logged
and that session ends there (no retry, no new session for that HOST); the next HOST follows.
"""

import argparse
import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import bounded_run, exercise_at, log  # noqa: E402  (../pysdk_tools.py)

CALLS = [("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"})]


async def session(url: str, host: str, sse: bool) -> None:
    from mcp.client.client import Client
    from mcp.client.sse import sse_client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    log("session", "HTTP+SSE" if sse else "Streamable HTTP", url, "Host:", host)
    if sse:
        await bounded_run(exercise_at(Client(sse_client(url, headers={"Host": host}), mode="legacy",
                                             read_timeout_seconds=10), CALLS), seconds=20)
        return
    async with create_mcp_http_client(headers={"Host": host}) as http:
        await bounded_run(exercise_at(Client(streamable_http_client(url, http_client=http), mode="legacy",
                                             read_timeout_seconds=10), CALLS), seconds=20)


async def main(url: str, hosts: list[str], sse: bool) -> None:
    for i, host in enumerate(hosts):
        if i:
            await asyncio.sleep(0.5)
        await session(url, host, sse)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sse", action="store_true")
    p.add_argument("url")
    p.add_argument("hosts", nargs="+")
    a = p.parse_args()
    asyncio.run(main(a.url, a.hosts, a.sse))
