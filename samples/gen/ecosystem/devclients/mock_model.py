"""A scripted stand-in for a model API, so that a coding-agent CLI runs one real agent turn and calls one MCP tool
without a real model (the devclients group, samples/gen/ecosystem/devclients.sh). Python standard library only, plain
HTTP on 127.0.0.1 inside the group's network namespace; its port is never in a capture (only the MCP server's is).

    python3 mock_model.py PORT

It speaks the three request shapes the CLIs use, streaming (SSE) or not, as each request asks:
  POST .../chat/completions   OpenAI Chat Completions (Copilot CLI BYOK, Continue CLI, opencode, Kilo, Qwen Code)
  POST .../messages           Anthropic Messages (Claude Code with ANTHROPIC_BASE_URL)
  POST .../responses          OpenAI Responses (Codex with a custom model provider)
  POST .../models/M:streamGenerateContent, :generateContent   Gemini API (Gemini CLI with GOOGLE_GEMINI_BASE_URL)
  GET  .../models             one model, "mock"
The script, the same for every client: when the conversation holds no tool result yet, answer with ONE call of the
first offered tool whose name ends in "add" (an MCP server's add(a, b), whatever prefix the client gives it), with
arguments {"a": 1, "b": 2}; once a tool result is in the conversation, answer the text "done". Requests of other
kinds (a title or summary the client asks for on the side) get the text "done" too. Every request is logged, one line
(method, path, what it answered) on stdout.
"""

import json
import sys
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ARGS = {"a": 1, "b": 2}


def tool_names(body):
    """Names of the tools the request offers, in order, for any of the three shapes; a Responses `namespace` tool
    (Codex groups each MCP server's tools in one) gives NAMESPACE/TOOL."""
    out = []
    for t in body.get("tools") or []:
        if isinstance(t, dict):
            if t.get("type") == "namespace":
                out.extend(f"{t.get('name')}/{s.get('name')}" for s in t.get("tools") or [] if isinstance(s, dict))
            elif isinstance(t.get("functionDeclarations"), list):  # Gemini
                out.extend(f.get("name", "") for f in t["functionDeclarations"] if isinstance(f, dict))
            elif isinstance(t.get("function"), dict):
                out.append(t["function"].get("name", ""))
            elif "name" in t:
                out.append(t["name"])
    return out


def pick_add(body):
    for n in tool_names(body):
        if n.lower().endswith("add"):
            return n
    return None


def has_tool_result(body):
    """True once the conversation carries a tool's result (any of the three shapes)."""
    for m in body.get("messages") or []:
        if m.get("role") == "tool":
            return True
        c = m.get("content")
        if isinstance(c, list) and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in c):
            return True
    for c in body.get("contents") or []:  # Gemini
        if any(isinstance(p, dict) and "functionResponse" in p for p in c.get("parts") or []):
            return True
    inp = body.get("input")
    if isinstance(inp, list):
        return any(isinstance(i, dict) and i.get("type") == "function_call_output" for i in inp)
    return False


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # the one line per request below instead
        pass

    def note(self, what):
        print(f"{time.strftime('%H:%M:%S')} {self.command} {self.path} -> {what}", flush=True)

    def send_json(self, obj, status=200):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_sse(self, events):
        """events: (event name or None, data object or string) pairs, one SSE reply, then the connection stays."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for name, data in events:
            text = (f"event: {name}\n" if name else "") + "data: " + (data if isinstance(data, str) else json.dumps(data)) + "\n\n"
            raw = text.encode()
            self.wfile.write(f"{len(raw):x}\r\n".encode() + raw + b"\r\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def do_GET(self):
        if self.path.rstrip("/").endswith("/models"):
            self.note("models")
            return self.send_json({"object": "list", "data": [{"id": "mock", "object": "model", "created": 0,
                                                               "owned_by": "mock"}]})
        self.note("404")
        self.send_json({"error": {"message": "not found"}}, 404)

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(n) or b"{}")
        except ValueError:
            body = {}
        path = self.path.split("?")[0].rstrip("/")
        tool = None if has_tool_result(body) else pick_add(body)
        if tool is None and not has_tool_result(body) and tool_names(body):
            print("   offered tools, none ends in 'add': " + ", ".join(tool_names(body))[:400], flush=True)
        if path.endswith("/chat/completions"):
            return self.chat(body, tool)
        if path.endswith("/messages"):
            return self.anthropic(body, tool)
        if path.endswith("/responses"):
            return self.openai_responses(body, tool)
        if path.endswith(":streamGenerateContent") or path.endswith(":generateContent"):
            return self.gemini(body, tool, path.endswith(":streamGenerateContent"))
        if path.endswith("/count_tokens") or path.endswith(":countTokens"):
            self.note("count_tokens")
            return self.send_json({"input_tokens": 10, "totalTokens": 10})
        self.note("404")
        self.send_json({"error": {"message": "not found"}}, 404)

    # ------------------------------------------------------------------ OpenAI Chat Completions
    def chat(self, body, tool):
        cid, model = "chatcmpl-" + uuid.uuid4().hex[:12], body.get("model", "mock")
        self.note(f"chat/completions stream={bool(body.get('stream'))} tools={len(tool_names(body))} "
                  + (f"call {tool}" if tool else "text"))
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        if tool:
            call = {"id": "call_" + uuid.uuid4().hex[:12], "type": "function",
                    "function": {"name": tool, "arguments": json.dumps(ARGS)}}
            msg, finish = {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
        else:
            msg, finish = {"role": "assistant", "content": "done"}, "stop"
        if not body.get("stream"):
            return self.send_json({"id": cid, "object": "chat.completion", "created": int(time.time()), "model": model,
                                   "choices": [{"index": 0, "message": msg, "finish_reason": finish}], "usage": usage})
        base = {"id": cid, "object": "chat.completion.chunk", "created": int(time.time()), "model": model}
        if tool:
            delta = {"role": "assistant", "tool_calls": [dict(msg["tool_calls"][0], index=0)]}
        else:
            delta = {"role": "assistant", "content": "done"}
        self.send_sse([(None, dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": None}])),
                       (None, dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": finish}], usage=usage)),
                       (None, "[DONE]")])

    # ------------------------------------------------------------------ Anthropic Messages
    def anthropic(self, body, tool):
        mid, model = "msg_" + uuid.uuid4().hex[:12], body.get("model", "mock")
        self.note(f"messages stream={bool(body.get('stream'))} tools={len(tool_names(body))} "
                  + (f"call {tool}" if tool else "text"))
        usage = {"input_tokens": 10, "output_tokens": 5}
        if tool:
            block = {"type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:12], "name": tool, "input": ARGS}
            stop = "tool_use"
        else:
            block, stop = {"type": "text", "text": "done"}, "end_turn"
        if not body.get("stream"):
            return self.send_json({"id": mid, "type": "message", "role": "assistant", "model": model,
                                   "content": [block], "stop_reason": stop, "stop_sequence": None, "usage": usage})
        if tool:
            start = dict(block, input={})
            delta = {"type": "input_json_delta", "partial_json": json.dumps(ARGS)}
        else:
            start, delta = {"type": "text", "text": ""}, {"type": "text_delta", "text": "done"}
        self.send_sse([
            ("message_start", {"type": "message_start", "message": {"id": mid, "type": "message", "role": "assistant",
                                                                    "model": model, "content": [], "stop_reason": None,
                                                                    "stop_sequence": None, "usage": usage}}),
            ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": start}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": 5}}),
            ("message_stop", {"type": "message_stop"})])

    # ------------------------------------------------------------------ Gemini generateContent
    def gemini(self, body, tool, stream):
        self.note(f"generateContent stream={stream} tools={len(tool_names(body))} " + (f"call {tool}" if tool else "text"))
        part = {"functionCall": {"name": tool, "args": ARGS}} if tool else {"text": "done"}
        resp = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
                "modelVersion": "mock"}
        if not stream:
            return self.send_json(resp)
        self.send_sse([(None, resp)])

    # ------------------------------------------------------------------ OpenAI Responses
    def openai_responses(self, body, tool):
        rid, model = "resp_" + uuid.uuid4().hex[:12], body.get("model", "mock")
        self.note(f"responses stream={bool(body.get('stream'))} tools={len(tool_names(body))} "
                  + (f"call {tool}" if tool else "text"))
        if tool:
            item = {"type": "function_call", "id": "fc_" + uuid.uuid4().hex[:12], "call_id": "call_" + uuid.uuid4().hex[:12],
                    "name": tool, "arguments": json.dumps(ARGS), "status": "completed"}
            if "/" in tool:  # a namespaced tool: the call names the namespace and the tool apart
                item["namespace"], item["name"] = tool.split("/", 1)
        else:
            item = {"type": "message", "id": "msg_" + uuid.uuid4().hex[:12], "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": "done", "annotations": []}]}
        usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
                 "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}
        resp = {"id": rid, "object": "response", "created_at": int(time.time()), "status": "completed", "model": model,
                "output": [item], "usage": usage}
        if not body.get("stream"):
            return self.send_json(resp)
        self.send_sse([
            ("response.created", {"type": "response.created", "response": dict(resp, status="in_progress", output=[])}),
            ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": item}),
            ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed", "response": resp})])


if __name__ == "__main__":
    port = int(sys.argv[1])
    print(f"mock model on 127.0.0.1:{port}", flush=True)
    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
