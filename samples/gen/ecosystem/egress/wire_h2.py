"""Listing of an egress capture with HTTP/2 inside its CONNECT tunnels (samples/gen/ecosystem/egress.sh
squid-connect-h2): egress/wire.py reads HTTP/1.1 only (its tunnel walk feeds the decrypted bytes to an HTTP/1.1
parser), so this lists the wire as the h2tls and h2more groups' listings do, with h2tls/describe_h2.py's frame
description (`h2_frame`, imported from its path, not copied) over tshark's JSON decrypted with the key log beside the
capture (CAPTURE.keys), and adds what describe_h2.py does not show: the HTTP/1.1 CONNECT exchanges on the front
(request line and Host, status line) and wire.py's columns (TCP stream, direction, server port, hop: the PROXY-PORT
is squid, "front"; the SERVER-PORT the server behind it, "backend"):

    python wire_h2.py PROXY-PORT SERVER-PORT CAPTURE.pcap

One line per frame with a SYN/FIN/RST, a CONNECT request or reply, a TLS handshake message or alert, an HTTP/2
frame or a record tshark could not decrypt (Wireshark's 1-based frame numbers; TCP flags, payload length, TLS
handshake messages and the ALPN offered or chosen, a TCP retransmission as tshark's TCP analysis flags it); under it,
the CONNECT request or status line as wire.py's HEAD lines, and one line per HTTP/2 frame tshark decoded in it (the
stream id, flags, decoded header list, each DATA frame's own bytes), as describe_h2.py prints them. Pure ACKs are
left out. Needs tshark (4.0.17 here).
"""

import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from wirelib import find_all, h2_frames, tcp_words, tls_words, tshark_json  # noqa: E402  (../wirelib.py)

spec = importlib.util.spec_from_file_location("describe_h2", os.path.join(HERE, "..", "h2tls", "describe_h2.py"))
describe_h2 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(describe_h2)


def http1_heads(http):
    """The CONNECT request line and Host, or the status line, of a tshark JSON http layer (HTTP/1.1 on the front), as
    wire.py's HEAD lines."""
    heads = []
    for method, uri, version in zip(find_all(http, "http.request.method"), find_all(http, "http.request.uri"),
                                    find_all(http, "http.request.version")):
        hosts = find_all(http, "http.host")
        heads.append(f"HEAD {method} {uri} {version}" + (f" | host: {hosts[0]}" if hosts else ""))
    for version, code, phrase in zip(find_all(http, "http.response.version"), find_all(http, "http.response.code"),
                                     find_all(http, "http.response.phrase")):
        heads.append(f"HEAD {version} {code} {phrase}")
    return heads


def main() -> None:
    proxy, server, pcap = sys.argv[1], sys.argv[2], sys.argv[3]
    ports = {proxy: "front", server: "backend"}
    keys = os.path.splitext(pcap)[0] + ".keys"
    opts = ["-o", f"tls.keylog_file:{keys}"] if os.path.exists(keys) else []
    how = f"TLS decrypted with {os.path.basename(keys)}" if opts else "no key log"
    print(f"# {pcap}: TCP SYN/FIN/RST, HTTP/1.1 CONNECT, TLS handshake, HTTP/2 frames (tshark, {how}; h2 frames as "
          f"h2tls/describe_h2.py prints them) (:{proxy} = front, :{server} = backend)")
    print("# frame  time     tcp  dir  port   hop        what")
    for p in tshark_json(pcap, *opts):
        layers = p["_source"]["layers"]
        tcp = layers.get("tcp")
        if not tcp:
            continue
        num = int(layers["frame"]["frame.number"])
        t = float(layers["frame"]["frame.time_relative"])
        to_server = tcp["tcp.dstport"] in ports
        port = tcp["tcp.dstport"] if to_server else tcp["tcp.srcport"]
        length = int(tcp.get("tcp.len", "0"))
        what = tcp_words(tcp) + ([f"len={length}"] if length else [])
        if find_all(tcp, "tcp.analysis.retransmission") or find_all(tcp, "tcp.analysis.fast_retransmission"):
            what.append("TCP retransmission")
        tls = layers.get("tls")
        what += tls_words(tls)
        h2 = layers.get("http2")
        if tls and not h2 and find_all(tls, "tls.app_data") and not find_all(tls, "tls.app_data_proto"):
            what.append("TLS application data (not decrypted)")
        lines = http1_heads(layers.get("http"))
        if find_all(h2, "http2.magic"):
            lines.append("h2 preface (client magic)")
        lines += [describe_h2.h2_frame(st) for st in h2_frames(h2)]
        if not (tcp_words(tcp) or lines or tls_words(tls) or "TLS application data (not decrypted)" in what):
            continue
        print(f"{num:>6} {t:8.3f} s{tcp['tcp.stream']:<3} {'c->s' if to_server else 's->c'} :{port:<5} "
              f"{ports.get(port, port):<10} {' '.join(what)}")
        for line in lines:
            print(" " * 42 + line)

if __name__ == "__main__":
    main()
