"""A scripted OpenAI-compatible chat-completions stub for the clients8 group (Starlette under uvicorn, 127.0.0.1
only). NOT MCP. POST /v1/chat/completions (any path ending so, `stream` true or false):
  the last message from the user  -> one assistant turn asking for tool calls: add(a=2, b=3) and, unless the user's
                                     text says "add only", slow_count(n=30) (3 s with progress on the clients8 servers)
  the last message a tool result  -> a final text answer "done"
Streamed answers are `data: {chat.completion.chunk}` lines ended by `data: [DONE]`, as OpenAI's API sends them.

    python llm_stub.py PORT
"""

import itertools
import json
import sys

import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

HOST = "127.0.0.1"
SEQ = itertools.count(1)


def plan(messages):
    last = messages[-1] if messages else {}
    if last.get("role") == "tool":
        return None
    text = last.get("content") if isinstance(last.get("content"), str) else json.dumps(last.get("content"))
    calls = [("add", {"a": 2, "b": 3})]
    if "add only" not in (text or ""):
        calls.append(("slow_count", {"n": 30}))
    return calls


async def completions(request):
    body = await request.json()
    n = next(SEQ)
    cid = f"chatcmpl-clients8-{n}"
    model = body.get("model", "stub")
    calls = plan(body.get("messages", []))
    tool_calls = [{"index": i, "id": f"call_{n}_{i}", "type": "function",
                   "function": {"name": name, "arguments": json.dumps(args)}} for i, (name, args) in enumerate(calls or [])]
    if not body.get("stream"):
        msg = {"role": "assistant", "content": None if calls else "done"}
        if calls:
            msg["tool_calls"] = [{k: v for k, v in t.items() if k != "index"} for t in tool_calls]
        return JSONResponse({"id": cid, "object": "chat.completion", "created": 0, "model": model,
                             "choices": [{"index": 0, "message": msg,
                                          "finish_reason": "tool_calls" if calls else "stop"}],
                             "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})

    def chunk(delta, finish=None):
        return "data: " + json.dumps({"id": cid, "object": "chat.completion.chunk", "created": 0, "model": model,
                                      "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}) + "\n\n"

    async def gen():
        yield chunk({"role": "assistant", "content": ""})
        if calls:
            for t in tool_calls:
                yield chunk({"tool_calls": [t]})
            yield chunk({}, "tool_calls")
        else:
            yield chunk({"content": "done"})
            yield chunk({}, "stop")
        yield "data: [DONE]\n\n"

    return StreamingResponse(gen(), media_type="text/event-stream")


app = Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"]),
                        Route("/chat/completions", completions, methods=["POST"])])

if __name__ == "__main__":
    uvicorn.run(app, host=HOST, port=int(sys.argv[1]), log_level="warning")
