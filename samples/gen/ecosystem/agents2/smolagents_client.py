"""smolagents (PyPI, `smolagents[mcp]`: its MCPClient is mcpadapt's MCPAdapt on the Python SDK mcp) as an MCP client,
the way its docs use it without an LLM: `with MCPClient({"url": U, "transport": T}, structured_output=False) as
tools:` (connect, initialize, tools/list), then each smolagents Tool called directly (`tool(**args)`, what a
CodeAgent's generated code does): add(1,2), echo("hello"), slow_count(3), add(40,2) (../pysdk_tools.py CALLS), 0.1 s
apart, then the `with` block ends (disconnect). One MCP session for the whole block; the Tool call passes no
progress callback (no progressToken). The client is synchronous: mcpadapt runs the SDK's asyncio session in a thread
of its own.

    python smolagents_client.py streamable-http http://127.0.0.1:PORT/mcp
    python smolagents_client.py sse http://127.0.0.1:PORT/sse

Bounded: `timeout 60` in agents2.sh and mcpadapt's connect_timeout=30. Runs in agents2/.venv-smolagents
(requirements-smolagents.txt).
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import CALLS, log  # noqa: E402  (../pysdk_tools.py)


def main(transport: str, url: str) -> None:
    from smolagents import MCPClient

    with MCPClient({"url": url, "transport": transport}, structured_output=False,
                   adapter_kwargs={"connect_timeout": 30}) as tool_list:
        tools = {t.name: t for t in tool_list}
        log("tools", list(tools))
        for name, arguments in CALLS:
            out = tools[name](**arguments)
            log(name, arguments, "->", str(out)[:120])
            time.sleep(0.1)
    log("closed")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
