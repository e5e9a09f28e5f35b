"""The official Python SDK client (mcp 2.3.0, proxies3/.venv) of the proxies3 group over HTTP/2, through a reverse
proxy: the proxies2 group's run (../proxies2/py_client.py `exercise`, imported from its path, not copied) with the
SDK's Streamable HTTP transport given an httpx2 client that speaks HTTP/2.

    python py_client.py URL --h2c [--slow N] [--hold S]            cleartext h2c with prior knowledge (http:// URL)
    SSLKEYLOGFILE=K python py_client.py URL --ca C [--slow N] [--hold S]   h2 over TLS (https:// URL, ALPN h2,http/1.1)

--h2c: `httpx2.AsyncClient(http1=False, http2=True)` (httpx2 then opens with the h2 preface, no Upgrade), as the h2more
group's h2c clients. --ca: `httpx2.AsyncClient(http2=True, verify=ssl.create_default_context(cafile=C))`; Python's
ssl writes the TLS secrets to $SSLKEYLOGFILE. Both with the SDK's own timeouts (30 s, read 300 s). Then
`Client(streamable_http_client(URL, http_client=...), mode="legacy", read_timeout_seconds=10)`: initialize,
tools/list, add(1,2), echo("hello"), slow_count(N) with a progress callback (N notifications/progress 0.1 s apart),
S seconds idle (--hold), add(40,2), close (DELETE). Bounded: 30 + N/10 + S s; when the SDK raises, the run ends there.
"""

import argparse
import asyncio
import importlib.util
import os
import ssl
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from pysdk_tools import bounded_run  # noqa: E402  (../pysdk_tools.py)

spec = importlib.util.spec_from_file_location("proxies2_client", os.path.join(HERE, "..", "proxies2", "py_client.py"))
proxies2_client = importlib.util.module_from_spec(spec)
spec.loader.exec_module(proxies2_client)


async def main(a) -> None:
    import httpx2
    from mcp.client.client import Client
    from mcp.client.streamable_http import streamable_http_client

    timeout = httpx2.Timeout(30.0, read=300.0)
    if a.h2c:
        http = httpx2.AsyncClient(http1=False, http2=True, timeout=timeout)
    else:
        http = httpx2.AsyncClient(http2=True, verify=ssl.create_default_context(cafile=a.ca), timeout=timeout)
    async with http:
        client = Client(streamable_http_client(a.url, http_client=http), mode="legacy", read_timeout_seconds=10)
        await bounded_run(proxies2_client.exercise(client, a.slow, a.hold), 30 + a.slow / 10 + a.hold)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("url")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--h2c", action="store_true")
    g.add_argument("--ca")
    p.add_argument("--slow", type=int, default=60)
    p.add_argument("--hold", type=float, default=0.0)
    asyncio.run(main(p.parse_args()))
