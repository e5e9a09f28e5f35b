# Helpers shared by the capture scripts (sourced, not run). The caller sets HOST (the server's address) and,
# to probe from inside a network namespace, PROBE_NS.

# Where things are: this folder, the samples folder the captures go to, and the pinned SDKs.
GEN="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$(cd "$GEN/.." && pwd)"          # samples/
PY="$GEN/.venv/bin/python"
TS="$GEN/ts"

# wait_port PORT: wait (max 30 s) until HOST:PORT accepts connections, so the capture starts with the server
# up and holds no connection-refused noise.
wait_port() {
    local port=$1 i prefix=()
    [ -n "${PROBE_NS:-}" ] && prefix=(ip netns exec "$PROBE_NS")
    for i in $(seq 1 300); do
        if "${prefix[@]}" timeout 2 bash -c "exec 3<>/dev/tcp/$HOST/$port" 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "server on port $port did not come up" >&2
    return 1
}

# wait_capturing LOG: wait (max 10 s) until the capture tool (tcpdump or dumpcap) writing LOG is listening.
wait_capturing() {
    local log=$1 i
    for i in $(seq 1 100); do
        if grep -qE 'listening on|Capturing on' "$log" 2>/dev/null; then sleep 0.5; return 0; fi
        sleep 0.1
    done
    echo "capture did not start: $(cat "$log")" >&2
    return 1
}

# check_posts FILE EXPECTED: the kind of each POST response in OUT/FILE, in order (see py/describe.py --posts),
# must be EXPECTED ("-": not checked); a mismatch is printed and FILE appended to FAILED. Uses PY, GEN, OUT.
check_posts() {
    local got
    [ "$2" = "-" ] && return 0
    got="$("$PY" "$GEN/py/describe.py" --posts "$OUT/$1")"
    if [ "$got" = "$2" ]; then
        echo "   ok: POST replies: $got"
    else
        echo "   UNEXPECTED POST replies in $1: got '$got', want '$2'" >&2
        FAILED+=("$1")
    fi
}

# check FILE EXPECTED: check_posts, then the full exchange listing (frame numbers, statuses, content types,
# SSE ids) into wire/FILE.txt beside the scripts.
check() {
    check_posts "$1" "$2"
    mkdir -p "$GEN/wire"
    (cd "$OUT" && "$PY" "$GEN/py/describe.py" "$1") >"$GEN/wire/$1.txt"
}
