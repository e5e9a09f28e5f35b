"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) of the pyservers group.

    python py_client.py URL [--mode legacy|auto]

`Client(URL, mode=MODE, read_timeout_seconds=10)` over the SDK's default httpx2 client (HTTP/1.1), as
../relays/py_client.py: legacy (the default here) is the classic initialize handshake (asks 2025-11-25), auto the
SDK's own default (2026-07-28 `server/discover` first). Then tools/list, add(1,2), echo("hello"), slow_count(3),
add(40,2), each call with a progress callback (so a progressToken), 0.1 s apart (../pysdk_tools.py `exercise`), and
close (DELETE when the server gave a session id). Each request times out after 10 s, the whole run after 30 s; when
the SDK raises, the exception is logged and the run ends there: no retry, no new session.
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
