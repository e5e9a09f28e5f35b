"""Listing of a buffering capture (samples/gen/ecosystem/buffering.sh): the replicas group's listing (../replicas/wire.py,
imported from its path, not copied), both hops (client <-> intermediary on FRONT-PORT, intermediary <-> MCP server on
BACK-PORT), with the message-head fields this group is about added: `content-encoding`, `cache-control`, `vary`
(what the compressor did and why), `via` and `user-agent`:

    python wire.py FRONT-PORT BACK-PORT CAPTURE.pcap

Bodies are followed as they arrive: HTTP/1.1 framing, then Content-Encoding (gzip / deflate by ../wirelib.py's
streaming decoders), then SSE events, so each event is listed in the frame where it really becomes readable.
Frame numbers are 1-based, as Wireshark numbers them. Needs tshark (4.0.17 here).
"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("replicas_wire", os.path.join(HERE, "..", "replicas", "wire.py"))
wire = importlib.util.module_from_spec(spec)
spec.loader.exec_module(wire)

wire.HEADERS = wire.HEADERS + ("content-encoding", "cache-control", "vary", "via", "user-agent")

if __name__ == "__main__":
    wire.main()
