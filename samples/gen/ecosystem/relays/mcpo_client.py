"""A plain HTTP client of mcpo's OpenAPI endpoints (what Open WebUI or any OpenAPI tool runner sends), for the relays
group: no MCP on this side, just JSON over HTTP/1.1 (httpx, one keep-alive connection).

    python mcpo_client.py BASE-URL          e.g. http://127.0.0.1:19070/pysdk

GET BASE/openapi.json (the tool list, as mcpo built it from the backend's tools/list), then POST BASE/add {"a":1,"b":2},
BASE/echo {"text":"hello"}, BASE/slow_count {"n":3}, BASE/add {"a":40,"b":2}, 0.1 s apart. Each request times out after
10 s; the status and body of each reply are logged.
"""

import sys
import time

import httpx

CALLS = [("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"}), ("slow_count", {"n": 3}), ("add", {"a": 40, "b": 2})]
T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


def main(base: str) -> None:
    with httpx.Client(timeout=10) as http:
        r = http.get(f"{base}/openapi.json")
        log("GET openapi.json ->", r.status_code, "tools:", sorted(p.strip("/") for p in r.json().get("paths", {})))
        for name, args in CALLS:
            r = http.post(f"{base}/{name}", json=args)
            log(name, args, "->", r.status_code, r.text[:200])
            time.sleep(0.1)


if __name__ == "__main__":
    main(sys.argv[1])
