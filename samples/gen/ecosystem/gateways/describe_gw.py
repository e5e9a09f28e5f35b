"""samples/gen/py/describe.py for captures that begin mid-session (gateways-nginx-keepalive).

describe.py takes the sender of a connection's first captured frame as its client; on a connection picked up
mid-stream that frame may come from the server. This wrapper runs describe.py unchanged, after putting an empty
client->server frame (same frame number, no payload, no flags) in front of every connection whose first
captured frame was sent from a server port (18300-18399, this group's range), and, on connections without a
SYN, hides the payload of each direction until the first segment that starts an HTTP message (a request line or
a status line): the tail of a message in progress when the capture began is not listed. Output is the same as
describe.py's for captures that hold every connection's handshake.

    python describe_gw.py FILE.pcap      (run from samples/ecosystem, like describe.py)
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "py"))
import describe  # noqa: E402

_read_frames = describe.read_frames


STARTS = (b"HTTP/1.", b"GET ", b"POST ", b"DELETE ", b"PUT ", b"HEAD ", b"OPTIONS ", b"PATCH ")


def read_frames(path):
    seen = set()
    aligned = set()  # (stream, src port) directions whose HTTP messages are in step
    for f in _read_frames(path):
        st = f["tcp.stream"]
        key = (st, f["tcp.srcport"])
        if f["tcp.flags.syn"] in ("1", "True"):
            aligned.add(key)
        elif key not in aligned and f["tcp.payload"]:
            if bytes.fromhex(f["tcp.payload"].replace(":", "")).startswith(STARTS):
                aligned.add(key)
            else:
                f = dict(f, **{"tcp.payload": ""})
        if st not in seen:
            seen.add(st)
            if 18300 <= int(f["tcp.srcport"]) <= 18399 and not 18300 <= int(f["tcp.dstport"]) <= 18399:
                yield dict(f, **{"ip.src": f["ip.dst"], "tcp.srcport": f["tcp.dstport"], "ip.dst": f["ip.src"],
                                 "tcp.dstport": f["tcp.srcport"], "tcp.flags.fin": "0", "tcp.flags.reset": "0",
                                 "tcp.flags.syn": "0", "tcp.payload": ""})
        yield f


describe.read_frames = read_frames
if __name__ == "__main__":
    for p in sys.argv[1:]:
        describe.describe(p)
        print()
