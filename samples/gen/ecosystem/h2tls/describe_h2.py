"""Listing of an HTTP/2 capture of the h2tls and h2more groups (samples/gen/ecosystem/h2tls.sh, h2more.sh):
describe.py reads neither TLS nor HTTP/2, so this lists the wire with tshark instead, decrypted with the capture's
key log. A capture without a key log beside it is cleartext h2c, and tshark (which does not look for the h2 preface
on an arbitrary port) is told to decode the server ports (those the SYNs go to) as HTTP/2."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wirelib import (as_list, escape, find_all, h2_control, h2_data_len, h2_frames, h2_head,  # noqa: E402
                     h2_headers, tcp_words, tls_words, tshark_json, unhex)

SETTINGS = {1: "HEADER_TABLE_SIZE", 2: "ENABLE_PUSH", 3: "MAX_CONCURRENT_STREAMS", 4: "INITIAL_WINDOW_SIZE",
            5: "MAX_FRAME_SIZE", 6: "MAX_HEADER_LIST_SIZE", 8: "ENABLE_CONNECT_PROTOCOL"}


def h2_frame(st):
    typ, _, _, s = h2_head(st)
    if typ == 1 or typ == 9:
        s += " {" + "; ".join(f"{k}: {v}" for k, v in h2_headers(st)) + "}"
    elif typ == 0:
        # tshark hangs the whole reassembled body on the stream's last DATA frame: keep this frame's own bytes.
        n = h2_data_len(st)
        raw = unhex(st.get("http2.data.data", ""))
        s += f" len={n}"
        if n > 0:
            s += " |" + escape(raw[-n:].decode("utf-8", "replace")) + "|"
    elif typ == 4:
        ids = find_all(st, "http2.settings.id")
        vals = []
        for setting in as_list(st.get("http2.settings")):
            for k, v in setting.items():
                if k.startswith("http2.settings.") and k not in ("http2.settings.id",):
                    vals.append(v)
                    break
        pairs = [f"{SETTINGS.get(int(i, 16) if i.startswith('0x') else int(i), i)}={v}" for i, v in zip(ids, vals)]
        if pairs:
            s += " " + ",".join(pairs)
    else:
        s += h2_control(typ, st)
    return s


def main() -> None:
    pcap = sys.argv[1]
    keys = pcap.rsplit(".", 1)[0] + ".keys"
    if os.path.exists(keys):
        opts = ["-o", f"tls.keylog_file:{keys}"]
        head = f"TLS handshake, decrypted HTTP/2 frames (tshark, key log {keys})"
    else:
        syn = subprocess.run(["tshark", "-r", pcap, "-Y", "tcp.flags.syn == 1 && tcp.flags.ack == 0", "-T", "fields",
                              "-e", "tcp.dstport"], check=True, capture_output=True, text=True).stdout.split()
        opts = [a for port in sorted(set(syn)) for a in ("-d", f"tcp.port=={port},http2")]
        head = f"cleartext HTTP/2 frames (tshark, ports {','.join(sorted(set(syn)))} decoded as h2c)"
    packets = tshark_json(pcap, *opts)
    print(f"# {pcap}: TCP SYN/FIN/RST, {head}")
    print("# frame  time      src>dst       what")
    for p in packets:
        l = p["_source"]["layers"]
        num = l["frame"]["frame.number"]
        t = float(l["frame"]["frame.time_relative"])
        tcp = l.get("tcp", {})
        ports = f"{tcp.get('tcp.srcport')}>{tcp.get('tcp.dstport')}"
        what = tcp_words(tcp)
        tls = l.get("tls")
        what += tls_words(tls)
        h2 = l.get("http2")
        if find_all(h2, "http2.magic"):
            what.append("h2 preface (client magic)")
        what += [h2_frame(st) for st in h2_frames(h2)]
        if tls and not h2 and find_all(tls, "tls.app_data") and not find_all(tls, "tls.handshake.type"):
            protos = find_all(tls, "tls.app_data_proto")
            if not protos:
                what.append("TLS application data (not decrypted)")
        if not what:
            continue
        print(f"{num:>6} {t:9.6f} {ports:>12}  " + "\n                                   ".join(what))


if __name__ == "__main__":
    main()
