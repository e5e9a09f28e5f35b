"""Wrap the frames of a real Ethernet capture in a tunnel, frame for frame (capture_tunnels.sh).

    python encap.py KIND IN.pcap OUT.pcap      # KIND: geneve, gre, erspan2, erspan3, ipip
    python encap.py list FILE.pcap [TSHARK-OPTION...]
    python encap.py same VXLAN.pcap OVERLAY.pcap

The kernel the tunnelled samples were made on has only the vxlan link type (no geneve, gre, gretap, erspan or
ipip), so for these tunnels the encapsulation is written here: IN is the decapsulated overlay capture of a real
session (tcpdump on the VXLAN device), and OUT holds the same frames, in the same order and with the same
timestamps (frame N of OUT is frame N of IN), each inside an outer stack built with scapy:

    geneve   Ethernet / IPv4 / UDP 6081 / GENEVE (proto 0x6558, VNI 4242, one 8-byte option TLV) / inner Ethernet
    gre      Ethernet / IPv4 / GRE (K bit, key 0x2a, proto 0x6558) / inner Ethernet
    erspan2  Ethernet / IPv4 / GRE (S bit, sequence, proto 0x88be) / ERSPAN type II (ver 1, VLAN 0) / inner Ethernet
    erspan3  Ethernet / IPv4 / GRE (S bit, sequence, proto 0x22eb) / ERSPAN type III (ver 2, O bit)
             / platform-specific subheader (8 bytes, platform id 3) / inner Ethernet
    ipip     Ethernet / IPv6 (next header 4, RFC 2473) / inner IPv4 packet (its Ethernet header dropped)

The inner frames are copied byte for byte (scapy builds only the outer headers; the pcap file itself is read and
written with struct, so the microsecond timestamps are exact). Outer addresses are documentation ranges
(192.0.2.0/24, 198.51.100.0/24, 2001:db8::/32), outer MACs locally administered; outer IPv4 and UDP checksums are
computed. GENEVE, GRE and IP-in-IP are point-to-point tunnels: the outer direction follows the inner one (the
client side's endpoint is 192.0.2.1 / 2001:db8:a::1). ERSPAN is a one-way mirror: every frame goes from the
"switch" 192.0.2.10 to the "collector" 198.51.100.20, and the ERSPAN III D bit tells the inner direction
(0: towards the server, 1: back to the client).

`list` prints, per frame, the outer stack and the inner TCP/HTTP as tshark dissects them (1-based frame
numbers as Wireshark shows them); extra arguments (e.g. `-d udp.port==8472,vxlan`) are passed to tshark.

`same` checks that a real VXLAN capture (the underlay, tcpdump on the veth) carries exactly the frames of the
overlay capture made at the same time on the VXLAN device: strip each frame's outer Ethernet / IPv4 / UDP /
VXLAN (50 bytes) and compare, frame by frame, with the overlay's frames (bytes only: the two tcpdumps stamp
each frame a few microseconds apart).
"""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib

PCAP_MAGIC_USEC = 0xA1B2C3D4
LINKTYPE_ETHERNET = 1

MAC_A, MAC_B = "02:00:00:00:0a:01", "02:00:00:00:0b:01"        # outer MACs, locally administered
MAC_SWITCH, MAC_COLLECTOR = "02:00:00:00:0e:01", "02:00:00:00:0e:02"
IP_A, IP_B = "192.0.2.1", "198.51.100.1"                        # tunnel endpoints (client side, server side)
IP_SWITCH, IP_COLLECTOR = "192.0.2.10", "198.51.100.20"          # ERSPAN source and destination
IP6_A, IP6_B = "2001:db8:a::1", "2001:db8:b::1"


# --------------------------------------------------------------------------- pcap (struct, exact timestamps)
def read_pcap(path: str):
    """(ts_sec, ts_usec, orig_len, frame bytes) per record of a little- or big-endian microsecond pcap."""
    with open(path, "rb") as f:
        data = f.read()
    magic_le = struct.unpack("<I", data[:4])[0]
    if magic_le == PCAP_MAGIC_USEC:
        e = "<"
    elif struct.unpack(">I", data[:4])[0] == PCAP_MAGIC_USEC:
        e = ">"
    else:
        raise SystemExit(f"{path}: not a microsecond pcap file")
    linktype = struct.unpack(e + "I", data[20:24])[0]
    if linktype != LINKTYPE_ETHERNET:
        raise SystemExit(f"{path}: link type {linktype}, want Ethernet (1)")
    off, frames = 24, []
    while off + 16 <= len(data):
        sec, usec, incl, orig = struct.unpack(e + "IIII", data[off:off + 16])
        frame = data[off + 16:off + 16 + incl]
        if incl != orig:
            raise SystemExit(f"{path}: a truncated frame (incl {incl} < orig {orig}); capture with -s 0")
        frames.append((sec, usec, frame))
        off += 16 + incl
    return frames


def write_pcap(path: str, records) -> None:
    with open(path, "wb") as f:
        # as tcpdump writes it: little-endian, version 2.4, snaplen 262144, Ethernet
        f.write(struct.pack("<IHHiIII", PCAP_MAGIC_USEC, 2, 4, 0, 0, 262144, LINKTYPE_ETHERNET))
        for sec, usec, frame in records:
            f.write(struct.pack("<IIII", sec, usec, len(frame), len(frame)))
            f.write(frame)


# --------------------------------------------------------------------------- the inner frames
def inner_ipv4(frame: bytes):
    """(src, dst, proto, sport, dport) of an Ethernet/IPv4 frame, or None."""
    if len(frame) < 34 or frame[12:14] != b"\x08\x00":
        return None
    ihl = (frame[14] & 0x0F) * 4
    src, dst = frame[26:30], frame[30:34]
    proto = frame[23]
    ports = struct.unpack("!HH", frame[14 + ihl:14 + ihl + 4]) if proto in (6, 17) else (0, 0)
    return src, dst, proto, ports[0], ports[1]


def flow_port(flow) -> int:
    """A UDP source port from a hash of the inner flow, in 49152-65535 (as tunnel endpoints do, RFC 8926 3.3),
    the same for both directions of one connection."""
    src, dst, proto, sport, dport = flow
    a, b = sorted([(src, sport), (dst, dport)])
    key = a[0] + b[0] + struct.pack("!BHH", proto, a[1], b[1])
    return 49152 + zlib.crc32(key) % 16384


# --------------------------------------------------------------------------- the outer stacks
def encapsulate(kind: str, records):
    from scapy.contrib.erspan import ERSPAN_II, ERSPAN_III, ERSPAN_PlatformSpecific
    from scapy.contrib.geneve import GENEVE, GeneveOptions
    from scapy.layers.inet import IP, UDP
    from scapy.layers.inet6 import IPv6
    from scapy.layers.l2 import GRE, Ether
    from scapy.packet import Raw

    client_ip = None
    ip_id = {"a": 0x1000, "b": 0x5000, "m": 0x2000}
    out = []
    for n, (sec, usec, frame) in enumerate(records):
        flow = inner_ipv4(frame)
        if flow is None:
            raise SystemExit(f"frame {n + 1}: not IPv4 over Ethernet; the overlay capture should hold TCP only")
        if client_ip is None:
            client_ip = flow[0]  # the first frame is the client's SYN (the capture starts before the client)
        to_server = flow[0] == client_ip

        def ipv4(side_src: str, src: str, dst: str, proto: int):
            ip_id[side_src] = (ip_id[side_src] + 1) & 0xFFFF
            return IP(src=src, dst=dst, id=ip_id[side_src], flags="DF", ttl=64, proto=proto)

        if kind == "ipip":
            # RFC 2473: the inner IPv4 packet (no Ethernet header) is the IPv6 payload, next header 4
            src, dst = (IP6_A, IP6_B) if to_server else (IP6_B, IP6_A)
            mac_s, mac_d = (MAC_A, MAC_B) if to_server else (MAC_B, MAC_A)
            pkt = Ether(src=mac_s, dst=mac_d, type=0x86DD) / IPv6(src=src, dst=dst, nh=4, hlim=64) / Raw(frame[14:])
        elif kind in ("geneve", "gre"):
            side = "a" if to_server else "b"
            src, dst = (IP_A, IP_B) if to_server else (IP_B, IP_A)
            mac_s, mac_d = (MAC_A, MAC_B) if to_server else (MAC_B, MAC_A)
            eth = Ether(src=mac_s, dst=mac_d, type=0x0800)
            if kind == "geneve":
                # one option TLV: class 0xffff (experimental), type 0x01, length 1 (4 bytes of data): 8 bytes
                opt = GeneveOptions(classid=0xFFFF, type=0x01, length=1, data=b"\x00\x00\x12\x34")
                pkt = (eth / ipv4(side, src, dst, 17) / UDP(sport=flow_port(flow), dport=6081)
                       / GENEVE(version=0, optionlen=2, proto=0x6558, vni=4242, options=[opt]) / Raw(frame))
            else:
                pkt = eth / ipv4(side, src, dst, 47) / GRE(key_present=1, key=0x2A, proto=0x6558) / Raw(frame)
        elif kind in ("erspan2", "erspan3"):
            seq = n  # per session, one per mirrored frame
            gre_proto = 0x88BE if kind == "erspan2" else 0x22EB
            head = (Ether(src=MAC_SWITCH, dst=MAC_COLLECTOR, type=0x0800) / ipv4("m", IP_SWITCH, IP_COLLECTOR, 47)
                    / GRE(seqnum_present=1, sequence_number=seq, proto=gre_proto))
            port_index = 7 if to_server else 8  # the switch ports the two hosts hang off
            if kind == "erspan2":
                pkt = head / ERSPAN_II(ver=1, vlan=0, cos=0, en=0, t=0, session_id=42, index=port_index) / Raw(frame)
            else:
                t100us = (sec * 1_000_000 + usec) // 100  # granularity 0: 100 microseconds
                pkt = (head / ERSPAN_III(ver=2, vlan=0, cos=0, bso=0, t=0, session_id=42,
                                         timestamp=t100us & 0xFFFFFFFF, sgt_other=0, p=0, ft=0, hw=1,
                                         d=0 if to_server else 1, gra=0, o=1)
                       / ERSPAN_PlatformSpecific(platf_id=3, info1=port_index, info2=(t100us >> 32) & 0xFFFFFFFF)
                       / Raw(frame))
        else:
            raise SystemExit(f"unknown tunnel kind {kind}")
        wire = bytes(pkt)
        if kind == "ipip":
            assert wire.endswith(frame[14:])
        else:
            assert wire.endswith(frame)  # the inner frame is untouched
        out.append((sec, usec, wire))
    return out


# --------------------------------------------------------------------------- listing
LIST_FIELDS = ["frame.number", "frame.time_relative", "frame.len", "frame.protocols", "ip.src", "ip.dst",
               "ipv6.src", "ipv6.dst", "udp.srcport", "udp.dstport", "vxlan.vni", "geneve.vni", "gre.key",
               "gre.sequence_number", "erspan.spanid", "erspan.direction", "tcp.srcport", "tcp.dstport",
               "tcp.flags.str", "tcp.len", "http.request.method", "http.request.uri", "http.response.code",
               "http.content_type"]


def listing(path: str, extra: list[str]) -> None:
    cmd = (["tshark", "-r", path] + extra + ["-T", "fields", "-E", "separator=\t", "-E", "occurrence=a",
                                             "-E", "aggregator=,"]
           + [x for f in LIST_FIELDS for x in ("-e", f)])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    name = path.rsplit("/", 1)[-1]
    print(f"# {name}: every frame, outer stack and inner TCP/HTTP as tshark dissects it"
          + (f" (tshark {' '.join(extra)})" if extra else ""))
    print("# frame  time  len  protocols | outer | tunnel | inner TCP | HTTP")
    for line in out.splitlines():
        p = dict(zip(LIST_FIELDS, line.split("\t") + [""] * len(LIST_FIELDS)))
        ips_s, ips_d = p["ip.src"].split(","), p["ip.dst"].split(",")
        protos = p["frame.protocols"].removeprefix("eth:ethertype:")  # the outer Ethernet
        if p["ipv6.src"]:
            outer = f"{p['ipv6.src']} > {p['ipv6.dst']}"
            inner_ip = (ips_s[0], ips_d[0])
        else:
            outer = f"{ips_s[0]} > {ips_d[0]}"
            inner_ip = (ips_s[-1], ips_d[-1]) if len(ips_s) > 1 else ("?", "?")
        if p["udp.srcport"]:
            outer += f" udp {p['udp.srcport']} > {p['udp.dstport']}"
        tun = []
        for f, label in (("vxlan.vni", "vni"), ("geneve.vni", "vni"), ("gre.key", "key"),
                         ("gre.sequence_number", "seq"), ("erspan.spanid", "session"), ("erspan.direction", "dir")):
            if p[f]:
                tun.append(f"{label}={p[f]}")
        inner = f"{inner_ip[0]}:{p['tcp.srcport']} > {inner_ip[1]}:{p['tcp.dstport']} [{p['tcp.flags.str'].replace('·', '')}] len={p['tcp.len']}" \
            if p["tcp.srcport"] else "(no inner TCP dissected)"
        http = ""
        if p["http.request.method"]:
            http = f"  {p['http.request.method']} {p['http.request.uri']}"
        elif p["http.response.code"]:
            http = f"  HTTP {p['http.response.code']} {p['http.content_type']}".rstrip()
        print(f"{p['frame.number']:>4} {float(p['frame.time_relative']):9.6f} {p['frame.len']:>5} {protos} | {outer} | "
              f"{' '.join(tun) or '-'} | {inner}{http}")


def same(vxlan_path: str, overlay_path: str) -> int:
    under, over = read_pcap(vxlan_path), read_pcap(overlay_path)
    bad = 0
    for n, (_, _, frame) in enumerate(under):
        ok = (len(frame) > 50 and frame[12:14] == b"\x08\x00" and frame[23] == 17 and frame[42] & 0x08
              and n < len(over) and frame[50:] == over[n][2])
        if not ok:
            bad += 1
            if bad <= 5:
                print(f"frame {n + 1}: the decapsulated frame differs from overlay frame {n + 1}", file=sys.stderr)
    if len(under) != len(over):
        print(f"{len(under)} frames in {vxlan_path}, {len(over)} in {overlay_path}", file=sys.stderr)
        bad += 1
    print(f"{len(under)} VXLAN frames, {len(over)} overlay frames, {bad} mismatches")
    return 1 if bad else 0


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "same":
        sys.exit(same(sys.argv[2], sys.argv[3]))
    if len(sys.argv) >= 3 and sys.argv[1] == "list":
        listing(sys.argv[2], sys.argv[3:])
        return
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    kind, src, dst = sys.argv[1:]
    write_pcap(dst, encapsulate(kind, read_pcap(src)))


if __name__ == "__main__":
    main()
