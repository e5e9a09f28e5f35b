"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) of the fastmcp-ts group.

    python py_client.py URL [--mode legacy|auto]

As ../relays/py_client.py: `Client(URL, mode=MODE, read_timeout_seconds=10)` over its default httpx2 client (HTTP/1.1;
a new connection for each SSE-answered request). legacy (the default here, as the other groups run it) is the classic
initialize handshake, a stateful session with its standalone GET stream; auto is the SDK's own default (a 2026-07-28
`server/discover` probe first, the initialize handshake when the server refuses it). Then tools/list, add(1,2),
echo("hello"), slow_count(3) with a progress callback (so a progressToken), add(40,2), 0.1 s apart
(../pysdk_tools.py `exercise`), and close (a legacy session sends DELETE). The whole run is bounded to 30 s; when the
SDK raises, the exception is logged and the run ends there: no retry, no new session.
"""

import argparse
import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import bounded_run, exercise_at  # noqa: E402  (../pysdk_tools.py)


async def main(url: str, mode: str) -> None:
    from mcp.client.client import Client

    await bounded_run(exercise_at(Client(url, mode=mode, read_timeout_seconds=10)))


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("url")
    p.add_argument("--mode", default="legacy", choices=["legacy", "auto"])
    a = p.parse_args()
    asyncio.run(main(a.url, a.mode))
