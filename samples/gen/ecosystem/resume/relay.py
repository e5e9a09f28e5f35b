"""The stream cutter of samples/gen/ecosystem/resume.sh: a TCP relay on 127.0.0.1 that forwards bytes both ways
between an MCP client and its server, untouched, and cuts ONE connection for real at a chosen moment.

    python relay.py --listen PORT --to PORT --match REGEX --after N [--mode rst|fin] [--cut-file FILE]

Every accepted connection gets its own upstream connection to the server (127.0.0.1:--to), so both hops are real TCP
connections in the capture. The first connection whose client->server bytes match REGEX (a Python regex over bytes,
e.g. `"name":"slow_count"` for a tools/call POST, `^GET /mcp` for the standalone GET stream) is armed at that moment;
from then on the relay counts the SSE events of the server->client bytes it forwards (blank lines, `\\n\\n` or
`\\r\\n\\r\\n`, after the one that ends the response head; approximate across chunk boundaries, which is fine: the
cut only has to fall mid-stream), and once it has forwarded the chunk holding the N-th it cuts that connection on both sides: `rst` (the
default) closes both sockets with SO_LINGER 0 (an RST each way, as a crashed middlebox or a dropped NAT entry
shows), `fin` shuts both down cleanly (FIN each way, a proxy closing mid-response). One cut per relay run; every
other connection, before and after, is only forwarded. With --cut-file, the relay writes the time of the cut there
(the script waits for it to restart the server). What the client and server then do is their own business.
"""

import argparse
import asyncio
import re
import socket
import struct
import sys
import time

T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}] relay:", *a, file=sys.stderr, flush=True)


class Cutter:
    def __init__(self, args):
        self.args = args
        self.pattern = re.compile(args.match.encode(), re.M)
        self.done = False
        self.conn = 0

    async def handle(self, creader, cwriter):
        self.conn += 1
        n = self.conn
        try:
            sreader, swriter = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", self.args.to), 5)
        except (OSError, asyncio.TimeoutError) as e:
            log(f"conn {n}: upstream refused ({e}); closing the client side")
            cwriter.close()
            return
        state = {"armed": False, "events": 0, "blank": 0, "tail": b"", "cut": False}

        def cut():
            state["cut"] = True
            self.done = True
            for w in (cwriter, swriter):
                sock = w.get_extra_info("socket")
                try:
                    if self.args.mode == "rst":
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                        w.transport.abort()
                    else:
                        w.close()
                except OSError:
                    pass
            log(f"conn {n}: CUT ({self.args.mode}) after {state['events']} SSE events")
            if self.args.cut_file:
                with open(self.args.cut_file, "w") as f:
                    f.write(f"{time.time():.3f}\n")

        async def pump(reader, writer, upstream):
            try:
                while not state["cut"]:
                    data = await reader.read(65536)
                    if not data:
                        break
                    writer.write(data)
                    await writer.drain()
                    if upstream and not self.done and not state["armed"] and self.pattern.search(data):
                        state["armed"] = True
                        log(f"conn {n}: armed on {self.pattern.pattern!r}")
                    if not upstream and state["armed"] and not state["cut"]:
                        buf = state["tail"] + data.replace(b"\r", b"")
                        state["blank"] += len(re.findall(rb"\n\n+", buf)) - len(re.findall(rb"\n\n+", state["tail"]))
                        state["tail"] = buf[-1:]
                        state["events"] = max(0, state["blank"] - 1)   # the first blank line ends the response head
                        if state["events"] >= self.args.after:
                            cut()
                            return
            except (OSError, asyncio.CancelledError):
                pass
            if not state["cut"]:
                try:
                    writer.write_eof() if writer.can_write_eof() else writer.close()
                except OSError:
                    pass

        await asyncio.gather(pump(creader, swriter, True), pump(sreader, cwriter, False))
        for w in (cwriter, swriter):
            if not w.is_closing():
                w.close()


async def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--listen", type=int, required=True)
    p.add_argument("--to", type=int, required=True)
    p.add_argument("--match", required=True)
    p.add_argument("--after", type=int, required=True)
    p.add_argument("--mode", choices=("rst", "fin"), default="rst")
    p.add_argument("--cut-file")
    args = p.parse_args()
    cutter = Cutter(args)
    server = await asyncio.start_server(cutter.handle, "127.0.0.1", args.listen)
    log(f"127.0.0.1:{args.listen} -> 127.0.0.1:{args.to}, cut on {args.match!r} after {args.after} events ({args.mode})")
    async with server:
        await asyncio.wait_for(server.serve_forever(), 120)   # bounded: the script kills it long before


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except (KeyboardInterrupt, asyncio.TimeoutError):
        pass
