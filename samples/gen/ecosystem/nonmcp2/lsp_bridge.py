"""A stub of a Language Server Protocol bridge over HTTP (Starlette under uvicorn, 127.0.0.1 only), for
samples/gen/ecosystem/nonmcp2.sh: LSP's JSON-RPC 2.0 on one URL, POST for client -> server messages, GET for an SSE
stream of server -> client notifications, the way an LSP-over-HTTP bridge would carry it. NOT MCP, but its first
method is `initialize` (with LSP's `clientInfo`, no `protocolVersion`): the trap of this group.

    python lsp_bridge.py PORT

POST /lsp: a request is answered 200 application/json with its JSON-RPC response (initialize: LSP capabilities and
serverInfo; textDocument/hover, textDocument/completion; workspace/symbol waits up to 3 s and is answered with the
LSP error -32800 "Request cancelled" when a `$/cancelRequest` for its id arrives first; shutdown: null); a
notification (initialized, textDocument/didOpen, $/cancelRequest, exit) is answered 202 without body. No session
header. didOpen makes the bridge publish textDocument/publishDiagnostics on the event streams.
GET /lsp (Accept: text/event-stream): SSE, `retry: 500`, then a window/logMessage "bridge attached" and every
notification published while the stream is open, each with `id:` from a counter of THAT connection (1, 2, 3...);
the bridge closes every event stream after 1.5 s (a naive stream lifetime) and ignores Last-Event-ID on reconnect,
so a reconnecting client gets id 1 "bridge attached" again: what a simple bridge does.
"""

import asyncio
import json
import sys

import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

HOST = "127.0.0.1"
LISTENERS: set[asyncio.Queue] = set()
CANCELLED: dict = {}


def publish(method, params):
    for q in list(LISTENERS):
        q.put_nowait({"jsonrpc": "2.0", "method": method, "params": params})


async def result_for(method, params, rid):
    if method == "initialize":
        return {"capabilities": {"textDocumentSync": 1, "hoverProvider": True,
                                 "completionProvider": {"triggerCharacters": ["."]}, "workspaceSymbolProvider": True},
                "serverInfo": {"name": "nonmcp2-lsp-bridge", "version": "0.1.0"}}
    if method == "textDocument/hover":
        return {"contents": {"kind": "markdown", "value": "`add(a, b)` -> int"}}
    if method == "textDocument/completion":
        return {"isIncomplete": False, "items": [{"label": "add", "kind": 3}, {"label": "echo", "kind": 3}]}
    if method == "workspace/symbol":
        ev = CANCELLED.setdefault(rid, asyncio.Event())
        try:
            await asyncio.wait_for(ev.wait(), 3)
            raise LookupError
        except asyncio.TimeoutError:
            return [{"name": "add", "kind": 12, "location": {"uri": "file:///ws/calc.py",
                     "range": {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 7}}}}]
    if method == "shutdown":
        return None
    raise KeyError(method)


async def rpc(request):
    if request.method == "GET":
        return events(request)
    m = await request.json()
    method, params = m.get("method"), m.get("params") or {}
    if "id" not in m:  # a notification
        if method == "textDocument/didOpen":
            uri = params["textDocument"]["uri"]
            publish("textDocument/publishDiagnostics", {"uri": uri, "diagnostics": [
                {"range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 5}},
                 "severity": 2, "message": "unused variable 'x'"}]})
        elif method == "$/cancelRequest":
            CANCELLED.setdefault(params["id"], asyncio.Event()).set()
        return Response(status_code=202)
    try:
        return JSONResponse({"jsonrpc": "2.0", "id": m["id"], "result": await result_for(method, params, m["id"])})
    except LookupError:
        return JSONResponse({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32800, "message": "Request cancelled"}})
    except KeyError:
        return JSONResponse({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601, "message": "Method not found"}})


def events(request):
    q: asyncio.Queue = asyncio.Queue()
    q.put_nowait({"jsonrpc": "2.0", "method": "window/logMessage", "params": {"type": 3, "message": "bridge attached"}})
    LISTENERS.add(q)

    async def gen():
        n = 0
        yield "retry: 500\n\n"
        loop = asyncio.get_running_loop()
        end = loop.time() + 1.5
        try:
            while (left := end - loop.time()) > 0:
                try:
                    msg = await asyncio.wait_for(q.get(), left)
                except asyncio.TimeoutError:
                    break
                n += 1
                yield f"id: {n}\ndata: {json.dumps(msg)}\n\n"
        finally:
            LISTENERS.discard(q)

    return StreamingResponse(gen(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})


app = Starlette(routes=[Route("/lsp", rpc, methods=["GET", "POST"])])

if __name__ == "__main__":
    uvicorn.run(app, host=HOST, port=int(sys.argv[1]), log_level="warning")
