"""clients5 driver for langroid 0.69.16's MCP tools (langroid.agent.tools.mcp: FastMCPClient over fastmcp 4.2.3's
Client, mcp 2.3.0), used the way a ChatAgent enables them, no model: get_tools_async(URL) turns the server's tools into
langroid ToolMessage classes; each tool message is built with the values a model would choose and its handle_async()
run, as the agent's tool step does. By default every call opens a fresh FastMCPClient (connect, call, close).

    python langroid_client.py URL [http|persist|restart]
      http     get_tools_async, then add, slow_count, fail, each through its own client (langroid's default)
      persist  one FastMCPClient(URL, persist_connection=True) held open: its tools share that connection
      restart  persist; add, pause 6 s (the harness restarts the server), add three times more, close
"""

import asyncio
import sys

import tiktoken


class _NoTokenizer:
    """Stands in for tiktoken's cl100k_base: importing langroid builds a Parser whose tokenizer tiktoken downloads
    from the internet on first use (a DNS lookup, then an exception, in a first trial). The MCP tool path never
    tokenizes; nothing else is changed."""

    def encode(self, text, *a, **k):  # noqa: ANN001, ANN002, ANN003
        return list(text.encode())

    def decode(self, toks, *a, **k):  # noqa: ANN001, ANN002, ANN003
        return bytes(toks).decode(errors="replace")


tiktoken.encoding_for_model = lambda *a, **k: _NoTokenizer()
tiktoken.get_encoding = lambda *a, **k: _NoTokenizer()

from langroid.agent.tools.mcp.fastmcp_client import FastMCPClient, get_tools_async  # noqa: E402


async def main() -> None:
    url = sys.argv[1]
    mode = sys.argv[2] if len(sys.argv) > 2 else "http"
    client = None
    if mode == "http":
        tools = await get_tools_async(url)
    else:
        client = FastMCPClient(url, persist_connection=True)
        await client.connect()
        tools = await client.get_tools_async()
    by_name = {t.default_value("request"): t for t in tools}
    print("tools:", ", ".join(sorted(by_name)), flush=True)

    async def call(name: str, **kw) -> None:
        try:
            msg = by_name[name](**kw)
            print(f"{name} -> {str(await msg.handle_async())[:200]}", flush=True)
        except Exception as e:  # noqa: BLE001 - the driver reports what the framework raises
            print(f"{name} failed: {type(e).__name__}: {str(e)[:200]}", flush=True)

    if mode == "restart":
        await call("add", a=1, b=2)
        await asyncio.sleep(6)
        await call("add", a=3, b=4)
        await call("add", a=5, b=6)
        await call("add", a=7, b=8)
    else:
        await call("add", a=1, b=2)
        await call("slow_count", n=3)
        if "fail" in by_name:
            await call("fail", reason="boom")
    if client is not None:
        await client.close()
    print("closed")


if __name__ == "__main__":
    asyncio.run(main())
