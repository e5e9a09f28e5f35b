"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) of the gradio group, against Gradio's MCP server.

    python py_client.py URL [--mode legacy|auto]   Streamable HTTP (URL: http://127.0.0.1:PORT/gradio_api/mcp/)
    python py_client.py --sse URL                  legacy HTTP+SSE (URL: http://127.0.0.1:PORT/gradio_api/mcp/sse)

Streamable HTTP: `Client(URL, mode=MODE, read_timeout_seconds=10)` over the SDK's default httpx2 client, as
../relays/py_client.py does; legacy (the default here) is the classic initialize handshake (asks 2025-11-25), auto is
the SDK's own default (2026-07-28 `server/discover` first). HTTP+SSE: `Client(sse_client(URL), mode="legacy", ...)`
as ../vhosts/py_client.py (`GET URL`, the `endpoint` event, every message POSTed there). Then tools/list, add(1,2),
echo("hello"), count_slowly(3) with a progress callback (so a progressToken: Gradio then sends its queue status and
progress as notifications/progress; add and echo carry none), 0.1 s apart, and close. Each request times out after
10 s, the whole run after 30 s (../pysdk_tools.py `bounded_run`): when the SDK raises, the exception is logged and the
run ends there: no retry, no new session.
"""

import argparse
import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import bounded_run, log, progress  # noqa: E402  (../pysdk_tools.py)

CALLS = [("add", {"a": 1, "b": 2}, False), ("echo", {"text": "hello"}, False), ("count_slowly", {"n": 3}, True)]


async def exercise(client_cm) -> None:
    async with client_cm as client:
        log("negotiated", client.protocol_version)
        tools = await client.list_tools()
        log("tools", [t.name for t in tools.tools])
        for name, arguments, with_progress in CALLS:
            r = await client.call_tool(name, arguments, progress_callback=progress if with_progress else None)
            log(name, arguments, "->", [getattr(c, "text", c) for c in r.content], "isError", r.is_error)
            await asyncio.sleep(0.1)


async def main(url: str, mode: str, sse: bool) -> None:
    from mcp.client.client import Client
    from mcp.client.sse import sse_client

    if sse:
        await bounded_run(exercise(Client(sse_client(url), mode="legacy", read_timeout_seconds=10)))
    else:
        await bounded_run(exercise(Client(url, mode=mode, read_timeout_seconds=10)))


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sse", action="store_true")
    p.add_argument("url")
    p.add_argument("--mode", default="legacy", choices=["legacy", "auto"])
    a = p.parse_args()
    asyncio.run(main(a.url, a.mode, a.sse))
