"""The Python SDK (mcp) MCPServer tool set of the ecosystem groups' Python servers (sdks/py/sdks_py.py `pyserver`,
h2tls/h2tls_py.py, h2more/h2more_py.py, proxies/proxies_py.py, compress/compress_py.py), and the client run their
Python SDK clients make against it.

Imported with samples/gen/ecosystem put on sys.path. The tools' names, docstrings (their descriptions), signatures
(their schemas) and registration order are what tools/list puts on the wire: the committed captures hold them, so
change none of them.
"""

import asyncio
import sys
import time

HOST = "127.0.0.1"
# What the h2tls, h2more and proxies clients call after tools/list (sdks_py.py keeps its own copy; compress's list
# has report(40) and no last add).
CALLS = [("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"}), ("slow_count", {"n": 3}), ("add", {"a": 40, "b": 2})]
T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


def log_raised(e: BaseException) -> None:
    """What the SDK raised, each exception of an exception group on its own line (the run's log is the record)."""
    def leaves(x):
        return [y for z in x.exceptions for y in leaves(z)] if isinstance(x, BaseExceptionGroup) else [x]

    for x in leaves(e):
        log("the SDK raised:", type(x).__name__, str(x)[:300])


async def bounded_run(body, seconds=30):
    """Awaits BODY (one client run) within SECONDS; when the SDK raises, logs what it raised and ends the run there:
    no retry, no new session."""
    try:
        async with asyncio.timeout(seconds):
            await body
        log("closed")
    except BaseException as e:  # noqa: BLE001 - what the SDK raised is the point; the run ends here
        log_raised(e)
        log("run ended after the SDK raised (no retry, no new session)")


async def exercise_at(client_cm, calls=CALLS):
    """exercise(CALLS) in the session CLIENT_CM (an SDK `Client`, not yet entered) opens and closes."""
    async with client_cm as client:
        await exercise(client, calls)


def report_text(rows: int) -> str:
    return "\n".join(f"row {i:03d} | status ok | latency {(i * 7) % 97} ms | region eu-west" for i in range(1, rows + 1))


def build_server(name: str, with_report: bool = False, **server_args):
    """MCPServer NAME (with SERVER_ARGS, e.g. the SDK's auth arguments) with add(a,b), echo(text), with_report:
    report(rows) (a plain-text table, about 55 bytes a row, for compressors to work on), and slow_count(n) (n progress
    notifications, 0.1 s apart)."""
    from mcp.server.mcpserver import Context, MCPServer

    server = MCPServer(name, version="1.0.0", **server_args)

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    def echo(text: str) -> str:
        """Echo the text back."""
        return text

    if with_report:
        @server.tool()
        def report(rows: int) -> str:
            """A plain-text status table of `rows` lines."""
            return report_text(rows)

    @server.tool()
    async def slow_count(n: int, ctx: Context) -> str:
        """Count to n, one progress notification per step."""
        for i in range(1, n + 1):
            await ctx.report_progress(i, n, f"step {i}")
            await asyncio.sleep(0.1)
        return f"counted to {n}"

    return server


def streamable_app(name: str):
    """build_server(NAME) as an ASGI app: `streamable_http_app` on /mcp with its defaults (stateful, SSE replies, no
    event store), for 127.0.0.1."""
    return build_server(name).streamable_http_app(streamable_http_path="/mcp", host=HOST)


async def progress(progress, total, message):
    log("progress", progress, total, message)


async def call(client, name, arguments):
    r = await client.call_tool(name, arguments, progress_callback=progress)
    texts = [getattr(c, "text", c) for c in r.content]
    log(name, arguments, "->", [t if not isinstance(t, str) or len(t) <= 60 else f"{len(t)} chars" for t in texts])


async def exercise(client, calls):
    """tools/list, then CALLS one after the other, 0.1 s apart (the pause is on the wire: keep it)."""
    log("negotiated", client.protocol_version)
    tools = await client.list_tools()
    log("tools", [t.name for t in tools.tools])
    for name, arguments in calls:
        await call(client, name, arguments)
        await asyncio.sleep(0.1)


async def over_httpx2(url, http, mode, calls, seconds, then=None):
    """The Python SDK client over the httpx2.AsyncClient HTTP (HTTP/2 as the caller set it up) in MODE: exercise(CALLS),
    then THEN(client) if given, still in the session; all of it bounded by SECONDS."""
    from mcp.client.client import Client
    from mcp.client.streamable_http import streamable_http_client

    async with http, asyncio.timeout(seconds):
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            await exercise(client, calls)
            if then is not None:
                await then(client)
