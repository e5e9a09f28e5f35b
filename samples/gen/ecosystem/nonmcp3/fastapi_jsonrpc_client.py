"""Plain JSON-RPC 2.0 over HTTP against the fastapi-jsonrpc server, with httpx (one keep-alive connection), the way the
library's README and tests post to an entrypoint: ping (health check), echo, echo "error" (MyError 5000), divide with a
string (-32602), an unknown method (-32601), a notification (no id: 200 with an empty body per the library), a batch of
echo + ping + a notification, and a ping with id 1 again (ids reused by a second "program run").
    python fastapi_jsonrpc_client.py URL
"""

import json
import sys
import time

import httpx

url = sys.argv[1]


def post(client, body):
    r = client.post(url, json=body)
    print(json.dumps(body)[:80], "->", r.status_code, r.headers.get("content-type"), r.text[:160])


with httpx.Client(timeout=10) as c:
    post(c, {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {}})
    time.sleep(0.1)
    post(c, {"jsonrpc": "2.0", "id": 2, "method": "echo", "params": {"data": "123"}})
    time.sleep(0.1)
    post(c, {"jsonrpc": "2.0", "id": 3, "method": "echo", "params": {"data": "error"}})
    time.sleep(0.1)
    post(c, {"jsonrpc": "2.0", "id": 4, "method": "divide", "params": {"a": 1, "b": "x"}})
    time.sleep(0.1)
    post(c, {"jsonrpc": "2.0", "id": 5, "method": "nope", "params": {}})
    time.sleep(0.1)
    post(c, {"jsonrpc": "2.0", "method": "echo", "params": {"data": "fire and forget"}})
    time.sleep(0.1)
    post(c, [
        {"jsonrpc": "2.0", "id": 6, "method": "echo", "params": {"data": "batched"}},
        {"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {}},
        {"jsonrpc": "2.0", "method": "ping", "params": {}},
    ])
    time.sleep(0.1)
with httpx.Client(timeout=10) as c:
    post(c, {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {}})
print("done")
