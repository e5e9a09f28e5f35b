"""A client that closes its own standalone GET stream and opens it again, written with httpx2 2.17.0 (the Python SDK's
HTTP client in this venv) as an application that watches server notifications does: initialize (2025-11-25),
notifications/initialized, GET /mcp (the standalone stream), tools/call ticker(6, 700) (six `tick i` log notifications
on that stream, 0.7 s apart); after 2 ticks the client closes the GET (drops the connection), waits 1 s, reopens it
with `Last-Event-ID` = the last id it read; after 2 more ticks closes it again, waits 1 s, and reopens it WITHOUT
Last-Event-ID; reads until 4 s of quiet, then DELETE and close.

    python getreopen.py URL
"""

import sys
import time

import httpx2 as httpx

T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


url = sys.argv[1]
H = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def post(c, h, msg):
    with c.stream("POST", url, headers=h, json=msg) as r:
        body = r.read().decode()
        log("POST", msg.get("method"), "->", r.status_code, r.headers.get("content-type"), body[:120].replace("\n", "|"))
        return r


def read_get(c, h, last, ticks, quiet):
    """GET the standalone stream; read events until TICKS ticks were read (then close it), or QUIET seconds pass."""
    hh = dict(h, accept="text/event-stream")
    hh.pop("content-type")
    if last:
        hh["last-event-id"] = last
    seen = 0
    with httpx.Client(timeout=httpx.Timeout(5, read=quiet)) as g:   # its own connection, as the SDKs open it
        try:
            with g.stream("GET", url, headers=hh) as r:
                log("GET", f"last-event-id {last or '-'}", "->", r.status_code, r.headers.get("content-type"))
                eid = None
                for line in r.iter_lines():
                    if line.startswith("id:"):
                        eid = line[3:].strip()
                    elif line.startswith("data:"):
                        log("event", eid, line[5:].strip()[:100])
                        last = eid or last
                        if "tick" in line:
                            seen += 1
                            if seen == ticks:
                                log("closing the GET stream")
                                break
        except httpx.ReadTimeout:
            log(f"GET: {quiet} s without a byte")
    return last


with httpx.Client(timeout=10) as c:
    r = post(c, H, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "situations8-getreopen", "version": "1.0.0"}}})
    sid = r.headers["mcp-session-id"]
    h = dict(H, **{"mcp-session-id": sid, "mcp-protocol-version": "2025-11-25"})
    post(c, h, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    import threading

    def call():
        time.sleep(0.5)
        post(c, h, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "ticker", "arguments": {"n": 6, "ms": 700}}})

    t = threading.Thread(target=call)
    t.start()
    last = read_get(c, h, None, 2, 5)
    t.join()
    time.sleep(1)
    last = read_get(c, h, last, 2, 5)
    time.sleep(1)
    read_get(c, h, None, 99, 4)
    with c.stream("DELETE", url, headers=h) as r:
        log("DELETE ->", r.status_code)
log("done")
