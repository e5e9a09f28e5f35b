"""Listing of a relays capture (samples/gen/ecosystem/relays.sh): the agents group's listing (../agents/wire.py:
../replicas/wire.py with `mcp-method`, `mcp-name` and `user-agent` among the head fields, imported from its path, not
copied), whose hop names here say what the hops are: the FRONT-PORT is the intermediary ("front": mitmproxy, mcpo,
the FastMCP proxy), the one BACKEND-PORT the Python SDK server behind it ("backend"; replicas/wire.py calls it
"replica A", the only change made to its output):

    python wire.py FRONT-PORT BACKEND-PORT CAPTURE.pcap

Everything else (one line per TCP segment with a payload or SYN/FIN/RST, Wireshark's 1-based frame numbers, what each
segment's bytes complete, a TCP retransmission listed as such and not parsed again, the request and session summary)
is replicas/wire.py's. Needs tshark (4.0.17 here).
"""

import builtins
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("agents_wire", os.path.join(HERE, "..", "agents", "wire.py"))
agents = importlib.util.module_from_spec(spec)
spec.loader.exec_module(agents)
wire = agents.wire  # replicas/wire.py, with the agents group's head fields


def _print(*args, **kwargs):
    """replicas/wire.py's print, with its name of the single upstream ("replica A") read as "backend" (the listing's
    hop column keeps its width)."""
    builtins.print(*(str(a).replace("replica A ", "backend   ").replace("replica A", "backend") for a in args), **kwargs)


wire.print = _print  # module globals are looked up before builtins: only wire.main's output changes

if __name__ == "__main__":
    wire.main()
