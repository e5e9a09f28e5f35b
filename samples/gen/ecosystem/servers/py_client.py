"""The official Python SDK client (mcp 2.3.0, run in the sdks group's venv sdks/.venv) against a published MCP server,
with its defaults: `Client(url)`, mode "auto" (POST server/discover at 2026-07-28 first, fall back to an initialize
handshake when the server does not answer it), a logging callback and a message handler that only log. One bounded
script per server, the same as ts-client.mjs:

  everything   tools/list, echo("hello"), get-sum(1,2), trigger-long-running-operation(duration 1, steps 3) with a
               progress callback (so the request carries a progressToken), resources/subscribe to
               demo://resource/dynamic/text/1, toggle-subscriber-updates and toggle-simulated-logging, then IDLE
               seconds (default 12) with nothing sent
  playwright   tools/list, browser_navigate(PAGE), browser_snapshot, IDLE seconds (default 4)
  markitdown   tools/list, convert_to_markdown(PAGE) and convert_to_markdown(FILE-URI)
  git          tools/list, git_status(REPO) and git_log(REPO, maxCount 1) (REPO given as PAGE)

Leaving the `async with` ends the session (DELETE when it holds a session id). Bounded: 40 s.

    python py_client.py everything|playwright|markitdown|git URL [PAGE|REPO [FILE-URI]] [--idle SECONDS]
"""

import argparse
import asyncio
import sys
import time
import warnings

T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


def short(result):
    return [c.text[:80] if getattr(c, "type", "") == "text" else c.type for c in result.content]


async def main(a):
    from mcp.client.client import Client

    async def on_log(params):
        log("log", params.level, str(params.data)[:60])

    async def on_message(message):
        if isinstance(message, Exception):
            log("transport exception", repr(message)[:100])
        else:
            log("notification", getattr(message, "method", type(message).__name__))

    async def progress(p, total, message):
        log("progress", p, total, message)

    async def call(client, name, arguments, **kw):
        log(name, arguments, "->", short(await client.call_tool(name, arguments, **kw)))

    async with asyncio.timeout(40):
        async with Client(a.url, logging_callback=on_log, message_handler=on_message) as client:
            log("negotiated", client.protocol_version, client.server_info)
            tools = await client.list_tools()
            log("tools", len(tools.tools))
            if a.server == "everything":
                await call(client, "echo", {"message": "hello"})
                await call(client, "get-sum", {"a": 1, "b": 2})
                await call(client, "trigger-long-running-operation", {"duration": 1, "steps": 3},
                           progress_callback=progress)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")          # deprecated as of 2026-07-28; this server is 2025-era
                    log("subscribe", await client.subscribe_resource("demo://resource/dynamic/text/1"))
                await call(client, "toggle-subscriber-updates", {})
                await call(client, "toggle-simulated-logging", {})
                await asyncio.sleep(12 if a.idle is None else a.idle)
            elif a.server == "playwright":
                await call(client, "browser_navigate", {"url": a.page})
                await call(client, "browser_snapshot", {})
                await asyncio.sleep(4 if a.idle is None else a.idle)
            elif a.server == "markitdown":
                await call(client, "convert_to_markdown", {"uri": a.page})
                await call(client, "convert_to_markdown", {"uri": a.file_uri})
            elif a.server == "git":
                await call(client, "git_status", {"path": a.page})
                await call(client, "git_log", {"path": a.page, "maxCount": 1})
    log("closed")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("server", choices=["everything", "playwright", "markitdown", "git"])
    p.add_argument("url")
    p.add_argument("page", nargs="?")
    p.add_argument("file_uri", nargs="?")
    p.add_argument("--idle", type=float)
    asyncio.run(main(p.parse_args()))
