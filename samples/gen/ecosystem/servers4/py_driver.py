"""servers4's Python SDK (mcp 2.3.0) driver: `python py_driver.py http|sse URL [--header NAME:VALUE] [--call TOOL JSON]...`.

http: the SDK's `Client(URL)` with its defaults (mode "auto": a server/discover probe first, the initialize handshake
when the server does not know it; its standalone GET stream and DELETE are the SDK's own doing). sse: `Client` over
`sse_client(URL)` in mode "legacy" (HTTP+SSE has no discover). Lists the tools, runs each --call in order (a failing
tool is printed, not retried), 0.2 s apart. Bounded: 40 s in all, 15 s per request.
"""
import asyncio
import json
import sys

from mcp.client.client import Client
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def parse(argv):
    kind, url, rest = argv[0], argv[1], argv[2:]
    calls, headers, i = [], {}, 0
    while i < len(rest):
        if rest[i] == "--header":
            k, _, v = rest[i + 1].partition(":")
            headers[k] = v
            i += 2
        elif rest[i] == "--call":
            calls.append((rest[i + 1], json.loads(rest[i + 2])))
            i += 3
        else:
            i += 1
    return kind, url, calls, headers


async def main():
    kind, url, calls, headers = parse(sys.argv[1:])
    if kind == "sse":
        client = Client(sse_client(url, headers=headers or None), mode="legacy", read_timeout_seconds=15)
    elif headers:  # --header: the SDK's own httpx client factory, with the headers
        transport = streamable_http_client(url, http_client=create_mcp_http_client(headers=headers))
        client = Client(transport, read_timeout_seconds=15)
    else:
        client = Client(url, read_timeout_seconds=15)
    async with client as c:
        info = c.server_info
        print("[py] server", info.name if info else "-", c.protocol_version, flush=True)
        tools = await c.list_tools()
        print("[py] tools", len(tools.tools), ",".join(t.name for t in tools.tools[:12]), flush=True)
        for name, args in calls:
            try:
                r = await c.call_tool(name, args)
                text = json.dumps([x.model_dump(exclude_none=True) for x in r.content])[:160]
                print("[py] call", name, "isError" if getattr(r, "is_error", getattr(r, "isError", False)) else "ok", text, flush=True)
            except Exception as e:  # an error answer is part of the traffic, not a failure of the run
                print("[py] call", name, "error", str(e)[:160], flush=True)
            await asyncio.sleep(0.2)
    print("[py] closed", flush=True)


asyncio.run(asyncio.wait_for(main(), 40))
