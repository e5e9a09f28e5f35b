"""Python pieces of samples/gen/ecosystem/replicas.sh: a Python SDK server replica (one of several behind a load
balancer, or one uvicorn serving several worker processes) and the Python SDK client.

    python replicas_py.py server --port N [--workers W]
    python replicas_py.py client --url http://127.0.0.1:N/mcp

The server is the other groups' Python SDK app (../pysdk_tools.py `streamable_app`: MCPServer with add(a,b),
echo(text), slow_count(n) (n progress notifications, 0.1 s apart), `streamable_http_app` on /mcp with its defaults:
stateful, SSE replies, no event store, and the SDK's own session manager, which keeps its sessions in the memory of
the process), under uvicorn on 127.0.0.1 (HTTP/1.1). Its name carries the port ("replicas-py-server-N") so the
wire shows which replica answered an initialize. With --workers W, uvicorn runs W worker processes on one listening
socket (uvicorn's own `--workers`: the parent binds, the workers accept; the app is built by `app` in each worker,
with the name "replicas-py-server-N-pid-P").

The client: the Python SDK client, `Client(url, mode="legacy")` (the classic initialize handshake: a stateful session
with its standalone GET stream), plain HTTP/1.1 (the SDK's default httpx2 client), then tools/list, add(1,2),
echo("hello"), slow_count(3) with a progress callback, add(40,2), 0.1 s apart (../pysdk_tools.py `exercise`), and
close (the SDK sends DELETE). When the SDK raises (a call answered 404 "Session not found", which the SDK turns into
an error), the exception is logged and the run ends there: no retry, no new session (the SDK makes none by itself).
Bounded: asyncio.timeout(30).
"""

import argparse
import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import HOST, bounded_run, exercise_at, streamable_app  # noqa: E402  (../pysdk_tools.py)


def app():
    """The app of one uvicorn worker process (--workers): named after the port and the worker's pid."""
    return streamable_app(f"replicas-py-server-{os.environ['REPLICAS_PORT']}-pid-{os.getpid()}")


def run_server(args) -> None:
    import uvicorn

    if args.workers > 1:
        os.environ["REPLICAS_PORT"] = str(args.port)
        uvicorn.run("replicas_py:app", factory=True, app_dir=os.path.dirname(os.path.abspath(__file__)),
                    host=HOST, port=args.port, workers=args.workers, log_level="warning", lifespan="on")
    else:
        uvicorn.run(streamable_app(f"replicas-py-server-{args.port}"), host=HOST, port=args.port,
                    log_level="warning", lifespan="on")


async def run_client(args) -> None:
    from mcp.client.client import Client

    await bounded_run(exercise_at(Client(args.url, mode="legacy")))


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("server")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--workers", type=int, default=1)
    c = sub.add_parser("client")
    c.add_argument("--url", required=True)
    a = p.parse_args()
    if a.cmd == "server":
        run_server(a)
    else:
        asyncio.run(run_client(a))
