"""Listing of a nonmcp3 capture (samples/gen/ecosystem/nonmcp3.sh), from tshark:

    python wire.py SERVER-PORT CAPTURE.pcap

The replicas group's listing (../replicas/wire.py, imported from its path, not copied: one line per TCP segment with
a payload or SYN/FIN/RST, Wireshark's 1-based frame numbers, the HTTP/1.1 framing undone as the bytes arrive, each
message head with the fields that matter, each whole JSON body, each complete SSE event with its id:/event:/data:
lines, a request summary at the end), with these head fields added: `content-encoding`, `accept`, `user-agent`,
`upgrade`, `sec-websocket-protocol`, `sec-websocket-extensions`, `x-graphql-event-stream-token` (graphql-sse's
single connection mode), `x-transmission-session-id` (Transmission's RPC), `cache-control`.

After a `101 Switching Protocols` the connection carries WebSocket frames, which the HTTP parser does not read: a
second section lists every WebSocket frame as tshark's websocket dissector decodes it (frame, time, direction, FIN,
opcode, masked, per-message deflated (RSV1), payload length on the wire, the text payload after unmasking and
inflating, as tshark gives it).

`Content-Encoding: none` (graphql-sse sends it on every reply, so that compression middleware leaves the stream
alone; "none" is no registered content coding) is listed as identity (the head line shows the header).
Needs tshark (4.0.17 here).
"""

import importlib.util
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("replicas_wire", os.path.join(HERE, "..", "replicas", "wire.py"))
wire = importlib.util.module_from_spec(spec)
spec.loader.exec_module(wire)

wirelib = sys.modules["wirelib"]
_decoder_init = wirelib.Decoder.__init__


def _decoder_none_is_identity(self, enc):
    _decoder_init(self, "" if (enc or "").lower().strip() == "none" else enc)


wirelib.Decoder.__init__ = _decoder_none_is_identity
wire.HEADERS = wire.HEADERS + ("content-encoding", "accept", "user-agent", "upgrade", "sec-websocket-protocol",
                               "sec-websocket-extensions", "x-graphql-event-stream-token", "x-transmission-session-id",
                               "cache-control")
OPCODES = {"0": "cont", "1": "text", "2": "binary", "8": "close", "9": "ping", "10": "pong"}


def websocket_frames(port: str, path: str) -> None:
    fields = ["frame.number", "frame.time_relative", "tcp.stream", "tcp.dstport", "websocket.fin", "websocket.pmc",
              "websocket.opcode", "websocket.mask", "websocket.payload_length", "websocket.payload.text",
              "websocket.payload.close.status_code"]
    out = subprocess.run(["tshark", "-r", path, "-d", f"tcp.port=={port},http", "-Y", "websocket", "-T", "fields",
                          "-E", "separator=\t", "-E", "occurrence=a", "-E", "aggregator=|"]
                         + [x for f in fields for x in ("-e", f)], check=False, capture_output=True, text=True).stdout
    rows = [line.split("\t") for line in out.splitlines() if line.strip()]
    if not rows:
        return
    print("\n# WebSocket frames (tshark's websocket dissector; c->s frames are masked, RSV1 set = permessage-deflate)")
    print("# frame  time     tcp  dir  fin opcode mask pmd len   payload (unmasked, inflated)")
    for r in rows:
        r += [""] * (len(fields) - len(r))
        num, t, stream, dport, fin, pmc, op, mask, plen, text, close = r[:11]
        arrow = "c->s" if dport == port else "s->c"
        texts = text.split("|") if text else []
        for i, (f, pc, o, m, pl) in enumerate(zip(fin.split("|"), pmc.split("|"), op.split("|"), mask.split("|"),
                                                  plen.split("|"))):
            kind = OPCODES.get(o, o)
            payload = texts.pop(0) if kind == "text" and texts else (f"status {close}" if kind == "close" else "")
            yes = lambda v: "yes" if v in ("1", "True") else "no"  # noqa: E731
            print(f"{num:>6} {float(t):8.3f} s{stream:<3} {arrow} {yes(f):<3} {kind:<6} {yes(m):<4} {yes(pc):<3} "
                  f"{pl:<5} {payload[:wire.CUT]}{'...' if len(payload) > wire.CUT else ''}")


if __name__ == "__main__":
    port, path = sys.argv[1], sys.argv[-1]
    sys.argv = [sys.argv[0], "-", port, path]
    wire.main()
    websocket_frames(port, path)
