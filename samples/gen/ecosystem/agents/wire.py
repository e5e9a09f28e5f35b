"""Listing of an agents, agents2, servers or relays capture (samples/gen/ecosystem/{agents,agents2,servers,relays}.sh): the replicas group's listing (../replicas/wire.py,
imported from its path, not copied), whose message-head fields here add `mcp-method`, `mcp-name` (2026-07-28 clients
send them) and `user-agent` (which HTTP client is talking):

    python wire.py - SERVER-PORT CAPTURE.pcap

Everything else (one line per TCP segment with a payload or SYN/FIN/RST, Wireshark's 1-based frame numbers, what each
segment's bytes complete, a TCP retransmission listed as such and not parsed again, the request and session summary)
is replicas/wire.py's. Needs tshark (4.0.17 here).
"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("replicas_wire", os.path.join(HERE, "..", "replicas", "wire.py"))
wire = importlib.util.module_from_spec(spec)
spec.loader.exec_module(wire)

wire.HEADERS = wire.HEADERS + ("mcp-method", "mcp-name", "user-agent")

if __name__ == "__main__":
    wire.main()
