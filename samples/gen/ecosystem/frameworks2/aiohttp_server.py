"""aiohttp-tiny-mcp 0.5.8 on aiohttp 3.14 (`web.run_app`): the plug-in's own `Endpoint(registry).app("/mcp")`
with its defaults (in-memory sessions and events, compression on), every revision it speaks.

    python aiohttp_server.py PORT

Tools: add(a,b), echo(text), slow_count(n) (declared `streaming=True`, the plug-in's switch for an SSE reply: n
progress notifications, 0.1 s apart; a tool without it is answered JSON and its progress is dropped), fail(why)
(raises: the plug-in's error reporting).
"""

import asyncio
import sys

from aiohttp import web
from aiohttp_tiny_mcp import Endpoint, Exchange, Registry
from pydantic import BaseModel

registry = Registry("frameworks2-aiohttp", "1.0.0")


class AddArgs(BaseModel):
    a: int
    b: int


class EchoArgs(BaseModel):
    text: str


class CountArgs(BaseModel):
    n: int


class FailArgs(BaseModel):
    why: str


@registry.tool
async def add(args: AddArgs) -> str:
    """Add two integers."""
    return str(args.a + args.b)


@registry.tool
async def echo(args: EchoArgs) -> str:
    """Echo the text back."""
    return args.text


@registry.tool(streaming=True)
async def slow_count(args: CountArgs, ex: Exchange) -> str:
    """Count to n, one progress notification per step."""
    for i in range(1, args.n + 1):
        await ex.progress(i, args.n, f"step {i}")
        await asyncio.sleep(0.1)
    return f"counted to {args.n}"


@registry.tool
async def fail(args: FailArgs) -> str:
    """Always fails."""
    raise ValueError(f"refused: {args.why}")


if __name__ == "__main__":
    web.run_app(Endpoint(registry).app("/mcp"), host="127.0.0.1", port=int(sys.argv[1]), print=None)
