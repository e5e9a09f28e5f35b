"""Listing of a rust-sdks3 capture (samples/gen/ecosystem/rust-sdks3.sh): ../replicas/wire.py (imported from its path,
not copied) with no proxy in front (one server port, hop "server"), with the request heads' MCP and client fields
added to the listed head fields (accept, mcp-method, mcp-name, user-agent, cache-control), as ../rust-sdks2/wire.py:

    python wire.py SERVER-PORT CAPTURE.pcap

One line per TCP segment with a payload or SYN/FIN/RST, Wireshark's 1-based frame numbers, time in seconds since the
first frame, the TCP stream (sN), direction, what each segment's bytes complete (message heads, chunk framing, each SSE
event with its id, a `:` comment as an event of its own, each JSON body with its JSON-RPC method/id), then the request
and session summary: all replicas/wire.py's. Needs tshark (4.0.17 here).
"""

import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("replicas_wire", os.path.join(HERE, "..", "replicas", "wire.py"))
wire = importlib.util.module_from_spec(spec)
spec.loader.exec_module(wire)
wire.HEADERS = wire.HEADERS + ("accept", "mcp-method", "mcp-name", "user-agent", "cache-control")

if __name__ == "__main__":
    sys.argv = [sys.argv[0], "-"] + sys.argv[1:]
    wire.main()
