"""smolagents 1.26.0 `MCPClient` (mcpadapt 0.1.19 on mcp 1.30.0; agents2/.venv-smolagents) as a restartpy client, as
its docs use it without an LLM: `with MCPClient({"url": U, "transport": "streamable-http"}, structured_output=False)
as tools:` (one MCP session for the block: initialize, tools/list), then each smolagents Tool called directly
(`tool(**args)`, what a CodeAgent's generated code does): add(1,2), echo("hello"), [restart point], add(40,2),
echo("again"), 0.7 s apart, then the block ends (disconnect). A call that raises is logged and the run goes on.

    python smolagents_client.py URL MARK
Bounded: mcpadapt's connect_timeout=30 and `timeout 60` in restartpy.sh (the calls are synchronous: mcpadapt runs the
SDK's asyncio session in a thread of its own, and offers no per-call timeout).
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import AFTER, BEFORE, GAP, log, log_raised, ready, wait_go_sync  # noqa: E402


def call(tools, name, arguments):
    try:
        log(name, arguments, "->", str(tools[name](**arguments))[:200])
    except BaseException as e:  # noqa: BLE001
        log(name, arguments, "raised")
        log_raised(e)


def main(url, mark):
    from smolagents import MCPClient

    try:
        with MCPClient({"url": url, "transport": "streamable-http"}, structured_output=False,
                       adapter_kwargs={"connect_timeout": 30}) as tool_list:
            tools = {t.name: t for t in tool_list}
            log("tools", list(tools))
            time.sleep(GAP)
            for name, arguments in BEFORE:
                call(tools, name, arguments)
                time.sleep(GAP)
            ready(mark)
            wait_go_sync(mark)
            time.sleep(GAP)
            for name, arguments in AFTER:
                call(tools, name, arguments)
                time.sleep(GAP)
            log("closing")
        log("closed")
    except BaseException as e:  # noqa: BLE001
        log_raised(e)
        log("run ended")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
