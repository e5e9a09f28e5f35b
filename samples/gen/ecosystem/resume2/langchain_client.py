"""langchain-mcp-adapters 0.3.2 (mcp 1.30.0 underneath) driven directly, no model: MultiServerMCPClient with one
streamable_http connection and Callbacks(on_progress, on_logging_message); one explicit session
(`client.session(...)`, the adapters' documented way to keep one MCP session), load_mcp_tools(session, callbacks=...),
then the tools' own ainvoke() as an agent would call them, then add(40,2). No retry of ours.

    python langchain_client.py URL slow|ticker N
"""
import asyncio
import sys
import time

T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, flush=True)


async def main(url, what, n):
    from langchain_mcp_adapters.callbacks import Callbacks
    from langchain_mcp_adapters.client import MultiServerMCPClient
    from langchain_mcp_adapters.tools import load_mcp_tools

    async def on_progress(progress, total, message, context):
        log("progress", progress, total, message)

    async def on_log(params, context):
        log("log notification:", params.data)

    callbacks = Callbacks(on_progress=on_progress, on_logging_message=on_log)
    client = MultiServerMCPClient({"s": {"transport": "streamable_http", "url": url}}, callbacks=callbacks)

    async def step(label, tool, args):
        try:
            r = await asyncio.wait_for(tool.ainvoke(args), 12)
            log(label, "->", str(r)[:200])
        except BaseException as e:  # noqa: BLE001 - what the framework raised is the point
            log(label, "raised:", type(e).__name__, str(e)[:200])

    async with asyncio.timeout(40):
        async with client.session("s") as session:
            tools = {t.name: t for t in await load_mcp_tools(session, callbacks=callbacks, server_name="s")}
            log("tools", list(tools))
            if what == "slow":
                await step(f"slow_count({n})", tools["slow_count"], {"n": n})
            else:
                await step(f"ticker({n})", tools["ticker"], {"n": n})
                await asyncio.sleep(5)
            await step("add(40,2)", tools["add"], {"a": 40, "b": 2})
    log("closed")


if __name__ == "__main__":
    try:
        asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
    except BaseException as e:  # noqa: BLE001
        log("ended with", type(e).__name__, str(e)[:300])
