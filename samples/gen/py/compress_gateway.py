"""Compressing gateway: an ASGI middleware in front of the real Python SDK server (mcp_sample.py) that
compresses response bodies itself, for the br and zstd samples (nginx from Debian has only gzip).

    compress_gateway.py --port N --coding br|zstd|gzip|identity [--json-first N] [--event-store]
                        [--unknown-at K] [--corrupt-at K]

It is not an SDK component: it stands for a server or proxy that offers those codings. Every response
with a body is compressed with the chosen coding (`Content-Encoding` set, `Content-Length` dropped,
`Vary: Accept-Encoding` added), whatever the client's Accept-Encoding says (the SDK client's httpx decodes
gzip, deflate, br with the `brotli` package, zstd with `zstandard`). Each ASGI body message is compressed
and flushed at once, so SSE events leave as they are produced. `identity` passes bodies unchanged (the
uncompressed twin captured the same way).

For the coverage-notice sample, two deliberately broken modes (a broken server, named as such):
--unknown-at K labels the K-th POST response `Content-Encoding: x-mcptap-unknown` (body unchanged:
clients that do not know a coding pass it through); --corrupt-at K flips one byte inside the compressed
data of the K-th POST response (the client fails on it).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


class Compressor:
    def __init__(self, coding: str):
        self.coding = coding
        if coding == "br":
            import brotli

            self.c = brotli.Compressor(quality=5)
        elif coding == "zstd":
            import zstandard

            self.c = zstandard.ZstdCompressor(level=3).compressobj()
        elif coding == "gzip":
            import zlib

            self.c = zlib.compressobj(6, zlib.DEFLATED, 16 + 15)
        else:
            self.c = None

    def chunk(self, data: bytes, last: bool) -> bytes:
        if self.c is None:
            return data
        if self.coding == "br":
            out = self.c.process(data) if data else b""
            return out + (self.c.finish() if last else self.c.flush())
        if self.coding == "zstd":
            import zstandard

            out = self.c.compress(data) if data else b""
            return out + self.c.flush(zstandard.COMPRESSOBJ_FLUSH_FINISH if last else zstandard.COMPRESSOBJ_FLUSH_BLOCK)
        import zlib

        out = self.c.compress(data) if data else b""
        return out + self.c.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)


class CompressGateway:
    def __init__(self, app, coding: str, unknown_after: int, corrupt_after: int) -> None:
        self.app = app
        self.coding = coding
        self.unknown_after = unknown_after
        self.corrupt_after = corrupt_after
        self.posts = 0

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        post_no = 0
        if scope["method"] == "POST":
            self.posts += 1
            post_no = self.posts
        unknown = self.unknown_after and post_no == self.unknown_after
        corrupt = self.corrupt_after and post_no == self.corrupt_after
        comp = Compressor("identity" if unknown else self.coding)
        state = {"compress": False, "corrupted": False}

        async def wrapped(message):
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"content-length"]
                # No body: 1xx, 204, 304 (and 202 Accepted carries none from the SDK).
                state["compress"] = status not in (202, 204, 304) and status >= 200
                if state["compress"]:
                    name = b"x-mcptap-unknown" if unknown else self.coding.encode()
                    if name != b"identity":
                        headers.append((b"content-encoding", name))
                        headers.append((b"vary", b"Accept-Encoding"))
                else:
                    headers = message.get("headers", [])
                message = dict(message, headers=headers)
            elif message["type"] == "http.response.body" and state["compress"]:
                last = not message.get("more_body", False)
                data = comp.chunk(message.get("body", b""), last)
                if corrupt and not state["corrupted"] and len(data) > 12:
                    b = bytearray(data)
                    b[len(b) // 2] ^= 0x55
                    data = bytes(b)
                    state["corrupted"] = True
                message = dict(message, body=data)
            await send(message)

        await self.app(scope, receive, wrapped)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--coding", choices=["br", "zstd", "gzip", "identity"], required=True)
    p.add_argument("--json-first", type=int, default=0)
    p.add_argument("--event-store", action="store_true")
    p.add_argument("--unknown-at", type=int, default=0)
    p.add_argument("--corrupt-at", type=int, default=0)
    a = p.parse_args()
    import uvicorn
    import mcp_sample

    server = mcp_sample.build_server()
    app = server.streamable_http_app(
        streamable_http_path="/mcp",
        json_response=False,
        stateless_http=False,
        event_store=mcp_sample.make_event_store() if a.event_store else None,
        host=mcp_sample.HOST,
    )
    if a.json_first:
        app = mcp_sample.JsonFirstGateway(app, a.json_first)
    app = CompressGateway(app, a.coding, a.unknown_at, a.corrupt_at)
    uvicorn.run(app, host=mcp_sample.HOST, port=a.port, log_level="warning", lifespan="on")


if __name__ == "__main__":
    main()
