"""Listing of the proxies4 capture whose *backend* hop is HTTP/2 cleartext (apache-h2c: Apache mod_proxy_http2 ->
hypercorn), from tshark, built on ../proxies3/wire.py (imported from its path, not copied):

    python wire.py FRONT-PORT BACKEND-PORT CAPTURE.pcap

The front hop (client <-> Apache, FRONT-PORT) is HTTP/1.1 and is listed as ../proxies2/wire.py lists its hops (one line
per TCP segment with a payload or SYN/FIN/RST, message heads, chunk framing, each SSE event, each JSON body). The
backend hop (Apache <-> MCP server, BACKEND-PORT) is h2c with prior knowledge (tshark is told to decode BACKEND-PORT as
HTTP/2) and is listed as proxies3/wire.py lists an h2c front: the preface and every HTTP/2 frame (stream id, flags,
decoded header list, DATA with each SSE event cut out per h2 stream as it completes), with the hop named `backend`.
The other proxies4 captures are listed by ../proxies2/wire.py. Frame numbers are Wireshark's (1-based), times seconds
since the first frame. Needs tshark (4.0.17 here).
"""

import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("proxies3_wire", os.path.join(HERE, "..", "proxies3", "wire.py"))
p3 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(p3)


def main() -> None:
    front, back, path = sys.argv[1], sys.argv[2], sys.argv[3]
    print(f"# {path}: front :{front} (client <-> proxy) cleartext HTTP/1.1; backend :{back} (proxy <-> MCP server) "
          "cleartext HTTP/2 (h2c, prior knowledge); bytes parsed as they arrive")
    print("# frame  time     tcp  dir  port   hop      what")
    requests, sessions, out = [], {}, []
    out += list(p3.h1_lines(path, [front], {front: "front"}, requests, sessions))
    h2_requests, h2_sessions = [], {}
    for num, lines in p3.h2_lines(path, "h2c", back, h2_requests, h2_sessions):
        out.append((num, [lines[0].replace(" front    ", " backend  ", 1)] + lines[1:]))
    for r in h2_requests:
        r[2] = "backend"
        requests.append(r)
    for sid in h2_sessions:
        sessions.setdefault(sid, set()).add("backend")
    for _, lines in sorted(out, key=lambda x: x[0]):
        print("\n".join(x.rstrip() for x in lines))
    print("\n# requests (frame of the request head, tcp stream[/h2 stream], hop, request line, session id sent, "
          "status @frame)")
    for num, stream, h, first, sid, status, _ in sorted(requests, key=lambda r: r[0]):
        print(f"{num:>6} {stream:<7} {h:<8} {first:<30} session={sid:<36} -> {status or 'no response'}")
    print("\n# session ids and the hops that carried them")
    for sid, hops in sessions.items():
        print(f"  {sid}: {', '.join(sorted(hops))}")


if __name__ == "__main__":
    main()
