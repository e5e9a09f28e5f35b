"""The Python SDK 1.x WebSocket client (mcp 1.30.0 `mcp.client.websocket.websocket_client`, subprotocol "mcp") with
a ClientSession: initialize, ping, tools/list, add(1,2), echo, slow_count(5) with a progress callback, resources/list,
resources/read, a call of an unknown tool (an error result), then close.   python ws_client.py URL
"""

import asyncio
import sys
import warnings

from mcp import ClientSession
from mcp.client.websocket import websocket_client

warnings.simplefilter("ignore", DeprecationWarning)


async def main(url):
    async with websocket_client(url) as (read, write):
        async with ClientSession(read, write, logging_callback=lambda p: asyncio.sleep(0, print("log", p.data))) as s:
            init = await s.initialize()
            print("initialized", init.protocolVersion, init.serverInfo.name)
            await s.send_ping()
            print("tools", [t.name for t in (await s.list_tools()).tools])
            print("add", (await s.call_tool("add", {"a": 1, "b": 2})).content[0].text)
            print("echo", (await s.call_tool("echo", {"text": "hello"})).content[0].text)

            async def progress(p, total, message):
                print("progress", p, total)

            r = await s.call_tool("slow_count", {"n": 5}, progress_callback=progress)
            print("slow_count", r.content[0].text)
            print("resources", [str(x.uri) for x in (await s.list_resources()).resources])
            print("read", (await s.read_resource("memo://readme")).contents[0].text)
            r = await s.call_tool("nope", {})
            print("nope", r.isError, r.content[0].text)
    print("closed")


asyncio.run(asyncio.wait_for(main(sys.argv[1]), 30))
