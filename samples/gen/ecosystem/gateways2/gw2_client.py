"""Python SDK (mcp 2.3.0) Streamable HTTP client for the gateways2 ecosystem captures.

The same standard session as ../gateways/gw_client.py (imported from there: initialize, initialized,
tools/list, add(1,2), echo, [slow with a progress callback], add(40,2), DELETE on close), with extra request
headers (a gateway's bearer token) and the tool names the gateway exposes (ContextForge prefixes them with
the gateway's slug, LiteLLM with the server name).

    python gw2_client.py --url U [--bearer-file F] [--prefix P] [--slow STEPS,DELAY] [--tag T]
                         [--ready-file F --go-file G] [--timeout S]

Bounded: an overall asyncio timeout (--timeout, default 40 s); the ready/go files let two sessions start
their calls at the same moment.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gateways"))
from gw_client import run_bounded, standard_session, wait_file  # noqa: E402  (the path is set just above)


async def session(a):
    from mcp.client.client import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    headers = {}
    if a.bearer_file:
        headers["authorization"] = "Bearer " + open(a.bearer_file).read().strip()
    http = create_mcp_http_client(headers=headers)
    async with http, Client(streamable_http_client(a.url, http_client=http), mode="legacy") as client:
        if a.ready_file:
            open(a.ready_file, "w").close()
            await wait_file(a.go_file)
        await standard_session(client, a.tag, a.slow, a.pause, prefix=a.prefix, keep_going=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", required=True)
    p.add_argument("--bearer-file")
    p.add_argument("--prefix", default="")
    p.add_argument("--slow", default="")
    p.add_argument("--tag", default="client")
    p.add_argument("--pause", type=float, default=0.2)
    p.add_argument("--ready-file")
    p.add_argument("--go-file")
    p.add_argument("--timeout", type=float, default=40.0)
    run_bounded(session, p.parse_args())


if __name__ == "__main__":
    main()
