"""The official OpenAI Python client (openai 3.63.0, httpx) against openai_stub.py, for
samples/gen/ecosystem/nonmcp2.sh. NOT MCP.

    python openai_client.py BASE_URL        (BASE_URL ends in /v1)

models.list, then chat.completions.create non-streaming, streaming ("hello from the stub stream"), streaming with a
tool call ("tool"), and streaming again, 0.2 s apart; a dummy api key (the stub checks none); max_retries=0, timeout
10 s; the whole run bounded to 30 s.
"""

import sys
import threading
import time

from openai import OpenAI

threading.Timer(30, lambda: (print("timeout", flush=True), __import__("os")._exit(3))).start()
c = OpenAI(base_url=sys.argv[1], api_key="sk-nonmcp2-stub", max_retries=0, timeout=10)
print("models:", [m.id for m in c.models.list()])
r = c.chat.completions.create(model="stub-echo-1", messages=[{"role": "user", "content": "hello"}])
print("plain:", r.id, r.choices[0].message.content)
for text in ["hello from the stub stream", "tool", "a second stream"]:
    time.sleep(0.2)
    out = []
    for ch in c.chat.completions.create(model="stub-echo-1", messages=[{"role": "user", "content": text}], stream=True):
        d = ch.choices[0].delta if ch.choices else None
        if d and d.content:
            out.append(d.content)
        if d and d.tool_calls:
            out.append(d.tool_calls[0].function.arguments or d.tool_calls[0].function.name or "")
    print("stream:", "".join(out))
import os
os._exit(0)
