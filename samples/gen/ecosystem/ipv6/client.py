"""The official Python SDK client (mcp 2.3.0), `Client(URL, mode="legacy")` (the classic initialize handshake, the
transport's standalone GET stream), its defaults otherwise (httpx2, whose connect tries every address the name
resolves to, in order): tools/list, add(1,2), echo("hello"), slow_count(3), then close (DELETE).

    python client.py URL

The script that starts it bounds the run (timeout).
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import CALLS, bounded_run, exercise_at  # noqa: E402

if __name__ == "__main__":
    from mcp.client.client import Client

    asyncio.run(bounded_run(exercise_at(Client(sys.argv[1], mode="legacy"), CALLS[:3]), 40))
