"""Listing of a vhosts capture (samples/gen/ecosystem/vhosts.sh): the agents group's listing (../agents/wire.py:
../replicas/wire.py with `mcp-method`, `mcp-name` and `user-agent` among the head fields, imported from its path, not
copied), with `host` (which virtual host a request names: the point of this group), `accept` (a browser's fetch vs an
MCP client's) and `location` among the head fields too, and its hops named after what they are: FRONT-PORT is nginx
("front"), each other PORT an upstream of it, named NAME (at most 10 characters; replicas/wire.py calls them "replica
A", "replica B", ... in the order given, the only change made to its output):

    python wire.py FRONT-PORT PORT=NAME [PORT=NAME...] CAPTURE.pcap

An upstream port where nothing listens shows as nginx's SYN answered by RST. Everything else (one line per TCP
segment with a payload or SYN/FIN/RST, Wireshark's 1-based frame numbers, what each segment's bytes complete, a TCP
retransmission listed as such and not parsed again, the request and session summary) is replicas/wire.py's. Needs
tshark (4.0.17 here).
"""

import builtins
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("agents_wire", os.path.join(HERE, "..", "agents", "wire.py"))
agents = importlib.util.module_from_spec(spec)
spec.loader.exec_module(agents)
wire = agents.wire  # replicas/wire.py, with the agents group's head fields

wire.HEADERS = wire.HEADERS + ("host", "accept", "location")
NAMES = {}  # "replica A" -> the upstream's name, from the command line


def _print(*args, **kwargs):
    """replicas/wire.py's print, with its names of the upstreams read as the names given (the listing's hop column
    keeps its width of 10)."""
    out = []
    for a in args:
        s = str(a)
        for replica, name in NAMES.items():
            s = s.replace(replica + " ", f"{name:<10}").replace(replica, name)
        out.append(s)
    builtins.print(*out, **kwargs)


wire.print = _print  # module globals are looked up before builtins: only wire.main's output changes

if __name__ == "__main__":
    argv = []
    for i, arg in enumerate(sys.argv):
        if 1 < i < len(sys.argv) - 1:
            port, _, name = arg.partition("=")
            assert name and len(name) <= 10, f"want PORT=NAME (NAME at most 10 characters), got {arg!r}"
            NAMES["replica " + "ABCDEFGH"[len(NAMES)]] = name
            arg = port
        argv.append(arg)
    sys.argv = argv
    wire.main()
