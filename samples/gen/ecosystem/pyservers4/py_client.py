"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) of the pyservers4 group, for published servers
whose tools are their own:

    python py_client.py URL [--sse] [--mode auto|legacy] [--sleep S] [--call TOOL JSON]...

`Client(URL)` over the SDK's default HTTP client (HTTP/1.1), mode "legacy" (the initialize handshake) unless
`--mode auto` (a server/discover probe first, the handshake when the server does not know it); `--sse`: `Client` over
`sse_client(URL)` (HTTP+SSE, always the handshake). The SDK opens its standalone GET stream when the server gave a
session id. Lists the tools, waits `--sleep S` seconds (the session idle: the restart scenarios stop and start the
server then), runs each --call in order, 0.2 s apart (a tool error or a JSON-RPC error is logged, not retried), and
closes (the SDK's DELETE when a session id was given). Each request times out after 10 s, the whole run after
30 s + S (../pysdk_tools.py `bounded_run`): when the SDK raises outside a call, the exception is logged and the run
ends there: no retry, no new session.
"""

import asyncio
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import bounded_run, log, log_raised  # noqa: E402  (../pysdk_tools.py)


def parse(argv):
    url, rest = argv[0], argv[1:]
    opts = {"sse": False, "mode": "legacy", "sleep": 0.0, "calls": []}
    i = 0
    while i < len(rest):
        if rest[i] == "--sse":
            opts["sse"] = True
            i += 1
        elif rest[i] == "--mode":
            opts["mode"] = rest[i + 1]
            i += 2
        elif rest[i] == "--sleep":
            opts["sleep"] = float(rest[i + 1])
            i += 2
        elif rest[i] == "--call":
            opts["calls"].append((rest[i + 1], json.loads(rest[i + 2])))
            i += 3
        else:
            raise SystemExit(f"unknown argument {rest[i]!r}")
    return url, opts


async def exercise(client_cm, opts) -> None:
    async with client_cm as client:
        info = client.server_info
        log("server", info.name if info else "-", info.version if info else "-", "protocol", client.protocol_version)
        tools = await client.list_tools()
        log("tools", [t.name for t in tools.tools])
        if opts["sleep"] > 0:
            log("idle", opts["sleep"], "s")
            await asyncio.sleep(opts["sleep"])
        for name, arguments in opts["calls"]:
            try:
                r = await client.call_tool(name, arguments)
                text = [getattr(c, "text", str(c))[:120] for c in r.content]
                log("call", name, json.dumps(arguments), "->", text, "isError" if r.is_error else "ok")
            except Exception as e:  # noqa: BLE001 - a JSON-RPC error answer is part of the traffic
                log("call", name, "raised:")
                log_raised(e)
            await asyncio.sleep(0.2)


async def main(url, opts) -> None:
    from mcp.client.client import Client

    if opts["sse"]:
        from mcp.client.sse import sse_client

        client = Client(sse_client(url), mode="legacy", read_timeout_seconds=10)
    else:
        client = Client(url, mode=opts["mode"], read_timeout_seconds=10)
    await bounded_run(exercise(client, opts), 30 + opts["sleep"])


if __name__ == "__main__":
    u, o = parse(sys.argv[1:])
    asyncio.run(main(u, o))
