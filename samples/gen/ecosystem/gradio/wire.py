"""Listing of a gradio capture (samples/gen/ecosystem/gradio.sh): the agents group's listing (../agents/wire.py:
../replicas/wire.py with `mcp-method`, `mcp-name` and `user-agent` among the head fields, imported from its path, not
copied), with `accept` (an MCP client's GET vs a browser's: Gradio answers a GET of its MCP URL without
text/event-stream with an HTML landing page), `content-encoding` (Gradio's app carries a brotli/gzip middleware) and
`x-gradio-user` (Gradio's MCP server calls its own queue API through gradio_client with `x-gradio-user: mcp`) among
the head fields too:

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

wire.HEADERS = wire.HEADERS + ("accept", "content-encoding", "x-gradio-user")

if __name__ == "__main__":
    wire.main()
