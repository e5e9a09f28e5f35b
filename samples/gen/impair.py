"""A userspace impairing relay for the mcptap "impaired" sample captures (Python 3 stdlib only).

The kernel of the machine the samples were made on has no netem qdisc (`tc qdisc add ... netem` fails with
"Specified qdisc kind is unknown") and no modprobe, so this script plays netem's part. It is a two-port
Ethernet bridge in user space: it reads every frame arriving on one veth with an AF_PACKET raw socket and
writes it out of the other, and the other way round (ARP included, so the two ends share one subnet). TCP
segments that carry data are impaired, deterministically from a seeded RNG:

  drop      the segment is not forwarded; the sender's TCP recovers it (RFC 6298 RTO, RFC 8985 RACK-TLP).
            A segment (direction, sequence number) is dropped at most once, so every loss is recovered by
            the first retransmission and the run stays bounded.
  duplicate the segment is forwarded twice (RFC 5681 §2 duplicate segment; the receiver re-ACKs it).
  reorder   the segment is held back and sent right after the next data segment of the same connection and
            direction (or after --hold-ms if none comes), so it arrives out of order (RFC 5681 §4.2).
  delay     the segment leaves --delay-ms later; later segments overtake it.

SYN, RST and pure ACK segments are never touched, so connection setup and teardown always go through.

Subcommands:
  python3 impair.py offload-off IFACE...   (run in the interface's namespace) turns off TX checksum, TSO, GSO
      and GRO, so frames are at most one MTU (AF_PACKET cannot send a 64 KiB GSO frame) and checksums are
      real in the capture.
  python3 impair.py relay --a c1 --b s1 --seed 7 --drop 0.04 --dup 0.04 --reorder 0.06 --delay 0.06 \
      --log relay.log --max-seconds 300
      --a is the client side, --b the server side. Every impairment is logged, one line each, and the totals
      are printed at the end (SIGTERM/SIGINT or --max-seconds). With all probabilities 0 it is a plain bridge.
"""

from __future__ import annotations

import argparse
import ctypes
import fcntl
import heapq
import random
import select
import signal
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4  # linux/if_packet.h: a frame this host sent; the relay's own writes come back as these
SIOCETHTOOL = 0x8946
# linux/ethtool.h legacy "set" commands, each takes struct ethtool_value {u32 cmd; u32 data;}
ETHTOOL_STXCSUM = 0x17
ETHTOOL_STSO = 0x1F
ETHTOOL_SGSO = 0x24
ETHTOOL_SGRO = 0x2C


# --------------------------------------------------------------------------- offload-off
def ethtool_set(ifname: str, cmd: int, value: int) -> None:
    ev = ctypes.create_string_buffer(struct.pack("=II", cmd, value))
    # struct ifreq: char ifr_name[16] + union (ifr_data pointer), 40 bytes on 64-bit Linux
    ifr = struct.pack("@16sP", ifname.encode(), ctypes.addressof(ev)).ljust(40, b"\0")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        fcntl.ioctl(s.fileno(), SIOCETHTOOL, ifr)


def offload_off(ifaces: list[str]) -> None:
    for ifname in ifaces:
        # TSO and GSO first: turning TX checksumming off also drops them, but say it explicitly.
        for cmd in (ETHTOOL_STSO, ETHTOOL_SGSO, ETHTOOL_SGRO, ETHTOOL_STXCSUM):
            try:
                ethtool_set(ifname, cmd, 0)
            except OSError as e:
                print(f"impair.py: {ifname}: ethtool command {cmd:#x}: {e}", file=sys.stderr)


# --------------------------------------------------------------------------- packets
def csum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


class Tcp:
    """The TCP/IPv4 view of an Ethernet frame, or None fields when it is something else."""

    __slots__ = ("ip_off", "ihl", "tot", "sport", "dport", "seq", "flags", "payload", "doff")

    @staticmethod
    def parse(frame: bytes) -> "Tcp | None":
        if len(frame) < 14 + 20 or frame[12:14] != b"\x08\x00":
            return None
        ip = 14
        ihl = (frame[ip] & 0x0F) * 4
        tot = struct.unpack_from("!H", frame, ip + 2)[0]
        if frame[ip + 9] != 6 or ihl < 20 or len(frame) < ip + tot or tot < ihl + 20:
            return None
        t = Tcp()
        t.ip_off, t.ihl, t.tot = ip, ihl, tot
        th = ip + ihl
        t.sport, t.dport, t.seq = struct.unpack_from("!HHI", frame, th)
        t.doff = (frame[th + 12] >> 4) * 4
        t.flags = frame[th + 13]
        t.payload = tot - ihl - t.doff
        return t

    def fix_checksum(self, frame: bytes) -> bytes:
        """Recompute the TCP checksum (RFC 9293 §3.1): a sender with TX checksum offload leaves only the
        pseudo-header sum in the frame, which the receiving stack would reject after our re-injection."""
        b = bytearray(frame)
        ip, th = self.ip_off, self.ip_off + self.ihl
        seg_len = self.tot - self.ihl
        b[th + 16 : th + 18] = b"\0\0"
        pseudo = bytes(b[ip + 12 : ip + 20]) + struct.pack("!BBH", 0, 6, seg_len)
        struct.pack_into("!H", b, th + 16, csum(pseudo + bytes(b[th : th + seg_len])))
        return bytes(b)

    @property
    def syn(self) -> bool:
        return bool(self.flags & 0x02)

    @property
    def rst(self) -> bool:
        return bool(self.flags & 0x04)


# --------------------------------------------------------------------------- relay
class Relay:
    def __init__(self, args) -> None:
        self.args = args
        # One RNG per direction, so the decisions of one direction do not depend on how its segments
        # interleave with the other direction's (which varies from run to run).
        # One draw per data segment decides its fate; the delay lengths come from a second RNG so they do
        # not shift the later decisions.
        self.rng = {d: random.Random(f"{args.seed}/{d}") for d in ("c>s", "s>c")}
        self.jitter = {d: random.Random(f"{args.seed}/{d}/delay") for d in ("c>s", "s>c")}
        self.socks = {}
        for side, ifname in (("a", args.a), ("b", args.b)):
            s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
            s.bind((ifname, 0))
            s.setblocking(False)
            self.socks[side] = s
        self.out_of = {"a": "b", "b": "a"}
        self.dir_name = {"a": "c>s", "b": "s>c"}  # a is the client side
        self.queue: list[tuple[float, int, str, bytes]] = []  # (due, order, out side, frame)
        self.order = 0
        # (direction, source port, destination port) -> (deadline, frame, out side): one held segment per flow
        self.held: dict[tuple[str, int, int], tuple[float, bytes, str]] = {}
        self.dropped: set[tuple[str, int, int]] = set()
        self.stats = {d: dict(frames=0, data=0, drop=0, dup=0, reorder=0, delay=0, oversize=0)
                      for d in self.dir_name.values()}
        self.t0 = time.monotonic()
        self.log = open(args.log, "w", buffering=1) if args.log else None
        self.stop = False

    def note(self, direction: str, what: str, t: Tcp) -> None:
        if self.log:
            self.log.write(f"{time.monotonic() - self.t0:9.4f} {direction} {what:8} "
                           f"{t.sport}>{t.dport} seq={t.seq} len={t.payload}\n")

    def schedule(self, out: str, frame: bytes, delay: float = 0.0) -> None:
        self.order += 1
        heapq.heappush(self.queue, (time.monotonic() + delay, self.order, out, frame))

    def send(self, out: str, frame: bytes) -> None:
        try:
            self.socks[out].send(frame)
        except OSError as e:
            print(f"impair.py: send on {self.args.a if out == 'a' else self.args.b}: {e}", file=sys.stderr)

    def on_frame(self, side: str, frame: bytes) -> None:
        out = self.out_of[side]
        direction = self.dir_name[side]
        st = self.stats[direction]
        st["frames"] += 1
        t = Tcp.parse(frame)
        if t is None:
            self.schedule(out, frame)
            return
        frame = t.fix_checksum(frame)
        if t.payload <= 0 or t.syn or t.rst:
            self.schedule(out, frame)
            return
        st["data"] += 1
        a = self.args
        r = self.rng[direction].random()
        key = (direction, t.seq, t.payload)
        flow = (direction, t.sport, t.dport)
        if r < a.drop and key not in self.dropped:
            self.dropped.add(key)
            st["drop"] += 1
            self.note(direction, "drop", t)
            return
        r -= a.drop
        if r < a.dup:
            st["dup"] += 1
            self.note(direction, "dup", t)
            self.schedule(out, frame)
            self.schedule(out, frame, 0.001)
        elif r - a.dup < a.reorder and flow not in self.held:
            st["reorder"] += 1
            self.note(direction, "reorder", t)
            self.held[flow] = (time.monotonic() + a.hold_ms / 1000, frame, out)
            return
        elif r - a.dup - a.reorder < a.delay:
            st["delay"] += 1
            self.note(direction, "delay", t)
            self.schedule(out, frame, self.jitter[direction].uniform(a.delay_ms[0], a.delay_ms[1]) / 1000)
        else:
            self.schedule(out, frame)
        # A held segment leaves right after the next data segment of its flow: it arrives out of order.
        held = self.held.pop(flow, None)
        if held is not None:
            self.schedule(held[2], held[1])

    def flush(self) -> float:
        """Send what is due; return the seconds until the next due item (capped)."""
        now = time.monotonic()
        for flow, (deadline, frame, out) in list(self.held.items()):
            if deadline <= now:
                del self.held[flow]
                self.schedule(out, frame)
        while self.queue and self.queue[0][0] <= now:
            _, _, out, frame = heapq.heappop(self.queue)
            self.send(out, frame)
        nxt = 0.05
        if self.queue:
            nxt = min(nxt, self.queue[0][0] - now)
        for deadline, _, _ in self.held.values():
            nxt = min(nxt, deadline - now)
        return max(nxt, 0.0)

    def run(self) -> None:
        by_fd = {s.fileno(): side for side, s in self.socks.items()}
        end = self.t0 + self.args.max_seconds
        while not self.stop and time.monotonic() < end:
            timeout = self.flush()
            ready, _, _ = select.select(list(by_fd), [], [], timeout)
            for fd in ready:
                side = by_fd[fd]
                for _ in range(256):  # bounded drain per wakeup
                    try:
                        frame, addr = self.socks[side].recvfrom(65535)
                    except BlockingIOError:
                        break
                    if addr[2] == PACKET_OUTGOING:
                        continue
                    if len(frame) > self.args.mtu + 14:
                        # a GSO/GRO super-frame: offload-off was not applied; it cannot be re-sent whole
                        self.stats[self.dir_name[side]]["oversize"] += 1
                    self.on_frame(side, frame)
        # drain what is still queued so no segment is silently lost at shutdown
        for _, frame, out in list(self.held.values()):
            self.schedule(out, frame)
        self.held.clear()
        while self.queue:
            _, _, out, frame = heapq.heappop(self.queue)
            self.send(out, frame)

    def report(self) -> str:
        lines = [f"relay totals (seed {self.args.seed}; drop {self.args.drop} dup {self.args.dup} "
                 f"reorder {self.args.reorder} delay {self.args.delay}):"]
        for direction, st in self.stats.items():
            lines.append(f"  {direction}: " + " ".join(f"{k}={v}" for k, v in st.items()))
        return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser("offload-off")
    o.add_argument("ifaces", nargs="+")
    r = sub.add_parser("relay")
    r.add_argument("--a", required=True, help="client-side interface")
    r.add_argument("--b", required=True, help="server-side interface")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--drop", type=float, default=0.0)
    r.add_argument("--dup", type=float, default=0.0)
    r.add_argument("--reorder", type=float, default=0.0)
    r.add_argument("--delay", type=float, default=0.0)
    r.add_argument("--delay-ms", type=float, nargs=2, default=(10.0, 40.0), metavar=("MIN", "MAX"))
    r.add_argument("--hold-ms", type=float, default=30.0, help="longest a reordered segment is held")
    r.add_argument("--mtu", type=int, default=1500)
    r.add_argument("--log", help="one line per impaired segment, then the totals")
    r.add_argument("--max-seconds", type=float, default=300.0, help="the relay stops by itself after this")
    args = p.parse_args()
    if args.cmd == "offload-off":
        offload_off(args.ifaces)
        return
    relay = Relay(args)

    def stop(*_):
        relay.stop = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    relay.run()
    rep = relay.report()
    print(rep, file=sys.stderr)
    if relay.log:
        relay.log.write(rep + "\n")
        relay.log.close()


if __name__ == "__main__":
    main()
