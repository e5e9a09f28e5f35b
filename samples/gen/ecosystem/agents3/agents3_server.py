"""The official Python SDK (mcp 2.3.0) MCPServer of the agents3 group: a tool set that uses more of the protocol than
tools, so that the clients' sampling, elicitation, roots and logging support shows on the wire, under uvicorn,
127.0.0.1 only, HTTP/1.1. Runs in the sdks group's venv (../sdks/.venv).

    python agents3_server.py PORT --name NAME          streamable_http_app on /mcp with its defaults (stateful, SSE
                                                       replies without ids, no event store)
    python agents3_server.py PORT --name NAME --sse    the legacy HTTP+SSE app (sse_app defaults: GET /sse,
                                                       POST /messages/?session_id=)

Tools (their names, docstrings and signatures are what tools/list puts on the wire: the committed captures hold them):
  add(a, b), echo(text)           plain
  slow_count(n)                   n notifications/progress 0.1 s apart (when the call carries a progressToken)
  log_steps(n)                    n notifications/message (ctx.info), 0.05 s apart, then the result
  ask_llm(question)               sampling/createMessage to the client (ctx.session.create_message with
                                  related_request_id: on the call's own SSE reply), returns the client's text
  ask_user()                      elicitation/create to the client (ctx.elicit: on the call's own SSE reply)
  client_roots()                  roots/list to the client (ctx.session.send_request with related_request_id: on the
                                  call's own SSE reply)
Resources: `info://server` (text), template `item://{n}`; prompt `review(code)`; completion of its argument;
handlers for logging/setLevel and resources/subscribe / unsubscribe (MCPServer registers none of these three by
itself; they are added on its low-level server, so the capabilities list them).
A server->client request the client does not answer in 10 s fails the tool (an error result), never hangs it.
"""

import argparse
import asyncio

import uvicorn
from pydantic import BaseModel, Field

HOST = "127.0.0.1"


class Name(BaseModel):
    name: str = Field(description="Your name")


def build_server(name: str):
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.shared.message import ServerMessageMetadata
    from mcp_types import (CompleteRequestParams, Completion, EmptyResult, ListRootsRequest, ListRootsResult,
                           SamplingMessage, SetLevelRequestParams, SubscribeRequestParams, TextContent,
                           UnsubscribeRequestParams)

    server = MCPServer(name, version="1.0.0")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    def echo(text: str) -> str:
        """Echo the text back."""
        return text

    @server.tool()
    async def slow_count(n: int, ctx: Context) -> str:
        """Count to n, one progress notification per step."""
        for i in range(1, n + 1):
            await ctx.report_progress(i, n, f"step {i}")
            await asyncio.sleep(0.1)
        return f"counted to {n}"

    @server.tool()
    async def log_steps(n: int, ctx: Context) -> str:
        """Do n steps, logging each one to the client."""
        for i in range(1, n + 1):
            await ctx.info(f"step {i} of {n}")
            await asyncio.sleep(0.05)
        return f"did {n} steps"

    @server.tool()
    async def ask_llm(question: str, ctx: Context) -> str:
        """Ask the client's LLM a question (MCP sampling)."""
        r = await asyncio.wait_for(ctx.session.create_message(
            [SamplingMessage(role="user", content=TextContent(type="text", text=question))],
            max_tokens=50, related_request_id=ctx.request_id), 10)
        return f"the client's model said: {getattr(r.content, 'text', r.content)}"

    @server.tool()
    async def ask_user(ctx: Context) -> str:
        """Ask the user for their name (MCP elicitation)."""
        r = await asyncio.wait_for(ctx.elicit("What is your name?", Name), 10)
        return f"elicitation {r.action}: {r.data.name if r.action == 'accept' else '-'}"

    @server.tool()
    async def client_roots(ctx: Context) -> str:
        """List the client's roots (MCP roots)."""
        r = await asyncio.wait_for(ctx.session.send_request(
            ListRootsRequest(), ListRootsResult, metadata=ServerMessageMetadata(related_request_id=ctx.request_id)), 10)
        return "roots: " + ", ".join(str(x.uri) for x in r.roots)

    @server.resource("info://server", mime_type="text/plain")
    def info() -> str:
        """What this server is."""
        return f"{name}: the agents3 server"

    @server.resource("item://{n}", mime_type="text/plain")
    def item(n: str) -> str:
        """Item number n."""
        return f"item {n}"

    @server.prompt()
    def review(code: str) -> str:
        """Review a piece of code."""
        return f"Please review this code:\n\n{code}"

    @server.completion()
    async def complete(ref, argument, context):
        return Completion(values=[v for v in ("print(1)", "pass") if v.startswith(argument.value)])

    low = server._lowlevel_server  # the SDK's own decorator (completion) registers the same way

    async def set_level(ctx, params: SetLevelRequestParams) -> EmptyResult:
        return EmptyResult()

    async def subscribe(ctx, params: SubscribeRequestParams) -> EmptyResult:
        return EmptyResult()

    async def unsubscribe(ctx, params: UnsubscribeRequestParams) -> EmptyResult:
        return EmptyResult()

    low.add_request_handler("logging/setLevel", SetLevelRequestParams, set_level)
    low.add_request_handler("resources/subscribe", SubscribeRequestParams, subscribe)
    low.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams, unsubscribe)
    return server


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("port", type=int)
    p.add_argument("--name", required=True)
    p.add_argument("--sse", action="store_true")
    a = p.parse_args()
    s = build_server(a.name)
    app = s.sse_app(host=HOST) if a.sse else s.streamable_http_app(streamable_http_path="/mcp", host=HOST)
    uvicorn.run(app, host=HOST, port=a.port, log_level="warning", lifespan="on")
