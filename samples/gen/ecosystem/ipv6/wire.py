"""Listing of an ipv6 capture (../ipv6.sh): the agents group's listing (../agents/wire.py, run from its path, not
copied), followed by what that listing leaves out and this group is about: every TCP connection (attempt) with its
address family, client and server addresses, and how the server answered its SYN (SYN ACK, or RST: refused):

    python wire.py FRONT-PORT|- SERVER-PORT... CAPTURE.pcap

Needs tshark (4.0.17 here).
"""

import os
import runpy
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

if __name__ == "__main__":
    runpy.run_path(os.path.join(HERE, "..", "agents", "wire.py"), run_name="__main__")
    sys.stdout.flush()
    pcap = sys.argv[-1]
    fields = ["tcp.stream", "frame.number", "ip.src", "ipv6.src", "ip.dst", "ipv6.dst", "tcp.srcport", "tcp.dstport",
              "tcp.flags.syn", "tcp.flags.ack", "tcp.flags.reset"]
    cmd = ["tshark", "-r", pcap, "-Y", "tcp.flags.syn==1 or tcp.flags.reset==1", "-T", "fields"]
    for f in fields:
        cmd += ["-e", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    conns = {}
    for line in out.splitlines():
        s, fr, s4, s6, d4, d6, sp, dp, syn, ack, rst = (line.split("\t") + [""] * 11)[:11]
        src, dst = (s4, d4) if s4 else (f"[{s6}]", f"[{d6}]")
        c = conns.setdefault(int(s), {"first": None, "answer": "-"})
        if syn == "1" and ack == "0" and c["first"] is None:
            c.update(first=int(fr), fam="IPv4" if s4 else "IPv6", client=f"{src}:{sp}", server=f"{dst}:{dp}")
        elif syn == "1" and ack == "1" and c["answer"] == "-":
            c["answer"] = f"SYN ACK @{fr}"
        elif rst == "1" and c["answer"] == "-" and c["first"] is not None and f"{src}:{sp}" == c["server"]:
            c["answer"] = f"RST (refused) @{fr}"
    print()
    print("# TCP connections (tcp stream, SYN frame, family, client -> server, the server's answer to the SYN)")
    for s in sorted(conns):
        c = conns[s]
        if c["first"] is None:
            continue
        print(f"  s{s:<3} {c['first']:>5} {c['fam']}  {c['client']:<24} -> {c['server']:<18} {c['answer']}")
