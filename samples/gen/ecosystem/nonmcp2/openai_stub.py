"""A stub of an OpenAI-compatible chat-completions API (Starlette under uvicorn, 127.0.0.1 only), for
samples/gen/ecosystem/nonmcp2.sh. NOT MCP and not JSON-RPC: SSE with `data: {json}` chunks ended by `data: [DONE]`.

    python openai_stub.py PORT

GET /v1/models (JSON), POST /v1/chat/completions: `stream: false` answered application/json (one chat.completion),
`stream: true` answered text/event-stream: one `data:` line per chat.completion.chunk (role, then the echoed last
user message word by word, 0.05 s apart, then finish_reason "stop"), then `data: [DONE]`; no `id:` and no `event:`
lines (as OpenAI's API sends them). A request whose last message is "tool" gets a tool_calls answer (streamed as
deltas of the function arguments). Every completion id is `chatcmpl-stub-N`.
"""

import asyncio
import itertools
import json
import sys
import time

import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

HOST = "127.0.0.1"
SEQ = itertools.count(1)


async def models(request):
    return JSONResponse({"object": "list", "data": [{"id": "stub-echo-1", "object": "model", "created": 0,
                                                     "owned_by": "nonmcp2"}]})


async def completions(request):
    body = await request.json()
    n, model = next(SEQ), body.get("model", "stub-echo-1")
    cid, created = f"chatcmpl-stub-{n}", int(time.time())
    last = body["messages"][-1]["content"]
    tool = last == "tool"
    if not body.get("stream"):
        msg = ({"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function":
                {"name": "add", "arguments": '{"a": 1, "b": 2}'}}]} if tool else {"role": "assistant", "content": last})
        return JSONResponse({"id": cid, "object": "chat.completion", "created": created, "model": model,
                             "choices": [{"index": 0, "message": msg,
                                          "finish_reason": "tool_calls" if tool else "stop"}],
                             "usage": {"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10}})

    def chunk(delta, finish=None):
        c = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
             "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        return f"data: {json.dumps(c)}\n\n"

    async def gen():
        yield chunk({"role": "assistant", "content": ""})
        if tool:
            yield chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                         "function": {"name": "add", "arguments": ""}}]})
            for part in ['{"a": ', '1, "b"', ': 2}']:
                await asyncio.sleep(0.05)
                yield chunk({"tool_calls": [{"index": 0, "function": {"arguments": part}}]})
            yield chunk({}, "tool_calls")
        else:
            for w in last.split(" "):
                await asyncio.sleep(0.05)
                yield chunk({"content": w + " "})
            yield chunk({}, "stop")
        yield "data: [DONE]\n\n"

    return StreamingResponse(gen(), media_type="text/event-stream")


app = Starlette(routes=[Route("/v1/models", models), Route("/v1/chat/completions", completions, methods=["POST"])])

if __name__ == "__main__":
    uvicorn.run(app, host=HOST, port=int(sys.argv[1]), log_level="warning")
