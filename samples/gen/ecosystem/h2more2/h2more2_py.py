"""Python SDK client (mcp 2.3.0) of samples/gen/ecosystem/h2more2.sh over httpx2 with HTTP/2, run in the h2situations
group's venv (../h2situations/.venv: mcp 2.3.0, httpx2 2.17.0, h2 4.4.1; its pins are ../h2situations/requirements.txt).

    python h2more2_py.py --url URL [--ca CERT] [--mode legacy|auto] [--cookie-kb N] [--sessions N] [--seconds S]

The client is `Client(streamable_http_client(url, http_client=httpx2.AsyncClient(...)), mode=MODE)`: for an http://
URL `httpx2.AsyncClient(http1=False, http2=True)` (cleartext h2c with prior knowledge), for https://
`httpx2.AsyncClient(http2=True, verify=ssl.create_default_context(cafile=CERT))` (ALPN h2; key log through
SSLKEYLOGFILE). Each session runs ../pysdk_tools.py exercise: tools/list, add(1,2), echo("hello"), slow_count(3) with
a progressToken (3 notifications/progress 0.1 s apart), add(40,2), then closes (DELETE).
  --cookie-kb N   the httpx2 client carries a `Cookie` header of N KB (a few long cookies, as a browser-issued
                  session jar or a large SSO token does) on every request: a header block larger than the default
                  16384-byte SETTINGS_MAX_FRAME_SIZE, so h2 sends it as HEADERS + CONTINUATION frames
  --sessions N    N sessions one after the other over the SAME httpx2 client (one h2 connection): each a fresh
                  initialize with a new Mcp-Session-Id (HPACK dynamic-table churn), the exercise cut to tools/list and
                  add(1,2)
Everything is bounded by --seconds (default 30): when the SDK raises or the bound is hit, that is logged and the run
ends (no retry).
"""

import argparse
import asyncio
import os
import ssl
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import exercise, log, log_raised  # noqa: E402  (samples/gen/ecosystem)


def cookie(kb: int) -> str:
    """A deterministic cookie jar of about KB kilobytes: 4 KB cookies of base64-like characters."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    parts, n, i = [], kb * 1024, 0
    while sum(len(p) + 2 for p in parts) < n:
        val = "".join(alphabet[(i * 7919 + j * 104729 + j * j * 31) % 64] for j in range(4000))
        parts.append(f"sso_chunk_{i}={val}")
        i += 1
    return "; ".join(parts)


async def main(args) -> None:
    import httpx2
    from mcp.client.client import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = {"cookie": cookie(args.cookie_kb)} if args.cookie_kb else None
    if args.url.startswith("https://"):
        http = httpx2.AsyncClient(http2=True, verify=ssl.create_default_context(cafile=args.ca), headers=headers)
    else:
        http = httpx2.AsyncClient(http1=False, http2=True, headers=headers)
    calls = [("add", {"a": 1, "b": 2})] if args.sessions > 1 else None
    try:
        async with http, asyncio.timeout(args.seconds):
            for n in range(args.sessions):
                async with Client(streamable_http_client(args.url, http_client=http), mode=args.mode) as client:
                    if calls is None:
                        await exercise(client, [("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"}),
                                                ("slow_count", {"n": 3}), ("add", {"a": 40, "b": 2})])
                    else:
                        log("session", n + 1)
                        await exercise(client, calls)
        log("closed")
    except BaseException as e:  # noqa: BLE001 - what the SDK raised is the record; the run ends here
        log_raised(e)
        log("run ended after the SDK raised or the bound was hit (no retry)")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", required=True)
    p.add_argument("--ca")
    p.add_argument("--mode", default="legacy")
    p.add_argument("--cookie-kb", type=int, default=0)
    p.add_argument("--sessions", type=int, default=1)
    p.add_argument("--seconds", type=float, default=30)
    asyncio.run(main(p.parse_args()))
