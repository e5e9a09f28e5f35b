"""Listing of an asgi2 capture (samples/gen/ecosystem/asgi2.sh): the egress group's listing (../egress/wire.py, imported
from its path, not copied: ../replicas/wire.py's segment walk with the agents and egress groups' head fields, TLS
decrypted with the capture's key log when CAPTURE.keys is beside it, CONNECT tunnels followed), with `proxy-connection`,
`keep-alive`, `x-forwarded-proto` and `forwarded` among the head fields too:

    python wire.py FRONT-PORT SERVER-PORT CAPTURE.pcap     (FRONT-PORT "-": the client talks to the server directly)

FRONT-PORT is the intermediary (stunnel, privoxy: "front"), SERVER-PORT the ASGI server ("backend", or "server" when
there is no front). A stream whose first byte is a TLS record is read as TLS (stunnel's front); a cleartext stream
becomes TLS after a CONNECT is answered 2xx (privoxy). Needs tshark (4.0.17 here).
"""

import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("egress_wire", os.path.join(HERE, "..", "egress", "wire.py"))
egress = importlib.util.module_from_spec(spec)
spec.loader.exec_module(egress)
egress.wire.HEADERS = egress.wire.HEADERS + ("proxy-connection", "keep-alive", "x-forwarded-proto", "forwarded")

if __name__ == "__main__":
    keys = os.path.splitext(sys.argv[-1])[0] + ".keys"
    if os.path.exists(keys):
        egress.KEYS = keys
        egress.wire.h1_segments = egress.tunnel_segments
    egress.wire.main()
