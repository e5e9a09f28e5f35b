"""Real MCP clients (Python SDK mcp 2.3.0, legacy initialize handshake) for the gateways ecosystem captures.

Every mode is bounded: a fixed list of calls and an overall asyncio timeout (--timeout, default 40 s).

    python gw_client.py http  --url http://127.0.0.1:P/mcp [--slow STEPS,DELAY] [--tag T] [--ready-file F --go-file G]
    python gw_client.py sse   --url http://127.0.0.1:P/sse [--slow STEPS,DELAY] [--tag T]
    python gw_client.py stdio --slow STEPS,DELAY -- COMMAND ARGS...    # spawn a stdio bridge (mcp-remote)
    python gw_client.py restart --url U --ready-file F   # calls in a loop; re-initializes after a 404 (new session)
    python gw_client.py cancel  --url U                  # slow call abandoned after 1.5 s: notifications/cancelled
    python gw_client.py abort   --url U                  # raw HTTP: close the SSE reply of a slow call mid-stream

The standard session: initialize, notifications/initialized, tools/list, add(1,2), echo, [slow with a progress
callback], add(40,2), then DELETE on close (the SDK does it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time


def log(tag, *a):
    print(f"[{tag} {time.strftime('%H:%M:%S')}]", *a, file=sys.stderr, flush=True)


async def standard_session(client, tag, slow, pause=0.2, prefix="", keep_going=False):
    """The standard calls; `prefix` names the tools as a gateway exposes them, and with `keep_going` a failed
    call is logged and the next one made (a gateway's error is part of what is captured)."""
    log(tag, "negotiated", client.protocol_version)
    tools = await client.list_tools()
    log(tag, "tools", [t.name for t in tools.tools])
    calls = [("add", {"a": 1, "b": 2}), ("echo", {"text": f"hello from {tag}"})]
    if slow:
        steps, delay = slow.split(",")
        calls.append(("slow", {"steps": int(steps), "delay": float(delay)}))
    calls.append(("add", {"a": 40, "b": 2}))
    for name, arguments in calls:
        progress = []

        async def on_progress(p, total, message, _progress=progress):
            _progress.append(p)
            log(tag, "progress", p, total, message)

        try:
            result = await client.call_tool(prefix + name, arguments, progress_callback=on_progress)
        except Exception as e:
            if not keep_going:
                raise
            log(tag, name, arguments, "failed:", repr(e)[:200])
        else:
            log(tag, name, arguments, "->", [getattr(c, "text", c) for c in result.content],
                "error" if result.is_error else "", f"progress={progress}")
        await asyncio.sleep(pause)


async def wait_file(path, limit=30.0):
    t0 = time.monotonic()
    while not os.path.exists(path):
        if time.monotonic() - t0 > limit:
            raise TimeoutError(path)
        await asyncio.sleep(0.05)


async def run_http(a):
    from mcp.client.client import Client

    async with Client(a.url, mode="legacy") as client:
        if a.ready_file:
            open(a.ready_file, "w").close()
            log(a.tag, "initialized; waiting for", a.go_file)
            await wait_file(a.go_file)
        await standard_session(client, a.tag, a.slow, a.pause)


async def run_sse(a):
    from mcp.client.client import Client
    from mcp.client.sse import sse_client

    async with Client(sse_client(a.url), mode="legacy") as client:
        await standard_session(client, a.tag, a.slow, a.pause)


async def run_stdio(a):
    from mcp import StdioServerParameters
    from mcp.client.client import Client

    params = StdioServerParameters(command=a.command[0], args=a.command[1:], env=dict(os.environ))
    async with Client(params, mode="legacy") as client:
        await standard_session(client, a.tag, a.slow, a.pause)


async def run_restart(a):
    """A well-behaved application: a failed call (502 from the proxy) is retried after a pause; a 404 for the
    session ("Session not found") means the session is gone: open a new one (initialize) and go on."""
    from mcp.client.client import Client
    from mcp.shared.exceptions import MCPError

    todo = [("add", {"a": i, "b": i}) for i in range(1, 9)]
    sessions = 0
    while todo and sessions < 3:
        sessions += 1
        async with Client(a.url, mode="legacy") as client:
            log(a.tag, f"session #{sessions} negotiated", client.protocol_version)
            if sessions == 1 and a.ready_file:
                open(a.ready_file, "w").close()
            failures = 0
            while todo:
                name, arguments = todo[0]
                try:
                    result = await client.call_tool(name, arguments)
                    log(a.tag, name, arguments, "->", [c.text for c in result.content])
                    todo.pop(0)
                    await asyncio.sleep(0.5)
                except MCPError as e:
                    log(a.tag, name, arguments, "failed:", e.error.code, e.error.message)
                    if "not found" in e.error.message.lower() or "terminated" in e.error.message.lower():
                        log(a.tag, "session gone: re-initializing")
                        break
                    failures += 1
                    if failures > 6:
                        raise
                    await asyncio.sleep(1.0)


async def run_cancel(a):
    """The application gives up on a slow call after 1.5 s: the SDK sends notifications/cancelled."""
    from mcp.client.client import Client
    from mcp.shared.exceptions import MCPError

    async with Client(a.url, mode="legacy") as client:
        await client.list_tools()
        async def on_progress(p, total, message):
            log(a.tag, "progress", p, total, message)

        try:
            r = await client.call_tool("slow", {"steps": 6, "delay": 0.5}, read_timeout_seconds=1.5,
                                       progress_callback=on_progress)
            log(a.tag, "slow ->", r)
        except (MCPError, TimeoutError) as e:
            log(a.tag, "slow abandoned:", repr(e))
        await asyncio.sleep(4.0)  # the cancelled tool would have finished by now
        r = await client.call_tool("add", {"a": 2, "b": 3})
        log(a.tag, "add ->", [c.text for c in r.content])


async def run_abort(a):
    """Raw HTTP client (httpx2, the SDK's HTTP library): initialize, then a slow tools/call whose SSE reply it
    closes after the second event (an application aborting the fetch), then a fresh call and DELETE."""
    import httpx2

    hdr = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    async with httpx2.AsyncClient(timeout=10) as http:
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                           "clientInfo": {"name": "mcptap-abort-client", "version": "1.0.0"}}}
        r = await http.post(a.url, json=init, headers=hdr)
        sid = r.headers["mcp-session-id"]
        log(a.tag, "initialize", r.status_code, sid)
        h = dict(hdr, **{"mcp-session-id": sid, "mcp-protocol-version": "2025-11-25"})
        r = await http.post(a.url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=h)
        log(a.tag, "initialized", r.status_code)
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "slow", "arguments": {"steps": 6, "delay": 0.5}, "_meta": {"progressToken": 2}}}
        events = 0
        async with http.stream("POST", a.url, json=call, headers=h) as resp:
            log(a.tag, "slow call", resp.status_code, resp.headers.get("content-type"))
            async for line in resp.aiter_lines():
                if line.startswith("data:"):
                    events += 1
                    log(a.tag, "event", line[:100])
                    if events == 2:
                        log(a.tag, "closing the SSE reply mid-call")
                        break
        await asyncio.sleep(4.0)
        call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 5, "b": 6}}}
        r = await http.post(a.url, json=call, headers=h)
        log(a.tag, "add", r.status_code, r.text[:200].replace("\r\n", " "))
        r = await http.delete(a.url, headers=h)
        log(a.tag, "delete", r.status_code)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["http", "sse", "stdio", "restart", "cancel", "abort"])
    p.add_argument("--url")
    p.add_argument("--slow", default="")
    p.add_argument("--tag", default="client")
    p.add_argument("--pause", type=float, default=0.2)
    p.add_argument("--ready-file")
    p.add_argument("--go-file")
    p.add_argument("--timeout", type=float, default=40.0)
    argv = sys.argv[1:]
    command = argv[argv.index("--") + 1 :] if "--" in argv else []
    a = p.parse_args(argv[: argv.index("--")] if "--" in argv else argv)
    a.command = command
    fn = {"http": run_http, "sse": run_sse, "stdio": run_stdio, "restart": run_restart,
          "cancel": run_cancel, "abort": run_abort}[a.mode]
    run_bounded(fn, a)


def run_bounded(fn, a):
    """Runs `fn(a)` within `a.timeout` seconds: every client run is bounded."""

    async def bounded():
        async with asyncio.timeout(a.timeout):
            await fn(a)

    asyncio.run(bounded())
    log(a.tag, "done")


if __name__ == "__main__":
    main()
