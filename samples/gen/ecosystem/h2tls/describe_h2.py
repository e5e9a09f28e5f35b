"""Listing of an HTTP/2 capture of the h2tls and h2more groups (samples/gen/ecosystem/h2tls.sh, h2more.sh):
describe.py reads neither TLS nor HTTP/2, so this lists the wire with tshark instead, decrypted with the capture's
key log. A capture without a key log beside it is cleartext h2c, and tshark (which does not look for the h2 preface
on an arbitrary port) is told to decode the server ports (those the SYNs go to) as HTTP/2."""

import json
import os
import subprocess
import sys

H2_TYPES = {0: "DATA", 1: "HEADERS", 2: "PRIORITY", 3: "RST_STREAM", 4: "SETTINGS", 5: "PUSH_PROMISE", 6: "PING",
            7: "GOAWAY", 8: "WINDOW_UPDATE", 9: "CONTINUATION"}
HS_TYPES = {1: "ClientHello", 2: "ServerHello", 4: "NewSessionTicket", 8: "EncryptedExtensions", 11: "Certificate",
            12: "ServerKeyExchange", 13: "CertificateRequest", 14: "ServerHelloDone", 15: "CertificateVerify",
            16: "ClientKeyExchange", 20: "Finished"}
SETTINGS = {1: "HEADER_TABLE_SIZE", 2: "ENABLE_PUSH", 3: "MAX_CONCURRENT_STREAMS", 4: "INITIAL_WINDOW_SIZE",
            5: "MAX_FRAME_SIZE", 6: "MAX_HEADER_LIST_SIZE", 8: "ENABLE_CONNECT_PROTOCOL"}


def as_list(x):
    if x is None:
        return []
    return x if isinstance(x, list) else [x]


def find_all(obj, key):
    """Every value of KEY anywhere in the nested tshark JSON object."""
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == key:
                out.extend(as_list(v))
            else:
                out.extend(find_all(v, key))
    elif isinstance(obj, list):
        for v in obj:
            out.extend(find_all(v, key))
    return out


def text_of(hexstr):
    raw = bytes.fromhex(hexstr.replace(":", "")) if hexstr else b""
    return raw.decode("utf-8", "replace").replace("\r", "\\r").replace("\n", "\\n")


def h2_frame(st):
    typ = int(st.get("http2.type", -1))
    name = H2_TYPES.get(typ, f"type{typ}")
    sid = st.get("http2.streamid", "?")
    flags = int(st.get("http2.flags", "0x0"), 16)
    fl = []
    if typ in (0, 1) and flags & 0x1:
        fl.append("END_STREAM")
    if typ == 1 and flags & 0x4:
        fl.append("END_HEADERS")
    if typ in (4, 6) and flags & 0x1:
        fl.append("ACK")
    s = f"{name}[{sid}]" + (" " + ",".join(fl) if fl else "")
    if typ == 1 or typ == 9:
        hs = [f"{h.get('http2.header.name')}: {h.get('http2.header.value', '')}" for h in as_list(st.get("http2.header"))]
        s += " {" + "; ".join(hs) + "}"
    elif typ == 0:
        # tshark hangs the whole reassembled body on the stream's last DATA frame: keep this frame's own bytes.
        n = int(st.get("http2.length", "0")) - int(st.get("http2.pad_length", "0") or 0)
        raw = bytes.fromhex(st.get("http2.data.data", "").replace(":", ""))
        s += f" len={n}"
        if n > 0:
            s += " |" + text_of(raw[-n:].hex()) + "|"
    elif typ == 3:
        s += f" error={st.get('http2.rst_stream.error')}"
    elif typ == 7:
        s += f" last_stream={st.get('http2.goaway.last_stream_id')} error={st.get('http2.goaway.error')}"
    elif typ == 8:
        s += f" +{st.get('http2.window_update.window_size_increment')}"
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
    out = subprocess.run(["tshark", "-r", pcap, *opts, "-T", "json", "--no-duplicate-keys"],
                         check=True, capture_output=True, text=True).stdout
    print(f"# {pcap}: TCP SYN/FIN/RST, {head}")
    print("# frame  time      src>dst       what")
    for p in json.loads(out):
        l = p["_source"]["layers"]
        num = l["frame"]["frame.number"]
        t = float(l["frame"]["frame.time_relative"])
        tcp = l.get("tcp", {})
        ports = f"{tcp.get('tcp.srcport')}>{tcp.get('tcp.dstport')}"
        bits = int(tcp.get("tcp.flags", "0x0"), 16)
        what = []
        if bits & 0x2:
            what.append("SYN" + ("+ACK" if bits & 0x10 else ""))
        if bits & 0x1:
            what.append("FIN")
        if bits & 0x4:
            what.append("RST")
        tls = l.get("tls")
        for ht in find_all(tls, "tls.handshake.type"):
            what.append("TLS " + HS_TYPES.get(int(ht), f"handshake{ht}"))
        alpn = find_all(tls, "tls.handshake.extensions_alpn_str")
        if alpn:
            what.append("ALPN " + ",".join(alpn))
        if any(str(c) == "21" for c in find_all(tls, "tls.record.content_type")):
            what.append("TLS Alert")
        h2 = l.get("http2")
        frames = [st for layer in as_list(h2) for st in as_list(layer.get("http2.stream"))] if h2 else []
        magic = find_all(h2, "http2.magic")
        if magic:
            what.append("h2 preface (client magic)")
        for st in frames:
            if "http2.type" in st:
                what.append(h2_frame(st))
        if tls and not h2 and find_all(tls, "tls.app_data") and not find_all(tls, "tls.handshake.type"):
            protos = find_all(tls, "tls.app_data_proto")
            if not protos:
                what.append("TLS application data (not decrypted)")
        if not what:
            continue
        print(f"{num:>6} {t:9.6f} {ports:>12}  " + "\n                                   ".join(what))


if __name__ == "__main__":
    main()
