#!/usr/bin/env bash
# sensor2's curl driver for the stall scenario: one Streamable HTTP session by hand (curl, HTTP/1.1), whose tools/call
# slow_count(N) (no progressToken, so the SSE reply stays silent until the result) runs longer than mcptap's stall
# threshold (60 s):
#   bash stall_client.sh URL N            tools/call slow_count {"n": N} (the Python SDK server's tool)
#   bash stall_client.sh URL N wait       tools/call wait {"seconds": N} (json_server.py's tool)
# initialize (2025-11-25), notifications/initialized, the tools/call (curl --max-time 90), DELETE. In wait mode the
# tools/call goes with --no-keepalive: curl's default TCP keep-alive probe after 60 s idle would put a packet on the
# silent connection right after mcptap's 60 s stall threshold (the first quiet run showed it at 60.196 s).
set -euo pipefail
url=$1 n=$2 tool=${3:-slow_count}
h=$(mktemp); trap 'rm -f "$h"' EXIT
A=(-sS --http1.1 -H 'content-type: application/json' -H 'accept: application/json, text/event-stream')
curl "${A[@]}" -D "$h" --max-time 10 "$url" \
    -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sensor2-curl","version":"1.0.0"}}}'
echo
sid=$(grep -i '^mcp-session-id:' "$h" | tr -d '\r' | awk '{print $2}')
S=(-H "mcp-session-id: $sid" -H 'mcp-protocol-version: 2025-11-25')
curl "${A[@]}" "${S[@]}" --max-time 10 "$url" -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
echo "initialized $sid"
KA=(); [ "$tool" = wait ] && KA=(--no-keepalive)
curl "${A[@]}" "${S[@]}" "${KA[@]}" --max-time 90 "$url" \
    -d "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"$tool\",\"arguments\":{\"$([ "$tool" = wait ] && echo seconds || echo n)\":$n}}}"
echo
curl "${A[@]}" "${S[@]}" --max-time 10 -X DELETE "$url" -o /dev/null -w 'DELETE %{http_code}\n'
