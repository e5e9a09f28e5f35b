"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) of the gateways3 group, pointed at a gateway.

    python gw3_client.py URL [--sse] [--prefix P] [--tag T] [--ready-file F --go-file G]
                             [--restart-ready-file F --restart-go-file G] [--no-slow]

Streamable HTTP (default): `Client(URL, mode="legacy")` (the classic initialize handshake, a stateful session with its
standalone GET stream, DELETE at close). --sse (URL of a legacy HTTP+SSE endpoint): `Client(sse_client(URL),
mode="legacy")`. Then tools/list, P+add(1,2), P+echo("hello T"), P+slow_count(3) with a progress callback (so a
progressToken; left out with --no-slow), P+add(40,2), 0.1 s apart (../pysdk_tools.py `call`). Gateways rename the
tools they merge: P is the prefix they put before a backend's tool name.
--ready-file/--go-file: after tools/list, touch the first and wait (max 30 s) for the second, so two clients run their
calls through one gateway at the same time. --restart-ready-file/--restart-go-file: after the calls, touch the first
and wait (max 30 s) for the second (the script restarts the backend meanwhile), then P+add(2,3), P+echo("after
restart T") and P+add(5,5) in the same session. Each request times out after 10 s, the run after 45 s; when the SDK raises on a
call, that is logged and the run goes on with the next call (no retry, no new session).
"""

import argparse
import asyncio
import os
import pathlib
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import bounded_run, call, log, log_raised  # noqa: E402  (../pysdk_tools.py)


async def wait_for(path: str) -> None:
    for _ in range(300):
        if os.path.exists(path):
            return
        await asyncio.sleep(0.1)
    log("gave up waiting for", path)


async def step(client, name, arguments):
    try:
        await call(client, name, arguments)
    except Exception as e:  # noqa: BLE001 - the error is the record; go on with the next call
        log_raised(e)
    await asyncio.sleep(0.1)


async def main(a) -> None:
    from mcp.client.client import Client
    from mcp.client.sse import sse_client

    p, tag = a.prefix, a.tag
    transport = sse_client(a.url) if a.sse else a.url
    async with Client(transport, mode="legacy", read_timeout_seconds=10) as client:
        log(tag, "negotiated", client.protocol_version)
        tools = await client.list_tools()
        log(tag, "tools", [t.name for t in tools.tools])
        if a.ready_file:
            pathlib.Path(a.ready_file).touch()
            await wait_for(a.go_file)
        await step(client, p + "add", {"a": 1, "b": 2})
        await step(client, p + "echo", {"text": f"hello {tag}"})
        if not a.no_slow:
            await step(client, p + "slow_count", {"n": 3})
        await step(client, p + "add", {"a": 40, "b": 2})
        if a.restart_ready_file:
            pathlib.Path(a.restart_ready_file).touch()
            await wait_for(a.restart_go_file)
            await step(client, p + "add", {"a": 2, "b": 3})
            await step(client, p + "echo", {"text": f"after restart {tag}"})
            await step(client, p + "add", {"a": 5, "b": 5})


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("url")
    ap.add_argument("--sse", action="store_true")
    ap.add_argument("--prefix", default="")
    ap.add_argument("--tag", default="A")
    ap.add_argument("--ready-file")
    ap.add_argument("--go-file")
    ap.add_argument("--restart-ready-file")
    ap.add_argument("--restart-go-file")
    ap.add_argument("--no-slow", action="store_true")
    asyncio.run(bounded_run(main(ap.parse_args()), seconds=45))
