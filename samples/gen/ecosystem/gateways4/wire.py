"""Listing of a gateways4 capture (samples/gen/ecosystem/gateways4.sh): the agentsjs group's listing (../agentsjs/wire.py,
which is the agents group's ../replicas/wire.py with `mcp-method`, `mcp-name`, `user-agent` and `accept` among the
head fields), imported from its path, not copied:

    python wire.py PORT... CAPTURE.pcap

One line per TCP segment with a payload or SYN/FIN/RST (Wireshark's 1-based frame numbers), each message head, each
whole JSON body, each complete SSE event, and the request and session summary. Needs tshark.
"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("agentsjs_wire", os.path.join(HERE, "..", "agentsjs", "wire.py"))
agentsjs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(agentsjs)

if __name__ == "__main__":
    agentsjs.wire.main()
