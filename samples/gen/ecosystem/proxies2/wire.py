"""Listing of a proxies2 capture (samples/gen/ecosystem/proxies2.sh): ../replicas/wire.py (imported from its path, not
copied), with the head fields a reverse proxy adds, drops or rewrites among those it lists (cache-control,
content-encoding, via, x-varnish, age, x-forwarded-for, accept, accept-encoding, mcp-method), and its name for the one
upstream ("replica A") read as "backend", as ../relays/wire.py does:

    python wire.py FRONT-PORT BACKEND-PORT CAPTURE.pcap

Both hops are cleartext HTTP/1.1 on loopback: client <-> proxy (FRONT-PORT, "front") and proxy <-> MCP server
(BACKEND-PORT, "backend"). One line per TCP segment with a payload or SYN/FIN/RST, Wireshark's 1-based frame numbers,
time in seconds since the first frame, what each segment's bytes complete (message heads, chunk framing, each SSE
event, a `:` comment as an event of its own, each JSON body), then the request and session summary: all replicas/wire.py's. Needs
tshark (4.0.17 here).
"""

import builtins
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("replicas_wire", os.path.join(HERE, "..", "replicas", "wire.py"))
wire = importlib.util.module_from_spec(spec)
spec.loader.exec_module(wire)
wire.HEADERS = wire.HEADERS + ("cache-control", "content-encoding", "via", "x-varnish", "age", "x-forwarded-for",
                               "accept", "accept-encoding", "mcp-method")


def _print(*args, **kwargs):
    """replicas/wire.py's print, with its name of the single upstream ("replica A") read as "backend" (the listing's
    hop column keeps its width)."""
    builtins.print(*(str(a).replace("replica A ", "backend   ").replace("replica A", "backend") for a in args), **kwargs)


wire.print = _print  # module globals are looked up before builtins: only wire.main's output changes

if __name__ == "__main__":
    wire.main()
