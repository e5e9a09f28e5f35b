"""What every restartpy client driver shares (samples/gen/ecosystem/restartpy.sh): the calls made before and after the
server restart, the pause between them, and the hand-over with the script at the restart point.

A driver is run as `python DRIVER.py [ARGS..] URL MARK`: it writes MARK.ready at the restart point (after its 2nd
call; for a mid-call scenario just before it starts the slow call) and waits (at most 20 s) for MARK.go, which the
script touches once the server has been killed, started again and listens. The driver never re-initializes, retries
or reconnects by itself: whatever the framework does after the restart is the framework's.

Imported with this folder on sys.path; it puts samples/gen/ecosystem on sys.path for ../pysdk_tools.py (log,
log_raised).
"""

import asyncio
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import log, log_raised  # noqa: E402,F401  (../pysdk_tools.py)

BEFORE = [("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"})]   # before the restart
AFTER = [("add", {"a": 40, "b": 2}), ("echo", {"text": "again"})]   # after it
SLOW = ("slow_count", {"n": 30})   # mid-call scenarios: 30 progress notifications 0.1 s apart (3 s) when asked for
GAP = 0.7                          # seconds between two calls
CALL_LIMIT = 10                    # seconds a call after the restart may take (the driver's bound, not the framework's)


def ready(mark: str) -> None:
    log("restart point: writing", os.path.basename(mark) + ".ready")
    with open(mark + ".ready", "w") as f:
        f.write("ready\n")


def _go_seen(mark: str) -> bool:
    return os.path.exists(mark + ".go")


async def wait_go(mark: str, limit: float = 20) -> None:
    t = time.monotonic()
    while not _go_seen(mark) and time.monotonic() - t < limit:
        await asyncio.sleep(0.05)
    log("go" if _go_seen(mark) else "no go file within the limit: going on")


def wait_go_sync(mark: str, limit: float = 20) -> None:
    t = time.monotonic()
    while not _go_seen(mark) and time.monotonic() - t < limit:
        time.sleep(0.05)
    log("go" if _go_seen(mark) else "no go file within the limit: going on")


async def guarded(name, arguments, coro, limit=CALL_LIMIT):
    """Awaits CORO (one call through the framework) within LIMIT seconds; logs its result or what was raised, and
    goes on either way (an application would hand the error to its model and carry on)."""
    try:
        r = await asyncio.wait_for(coro, limit)
        log(name, arguments, "->", str(r)[:200])
    except BaseException as e:  # noqa: BLE001 - what the framework raised is the point
        log(name, arguments, "raised")
        log_raised(e)


async def around_restart(mark: str, call) -> None:
    """The calls before the restart point, the hand-over with the script, and the calls after it, GAP apart: CALL(name,
    arguments) makes the coroutine of one call through the framework."""
    for name, arguments in BEFORE:
        await guarded(name, arguments, call(name, arguments))
        await asyncio.sleep(GAP)
    ready(mark)
    await wait_go(mark)
    await asyncio.sleep(GAP)
    for name, arguments in AFTER:
        await guarded(name, arguments, call(name, arguments))
        await asyncio.sleep(GAP)
