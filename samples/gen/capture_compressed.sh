#!/usr/bin/env bash
# Capture real MCP SDK traffic with compressed bodies, each with an uncompressed twin captured the same way:
#
#   sudo bash samples/gen/capture_compressed.sh            # every capture below
#   sudo bash samples/gen/capture_compressed.sh nginx-gzip-downgrade   # only the named one(s)
#
# nginx (Debian's, `apt-get install -y nginx`, run with its own -c config and prefix in a temp dir) sits in
# front of the real Python SDK server with `gzip on; gzip_types application/json text/event-stream;
# gzip_proxied any;` (the twin: the same config with `gzip off`); the real Python SDK client talks to nginx
# and sends `Accept-Encoding: gzip, deflate, ...` (httpx's default). Only the client <-> nginx hop is
# captured (tcp port of nginx). br and zstd come from py/compress_gateway.py, an ASGI middleware in front of
# the real SDK server (the `brotli` and `zstandard` PyPI packages, pinned in requirements.txt); its twin is
# the same middleware with `--coding identity`. `body-undecoded.pcap` is a deliberately broken server (the
# same middleware labelling late POST replies with an unknown coding and corrupting one gzip reply).
# Ports 18400-18499 only; everything on 127.0.0.1; each run bounded (client timeout 60 s).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
HOST=127.0.0.1

if [ ! -x "$PY" ]; then
    python3 -m venv "$GEN/.venv"
    "$GEN/.venv/bin/pip" install --quiet -r "$GEN/requirements.txt"
fi
for tool in nginx tcpdump; do command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }; done

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
    local p
    for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    PIDS=()
}
trap 'cleanup; rm -rf "$WORK"' EXIT INT TERM

# nginx_conf PORT BACKEND on|off: a config of our own in $WORK/nginx-PORT (lib.sh), whose folder it prints.
nginx_conf() {
    write_nginx_conf "$WORK/nginx-$1" "$1" "$2" "$3"
    echo "$WORK/nginx-$1"
}

# capture FILE PORT -- SERVER-CMD... -- [nginx on|off BACKEND-PORT]
capture() {
    local file=$1 port=$2; shift 2
    shift
    local server=()
    while [ "$1" != "--" ]; do server+=("$1"); shift; done
    shift
    local caplog="$WORK/$file.cap"
    echo "== $file (port $port)"
    "${server[@]}" >"$WORK/$file.server" 2>&1 &
    PIDS+=($!)
    if [ "${1:-}" = nginx ]; then
        local backend=$3 dir
        wait_port "$backend"
        dir="$(nginx_conf "$port" "$backend" "$2")"
        nginx -p "$dir" -c "$dir/nginx.conf" >"$dir/out.log" 2>&1 &
        PIDS+=($!)
    fi
    wait_port "$port"
    rm -f "$OUT/$file"
    tcpdump -i lo -s 0 -U -Z root -w "$OUT/$file" "tcp port $port" 2>"$caplog" &
    local cap=$!
    wait_capturing "$caplog"
    local rc=0
    timeout 60 "$PY" "$GEN/py/mcp_sample.py" client --url "http://$HOST:$port/mcp" >"$WORK/$file.client" 2>&1 || rc=$?
    sed 's/^/   client: /' "$WORK/$file.client" | tail -3
    [ "$rc" -eq 0 ] || echo "   client exited with $rc"
    sleep 1
    kill -INT "$cap"; wait "$cap" || true
    cleanup
    grep -E 'packets captured' "$caplog" | sed 's/^/   /' || true
    chmod 644 "$OUT/$file"
}

py_server() { echo "$PY" "$GEN/py/mcp_sample.py" server --port "$@"; }
gateway() { echo "$PY" "$GEN/py/compress_gateway.py" --port "$@"; }

run() {
    case "$1" in
    nginx-gzip-json-clean)  capture nginx-gzip-json-clean.pcap  18401 -- $(py_server 18451 --json) -- nginx on 18451 ;;
    nginx-plain-json-clean) capture nginx-plain-json-clean.pcap 18402 -- $(py_server 18452 --json) -- nginx off 18452 ;;
    nginx-gzip-sse-ids)     capture nginx-gzip-sse-ids.pcap     18403 -- $(py_server 18453 --event-store) -- nginx on 18453 ;;
    nginx-plain-sse-ids)    capture nginx-plain-sse-ids.pcap    18404 -- $(py_server 18454 --event-store) -- nginx off 18454 ;;
    nginx-gzip-downgrade)   capture nginx-gzip-downgrade.pcap   18405 -- $(py_server 18455 --json-first 3) -- nginx on 18455 ;;
    nginx-plain-downgrade)  capture nginx-plain-downgrade.pcap  18406 -- $(py_server 18456 --json-first 3) -- nginx off 18456 ;;
    br-downgrade)           capture br-downgrade.pcap           18407 -- $(gateway 18407 --coding br --json-first 3) -- ;;
    zstd-downgrade)         capture zstd-downgrade.pcap         18408 -- $(gateway 18408 --coding zstd --json-first 3) -- ;;
    identity-downgrade)     capture identity-downgrade.pcap     18409 -- $(gateway 18409 --coding identity --json-first 3) -- ;;
    body-undecoded)         capture body-undecoded.pcap         18410 -- $(gateway 18410 --coding gzip --unknown-at 4 --corrupt-at 5) -- ;;
    *) echo "unknown capture $1" >&2; exit 1 ;;
    esac
    check "$1.pcap" -
}

FAILED=()
ALL=(nginx-gzip-json-clean nginx-plain-json-clean nginx-gzip-sse-ids nginx-plain-sse-ids nginx-gzip-downgrade
     nginx-plain-downgrade br-downgrade zstd-downgrade identity-downgrade body-undecoded)
for s in "${@:-${ALL[@]}}"; do run "$s"; done
[ "${#FAILED[@]}" -eq 0 ] || { echo "FAILED: ${FAILED[*]}" >&2; exit 1; }
