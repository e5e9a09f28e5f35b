"""An LSP client of lsp_bridge.py (httpx, JSON-RPC 2.0 by hand as an editor plugin would send it), for
samples/gen/ecosystem/nonmcp2.sh. NOT MCP.

    python lsp_client.py URL

initialize (id 1: LSP params processId, clientInfo, rootUri, capabilities), then the event stream (GET URL, Accept
text/event-stream, read in the background; when the bridge closes it the client reconnects after the `retry:` delay
with Last-Event-ID, as an EventSource does, twice at most), initialized, textDocument/didOpen, hover (id 2),
completion (id 3), workspace/symbol (id 4) cancelled by $/cancelRequest 0.3 s later, a wait for the reconnects,
hover (id 5), shutdown (id 6), exit. Requests 0.1 s apart; each HTTP request times out after 10 s, the run after 30 s.
"""

import asyncio
import sys

import httpx


def log(*a):
    print(*a, flush=True)


async def events(http, url, stop):
    last, retry = None, 0.5
    for attempt in range(3):
        headers = {"Accept": "text/event-stream"}
        if last:
            headers["Last-Event-ID"] = last
        async with http.stream("GET", url, headers=headers) as r:
            async for line in r.aiter_lines():
                if line.startswith("id: "):
                    last = line[4:]
                elif line.startswith("retry: "):
                    retry = int(line[7:]) / 1000
                elif line.startswith("data: "):
                    log(f"event (stream {attempt + 1}, id {last}):", line[6:90])
        log(f"event stream {attempt + 1} ended, last id {last}")
        if stop.is_set():
            return
        await asyncio.sleep(retry)


async def main(url):
    async with httpx.AsyncClient(timeout=10) as http:
        async def send(m):
            r = await http.post(url, json={"jsonrpc": "2.0", **m})
            log(m.get("method"), r.status_code, r.text[:100])
            await asyncio.sleep(0.1)
            return r

        await send({"id": 1, "method": "initialize", "params": {
            "processId": 4242, "clientInfo": {"name": "nonmcp2-lsp-client", "version": "0.1.0"},
            "rootUri": "file:///ws", "capabilities": {"textDocument": {"hover": {"contentFormat": ["markdown"]}}},
            "workspaceFolders": [{"uri": "file:///ws", "name": "ws"}]}})
        stop = asyncio.Event()
        ev = asyncio.create_task(events(http, url, stop))
        await asyncio.sleep(0.2)
        await send({"method": "initialized", "params": {}})
        doc = {"uri": "file:///ws/calc.py", "languageId": "python", "version": 1,
               "text": "def add(a, b):\n    return a + b\nx = 1\n"}
        await send({"method": "textDocument/didOpen", "params": {"textDocument": doc}})
        pos = {"textDocument": {"uri": doc["uri"]}, "position": {"line": 0, "character": 5}}
        await send({"id": 2, "method": "textDocument/hover", "params": pos})
        await send({"id": 3, "method": "textDocument/completion", "params": pos})
        slow = asyncio.create_task(send({"id": 4, "method": "workspace/symbol", "params": {"query": "add"}}))
        await asyncio.sleep(0.3)
        await send({"method": "$/cancelRequest", "params": {"id": 4}})
        await slow
        await asyncio.sleep(2.2)  # the first event stream ends at 1.5 s, the client reconnects
        await send({"id": 5, "method": "textDocument/hover", "params": pos})
        stop.set()
        await send({"id": 6, "method": "shutdown"})
        await send({"method": "exit"})
        await asyncio.wait_for(ev, 5)


if __name__ == "__main__":
    asyncio.run(asyncio.wait_for(main(sys.argv[1]), 30))
