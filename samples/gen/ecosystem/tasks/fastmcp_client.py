"""mcptap ecosystem group "tasks": the FastMCP 4.1.4 client with fastmcp-tasks 4.1.4 (which registers the tasks
extension's client half on every Client), the way the fastmcp-tasks docs show it.

    python fastmcp_client.py call URL SECS      client.call_tool("analyze") - the client polls tasks/get to the end
    python fastmcp_client.py cancel URL SECS    call_tool_task, tasks/get, 3 s later handle.cancel(), wait()
"""

import asyncio
import sys
from datetime import datetime, timezone

from fastmcp import Client
from fastmcp_tasks import call_tool_task


def log(*a):
    print(datetime.now(timezone.utc).isoformat(), *a, flush=True)


async def main(mode: str, url: str, secs: int) -> None:
    async with Client(url) as client:
        log("connected")
        if mode == "call":
            r = await client.call_tool("analyze", {"secs": secs})
            log("result", r.data)
        elif mode == "cancel":
            task = await call_tool_task(client, "analyze", {"secs": secs})
            log("task", task.task_id)
            log("status", (await task.status()).status)
            await asyncio.sleep(3)
            await task.cancel()
            log("cancel sent")
            log("final", (await task.wait(timeout=30)).status)
        else:
            raise SystemExit(f"unknown mode {mode}")
    log("closed")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
