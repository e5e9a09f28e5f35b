"""The official Python SDK client (mcp 2.3.0, run in the sdks group's venv sdks/.venv) for the indie group's
servers, with its defaults: `Client(url)`, mode "auto" (POST server/discover at 2026-07-28 first, fall back to an
initialize handshake when the server does not answer it). Then ../pysdk_tools.py's exercise: tools/list, add(1,2),
echo("hello"), slow_count(3) with a progress callback (so the request carries a progressToken), add(40,2), 0.1 s
apart; leaving the `async with` ends the session (DELETE when it holds a session id). Bounded: 30 s.

    python py_client.py URL
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pysdk_tools import CALLS, exercise, log  # noqa: E402


async def main(url):
    from mcp.client.client import Client

    async with asyncio.timeout(30):
        async with Client(url) as client:
            await exercise(client, CALLS)
    log("closed")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
