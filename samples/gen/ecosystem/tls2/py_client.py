"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) of the tls2 group over https.

    SSLKEYLOGFILE=KEYS python py_client.py URL --ca CERT [--cert CLIENT-CERT --key CLIENT-KEY]

`Client(streamable_http_client(url, http_client=httpx2.AsyncClient(verify=CTX)), mode="legacy")`: the classic
initialize handshake (a stateful session with its standalone GET stream), over HTTP/1.1 (httpx2's default: a new
connection for each SSE-answered request). CTX is `ssl.create_default_context(cafile=CERT)`, which writes the TLS
secrets to $SSLKEYLOGFILE (Python's own behaviour), plus `load_cert_chain(CLIENT-CERT, CLIENT-KEY)` when a client
certificate is given (what a user does for a server that asks for one). Nothing else of TLS is set: the protocol
range, the cipher suites and the key shares are the client's defaults, so what the server allows decides. Then
tools/list, add(1,2), echo("hello"), slow_count(3) with a progress callback, add(40,2), 0.1 s apart
(../pysdk_tools.py `exercise`), close (DELETE); the whole run bounded by 30 s.
"""

import argparse
import asyncio
import os
import ssl
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import CALLS, log, log_raised, over_httpx2  # noqa: E402  (../pysdk_tools.py)


async def main(a) -> None:
    import httpx2

    ctx = ssl.create_default_context(cafile=a.ca)
    if a.cert:
        ctx.load_cert_chain(a.cert, a.key)
    http = httpx2.AsyncClient(verify=ctx, timeout=httpx2.Timeout(30.0, read=10.0))
    try:
        await over_httpx2(a.url, http, "legacy", CALLS, 30)
        log("closed")
    except BaseException as e:  # noqa: BLE001 - what the SDK raised is the record of the run
        log_raised(e)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("url")
    p.add_argument("--ca", required=True)
    p.add_argument("--cert")
    p.add_argument("--key")
    asyncio.run(main(p.parse_args()))
