"""A mitmproxy addon (relays/.venv-mitmproxy, `mitmdump -s mitm_stream_sse.py`) for the relays group: stream every
text/event-stream response as it arrives, the workaround mitmproxy names for SSE (its addons/server_side_events.py,
not loaded by default in 11.0.2: "mitmproxy currently does not support server side events. As a workaround, you can
enable response streaming for such flows: https://github.com/mitmproxy/mitmproxy/issues/4469"), in the shape of
mitmproxy's own example addon examples/addons/http-stream-simple.py (`flow.response.stream = True` in the
`responseheaders` hook), limited to SSE.
"""

from mitmproxy import http


def responseheaders(flow: http.HTTPFlow) -> None:
    if flow.response is not None and flow.response.headers.get("content-type", "").startswith("text/event-stream"):
        flow.response.stream = True
