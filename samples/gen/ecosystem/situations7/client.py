"""The official Python SDK client (mcp 2.3.0, the sdks group's venv), `Client(URL, mode="legacy")` (the classic
initialize handshake, a session id when the server mints one, the transport's standalone GET stream), its defaults
otherwise (no read timeout of ours).

    python client.py URL calls N      tools/list, then lookup(k1) .. lookup(kN); an error of one call is logged and
                                      the next call made (the application carries on), then close
    python client.py URL resume [TOOL [KEY]]
                                      lookup(k1) (add(1,1) with TOOL add) through ClientSession.send_request with on_resumption_token_update
                                      (the SDK's resumption API: the application keeps the last token it was given),
                                      then lookup(k2) (add(2,2)) the same way, then the application "resumes" the k1 call with
                                      the token it kept for it (send_request with metadata resumption_token: the
                                      transport sends GET + Last-Event-ID instead of a POST), then close; KEY k2
                                      resumes the k2 call (the last one) instead

The script that starts it bounds the run (timeout).
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import bounded_run, log, log_raised  # noqa: E402


async def calls(url, n):
    from mcp.client.client import Client

    async with Client(url, mode="legacy") as client:
        log("negotiated", client.protocol_version)
        tools = await client.list_tools()
        log("tools:", [t.name for t in tools.tools])
        for i in range(1, n + 1):
            try:
                r = await client.call_tool("lookup", {"key": f"k{i}"})
                log(f"lookup(k{i}) ->", [getattr(c, "text", c) for c in r.content])
            except Exception as e:  # noqa: BLE001 - what the SDK raised is logged, the application goes on
                log_raised(e)


async def resume(url, tool, again="k1"):
    from mcp import types
    from mcp.client.client import Client
    from mcp.shared.message import ClientMessageMetadata

    async with Client(url, mode="legacy") as client:
        log("negotiated", client.protocol_version)
        session = client.session
        tokens = {}

        async def call(key, token=None):
            async def keep(t):
                tokens.setdefault(key, []).append(t)
                log(f"token for {key}: {t}")

            n = int(key[1:])
            args = {"key": key} if tool == "lookup" else {"a": n, "b": n}
            req = types.CallToolRequest(params=types.CallToolRequestParams(name=tool, arguments=args))
            meta = ClientMessageMetadata(resumption_token=token, on_resumption_token_update=keep)
            r = await session.send_request(req, types.CallToolResult, metadata=meta)
            log(f"{tool}({key}) ->", [getattr(c, "text", c) for c in r.content])

        await call("k1")
        await call("k2")
        log(f"resuming {again} with its first token", tokens[again][0])
        try:
            await asyncio.wait_for(call(again, token=tokens[again][0]), 10)
        except BaseException as e:  # noqa: BLE001
            log_raised(e)


if __name__ == "__main__":
    u, mode = sys.argv[1], sys.argv[2]
    body = calls(u, int(sys.argv[3])) if mode == "calls" else resume(u, *(sys.argv[3:5] or ["lookup"]))
    asyncio.run(bounded_run(body, 45))
