"""Listing of a tls2 capture (samples/gen/ecosystem/tls2.sh): the asgi2 group's listing (../asgi2/wire.py, imported
from its path, not copied: ../egress/wire.py's TLS-aware segment walk over ../replicas/wire.py, TLS decrypted with
the key log beside the capture), with one change for TLS 1.2. egress/wire.py takes a record for an encrypted one
when tshark shows it an `opaque_type` (TLS 1.3's outer record type); TLS 1.2 records have none, so a TLS 1.2 capture
was listed without any of its requests. Here a TLS 1.2 record counts as encrypted when it follows the
ChangeCipherSpec of its direction and is no Client/ServerHello (the encrypted Finished, application data, alerts: tshark shows a "Decrypted TLS"
block for each, in record order), and application data (type 23) is fed to the HTTP/1.1 parser as before:

    python wire.py FRONT-PORT SERVER-PORT CAPTURE.pcap     (FRONT-PORT "-": the client talks to the server directly)

A connection whose secrets are not in the key log is listed with "(encrypted record not decrypted)" notes.
Needs tshark (4.0.17 here).
"""

import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("asgi2_wire", os.path.join(HERE, "..", "asgi2", "wire.py"))
asgi2 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(asgi2)
egress = asgi2.egress

_find_all = egress.find_all
_ccs = set()  # (tcp stream, to_server) whose ChangeCipherSpec has been seen
_current = {}  # the packet being walked: its stream and direction, set by the json reader below
_tshark_json = egress.tshark_json


def _json_tracking(*args, **kwargs):
    """egress's tshark_json, noting each packet's tcp stream and direction before tunnel_segments reads it."""
    for pkt in _tshark_json(*args, **kwargs):
        layers = pkt["_source"]["layers"]
        tcp = layers.get("tcp")
        if tcp:
            _current["key"] = (tcp["tcp.stream"], tcp["tcp.dstport"])
        yield pkt


def _hello(rec):
    """Whether a record holds a ClientHello or ServerHello (cleartext even after a TLS 1.3 middlebox-compatibility
    ChangeCipherSpec: a HelloRetryRequest's CCS is followed by the second ClientHello and the real ServerHello)."""
    return any(str(h.get("tls.handshake.type")) in ("1", "2") for h in _find_all(rec, "tls.handshake")
               if isinstance(h, dict))


def _find_all_tls12(obj, name):
    """find_all, whose TLS records after a TLS 1.2 ChangeCipherSpec carry a stand-in `tls.record.opaque_type` (so
    egress's walk pairs them with their decrypted blocks)."""
    found = _find_all(obj, name)
    if name != "tls.record":
        return found
    key = _current.get("key")
    out = []
    for rec in found:
        if isinstance(rec, dict) and "tls.record.opaque_type" not in rec and not _hello(rec):
            if key in _ccs:
                rec = dict(rec, **{"tls.record.opaque_type": rec.get("tls.record.content_type")})
            elif rec.get("tls.record.content_type") == "20":
                _ccs.add(key)
        out.append(rec)
    return out


egress.find_all = _find_all_tls12
egress.tshark_json = _json_tracking

if __name__ == "__main__":
    keys = os.path.splitext(sys.argv[-1])[0] + ".keys"
    if os.path.exists(keys):
        egress.KEYS = keys
        egress.wire.h1_segments = egress.tunnel_segments
    egress.wire.main()
