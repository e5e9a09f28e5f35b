"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) of the pyservers2 group, for servers whose tools
are not the corpus's add/echo/slow_count (LangGraph's /mcp, whose tools are the graphs' assistants).

    python py_client.py URL TOOL=JSON-ARGS...

`Client(URL, mode="legacy", read_timeout_seconds=10)` over the SDK's default HTTP client (HTTP/1.1), as
../proxies2/py_client.py: the classic initialize handshake (the SDK opens its standalone GET stream when the server
gave a session id), tools/list, then each TOOL called with its JSON arguments, 0.1 s apart, and close (DELETE when a
session id was given). Each request times out after 10 s, the whole run after 30 s (../pysdk_tools.py
`bounded_run`): when the SDK raises, the exception is logged and the run ends there: no retry, no new session.
"""

import asyncio
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import bounded_run, log  # noqa: E402  (../pysdk_tools.py)


async def exercise(client_cm, calls) -> None:
    async with client_cm as client:
        log("negotiated", client.protocol_version)
        tools = await client.list_tools()
        log("tools", [t.name for t in tools.tools])
        for name, arguments in calls:
            r = await client.call_tool(name, arguments)
            log(name, arguments, "->", [getattr(c, "text", c) for c in r.content], "error" if r.is_error else "")
            await asyncio.sleep(0.1)


async def main(url, calls) -> None:
    from mcp.client.client import Client

    await bounded_run(exercise(Client(url, mode="legacy", read_timeout_seconds=10), calls), 30)


if __name__ == "__main__":
    url, specs = sys.argv[1], sys.argv[2:]
    asyncio.run(main(url, [(s.split("=", 1)[0], json.loads(s.split("=", 1)[1])) for s in specs]))
