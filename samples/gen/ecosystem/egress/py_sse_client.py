"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) over the legacy HTTP+SSE transport, for the
egress group: relays/py_client.py's run with `Client(sse_client(url), mode="legacy")` (relays/py_client.py takes a
Streamable HTTP URL only).

    python py_sse_client.py URL          (URL: http://HOST:PORT/sse)

`sse_client` opens `GET URL` (its default httpx2 client, which takes HTTP_PROXY / HTTPS_PROXY / NO_PROXY from the
environment like any httpx2 client), reads the `endpoint` event and POSTs every message there; then initialize,
tools/list, add(1,2), echo("hello"), slow_count(3) with a progress callback, add(40,2), 0.1 s apart
(../pysdk_tools.py `exercise`), and close (HTTP+SSE has no DELETE: the client closes the GET stream). Each request
times out after 10 s, the whole run after 30 s. When the SDK raises, the exception is logged and the run ends there.
"""

import argparse
import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import bounded_run, exercise_at  # noqa: E402  (../pysdk_tools.py)


async def main(url: str) -> None:
    from mcp.client.client import Client
    from mcp.client.sse import sse_client

    await bounded_run(exercise_at(Client(sse_client(url), mode="legacy", read_timeout_seconds=10)))


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("url")
    asyncio.run(main(p.parse_args().url))
