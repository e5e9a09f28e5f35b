#!/usr/bin/env bash
# curl (the system's 7.88.1, nghttp2 1.52.0) as a scripted raw MCP client of samples/gen/ecosystem/h2more2.sh, scenario
# curl-upgrade: `curl --http2` to an http:// URL asks for HTTP/2 by the HTTP/1.1 Upgrade of RFC 7540 3.2 (`Connection:
# Upgrade, HTTP2-Settings`, `Upgrade: h2c`, `HTTP2-Settings`) on every new connection, with the request body too.
# One curl run (one TCP connection) per message, each bounded (--max-time 10), as a shell script would drive an MCP
# server: initialize (2025-11-25), notifications/initialized, tools/list, tools/call add(1,2), tools/call
# slow_count(3) with a progressToken, DELETE. The session id is read from the initialize reply's headers.
#   bash curl_client.sh URL SCRATCH-DIR
set -euo pipefail
url=$1
tmp=$2
mkdir -p "$tmp"
c() { curl -sS --http2 --max-time 10 -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' "$@"; }
c -D "$tmp/init.head" "$url" \
    -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl-script","version":"7.88.1"}}}'
echo
sid=$(grep -i '^mcp-session-id:' "$tmp/init.head" | cut -d' ' -f2 | tr -d '\r')
echo "session $sid" >&2
s=(-H "mcp-session-id: $sid" -H 'mcp-protocol-version: 2025-11-25')
c "${s[@]}" -o /dev/null -w 'notifications/initialized -> %{http_code} (HTTP/%{http_version})\n' "$url" \
    -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
c "${s[@]}" "$url" -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' | cut -c1-120
echo
c "${s[@]}" "$url" -d '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}'
echo
c "${s[@]}" "$url" \
    -d '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow_count","arguments":{"n":3},"_meta":{"progressToken":3}}}'
echo
c "${s[@]}" -X DELETE -o /dev/null -w 'DELETE -> %{http_code} (HTTP/%{http_version})\n' "$url"
