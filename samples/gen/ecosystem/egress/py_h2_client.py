"""The official Python SDK client (mcp 2.3.0) over an httpx2 client with HTTP/2 on, as the h2more group runs it
(../pysdk_tools.py `over_httpx2`), behind a forward proxy (egress.sh squid-connect-h2). Runs in the h2more group's
venv (h2more/.venv: httpx2 2.17.0 with h2).

    SSL_CERT_FILE=C SSLKEYLOGFILE=K HTTPS_PROXY=http://127.0.0.1:19090 python py_h2_client.py URL [--mode legacy|auto]

`Client(streamable_http_client(URL, http_client=httpx2.AsyncClient(http2=True, timeout=...)), mode=MODE)`: h2more's
client (h2more/h2more_py.py) with httpx2's defaults for everything else: `verify` left at its default, so httpcore2's
default SSL context trusts $SSL_CERT_FILE (`ssl.create_default_context(cafile=...)`, which also writes the TLS key
log to $SSLKEYLOGFILE), and `trust_env` on, so the proxy comes from $HTTPS_PROXY (httpcore2 tunnels through it with
CONNECT and offers ALPN h2,http/1.1 inside the tunnel). The timeout is h2more's (30 s, read 300 s). legacy (the
default here, as relays/py_client.py) is the classic initialize handshake, a stateful session with its standalone
GET stream; auto is the SDK's default (2026-07-28 server/discover first). Then tools/list, add(1,2), echo("hello"),
slow_count(3) with a progress callback, add(40,2), 0.1 s apart, close; the whole run bounded by 30 s. When the SDK
raises, the exception is logged and the run ends there: no retry, no new session.
"""

import argparse
import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import CALLS, bounded_run, over_httpx2  # noqa: E402  (../pysdk_tools.py)


async def main(url: str, mode: str) -> None:
    import httpx2

    http = httpx2.AsyncClient(http2=True, timeout=httpx2.Timeout(30.0, read=300.0))
    await bounded_run(over_httpx2(url, http, mode, CALLS, 30), 30)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("url")
    p.add_argument("--mode", default="legacy", choices=["legacy", "auto"])
    a = p.parse_args()
    asyncio.run(main(a.url, a.mode))
