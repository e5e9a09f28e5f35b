"""Listing of an agentsjs or pyservers capture (samples/gen/ecosystem/{agentsjs,pyservers}.sh): the agents group's listing (../agents/wire.py:
../replicas/wire.py with `mcp-method`, `mcp-name` and `user-agent` among the head fields, imported from its path, not
copied), with `accept` among the head fields too (the frameworks' clients differ in what they accept: the TS SDK v2
client's server/discover probe, the SDK 1.x client's POSTs and GETs, the legacy SSE client):

    python wire.py - SERVER-PORT CAPTURE.pcap

Everything else (one line per TCP segment with a payload or SYN/FIN/RST, Wireshark's 1-based frame numbers, what each
segment's bytes complete, the request and session summary) is replicas/wire.py's. Needs tshark (4.0.17 here).
"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("agents_wire", os.path.join(HERE, "..", "agents", "wire.py"))
agents = importlib.util.module_from_spec(spec)
spec.loader.exec_module(agents)
wire = agents.wire  # replicas/wire.py, with the agents group's head fields

wire.HEADERS = wire.HEADERS + ("accept",)

if __name__ == "__main__":
    wire.main()
