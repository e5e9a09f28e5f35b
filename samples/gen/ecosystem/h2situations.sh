#!/usr/bin/env bash
# mcptap ecosystem corpus, group "h2situations": MCP over HTTP/2 in the situations where HTTP/2 itself acts (a
# cancelled call, a graceful shutdown with GOAWAY, a killed server, a restart, several sessions multiplexed on one h2
# connection through a front, a result larger than the flow-control windows). Real stacks with their defaults: the
# Python SDK server (mcp 2.3.0, h2situations/h2situations_py.py, the shared tool set of ../pysdk_tools.py) under
# hypercorn 0.18.0 (h2c: it takes the prior-knowledge preface on a cleartext port), granian 2.8.9 (`--http 2`) or
# uvicorn (HTTP/1.1, behind a front); the Python SDK client over httpx2 2.17.0 with `http1=False, http2=True` (h2c,
# prior knowledge); the TypeScript SDK 1.32.2 client over undici 7.30.3 with `allowH2` (h2 over TLS: undici has no
# h2c; key log beside the capture); nghttpx 1.52.0 and nginx 1.22.1 (Debian) as h2c fronts to an HTTP/1.1 backend.
# Captured on loopback (127.0.0.1, ports 20450-20469 only):
#   cancel-legacy     port 20450: Python client (mode legacy, 2025-11-25) -> hypercorn h2c: tools/list, add,
#                     slow_count(30) whose task is cancelled at the 2nd progress notification, add, close
#   cancel-modern     port 20451: the same with the client in its default mode (2026-07-28, stateless)
#   goaway-hypercorn  port 20452: Python client (legacy) -> hypercorn h2c: add, slow_count(30); at its 2nd progress
#                     notification hypercorn gets SIGTERM (its graceful shutdown); then the client's add and close
#   goaway-granian    port 20453: the same against granian --http 2 (SIGTERM)
#   kill-hypercorn    port 20454: as goaway-hypercorn, but hypercorn gets SIGKILL
#   restart-hypercorn port 20455: Python client (legacy) -> hypercorn h2c: add, 6 s pause while hypercorn is stopped
#                     (SIGTERM) and started again, add x3, close
#   two-nghttpx       ports 20456 (front) + 20457 (backend): ONE httpx2 client, two Python SDK sessions at once
#                     (legacy; each tools/list, add, slow_count(3), add, close) -> nghttpx h2c front -> uvicorn HTTP/1.1
#   two-nginx         ports 20458 (front) + 20459 (backend): the same through nginx `listen ... http2` (h2c) with an
#                     upstream keepalive pool -> uvicorn HTTP/1.1
#   large-hypercorn   port 20460: Python client (legacy) -> hypercorn h2c: tools/list, report(4000) (a 215 KB text,
#                     ~430 KB SSE event), echo of that text (a 215 KB request body: flow control, WINDOW_UPDATE), add,
#                     close
#   large-granian     port 20461: the same against granian --http 2
#   cancel-undici     port 20462: TypeScript SDK client on undici h2 (TLS) -> hypercorn with TLS: add, slow_count(30)
#                     aborted (AbortSignal) at the 2nd progress notification, add, DELETE, close
#   restart-undici    port 20463: the same client: add, 6 s pause while hypercorn is stopped (SIGTERM) and started
#                     again, add x3, DELETE, close
#
#   sudo bash samples/gen/ecosystem/h2situations.sh             # every scenario
#   sudo bash samples/gen/ecosystem/h2situations.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/h2situations-<scenario>.pcap (the undici ones with h2situations-<scenario>.keys beside
# them: `mcptap -r X.pcap --keylog X.keys`), listings samples/gen/wire/ecosystem/h2situations-<scenario>.pcap.txt made
# by the javah2 group's javah2/wire.py (h2c ports decoded with --prior) or, for TLS, the h2tls group's
# h2tls/describe_h2.py (decrypted with the key log). Each client run is bounded (timeout 60, and the clients bound
# themselves); every server is stopped after its scenario; a guard capture on every interface (lib.sh
# guard_start/guard_stop) records whatever else left 127.0.0.1 meanwhile. Servers are awaited by watching the socket
# table (lib.sh listening), never by a probe connection.
#
# Needs root (tcpdump), tcpdump, tshark, ss, python3 (3.11) with venv, node 20 + npm, openssl (a self-signed
# certificate for 127.0.0.1 in h2situations/certs), nghttpx (Debian nghttp2-proxy), nginx (Debian). First use makes
# h2situations/.venv (h2situations/requirements.txt, a freeze of the h2more group's pins: mcp 2.3.0, hypercorn,
# granian, httpx2, h2, uvicorn) and h2situations/node_modules (npm ci of h2situations/package-lock.json). All git-ignored
# (h2situations/.gitignore). Results and labels: samples/ecosystem/h2situations.md, labels-h2situations.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/h2situations"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=h2situations
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 OTEL_SDK_DISABLED=true NO_UPDATE_NOTIFIER=1

VPY="$W/.venv/bin/python"
HYPERCORN="$W/.venv/bin/hypercorn"
GRANIAN="$W/.venv/bin/granian"
UVICORN="$W/.venv/bin/uvicorn"
CERT="$W/certs/cert.pem"
KEY="$W/certs/key.pem"

setup() {
    [ -s "$CERT" ] || { mkdir -p "$W/certs" && openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=127.0.0.1" \
        -addext "subjectAltName=IP:127.0.0.1" -keyout "$KEY" -out "$CERT" 2>/dev/null; }
    need_venv "$W/.venv" "$W/requirements.txt" granian
    need_npm "$W"
}

hypercorn_cmd() {   # PORT [tls]
    local tls=()
    [ "${2:-}" = tls ] && tls=(--certfile "$CERT" --keyfile "$KEY")
    echo "$HYPERCORN" "${tls[@]}" --bind "$HOST:$1" "$W/h2situations_py.py:app"
}
granian_cmd() { echo "$GRANIAN" --interface asgi --http 2 --host "$HOST" --port "$1" --working-dir "$W" h2situations_py:app; }
uvicorn_cmd() { echo "$UVICORN" --host "$HOST" --port "$1" --app-dir "$W" --no-access-log h2situations_py:app; }
py_client() { echo "$VPY" "$W/h2situations_py.py" client --url "http://$HOST:$1/mcp" --plan "$2" --mode "${3:-legacy}"; }
keys() { local k="$CAP/$GROUP-$1.keys"; rm -f "$k"; echo "$k"; }
node_client() { echo env -C "$W" node "--tls-keylog=$(keys "$1")" "$W/client.mjs" "https://$HOST:$2/mcp" "$CERT" "$3"; }

# begin NAME PORTS LISTING -- SERVER-CMD...: guard on, the server up (seen listening on the first port), capture of
# PORTS (comma-separated) on, DESCRIBE set to LISTING (h2c: javah2/wire.py with the h2c port as --prior; tls:
# h2tls/describe_h2.py with the key log).
begin() {
    local name=$1 ports=$2 listing=$3; shift 4
    local p1=${ports%%,*}
    if [ "$listing" = tls ]; then
        DESCRIBE=(python3 "$ECO/h2tls/describe_h2.py")
    else
        DESCRIBE=(python3 "$ECO/javah2/wire.py" "$listing" --prior "$p1")
    fi
    # shellcheck disable=SC2046
    free $(echo "$ports" | tr , ' ')
    rm -f "$RUN/$name"-*.log
    guard_start "$name"
    bg "$name-server" "$@"
    listening "$p1"
    # shellcheck disable=SC2046
    capture_start "$name" $(echo "$ports" | tr , ' ')
}
end() {
    capture_stop "$1"
    cleanup
    sleep 1
    guard_stop "$1"
}
show_client() { grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$1-client.log" | cut -c1-150 | tail -20 | sed "s/^/   $1-client: /" || true; }

# simple NAME PORT SERVER-CMD -- CLIENT-CMD: one bounded client run against one server.
simple() {
    local name=$1 port=$2; shift 2
    local srv=()
    while [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    begin "$name" "$port" "server=$port" -- "${srv[@]}"
    run "$name-client" "$@"
    end "$name"
}

# signal_scenario NAME PORT SIGNAL SERVER-CMD -- CLIENT-CMD: the client runs in the background; at its 2nd progress
# notification of slow_count(30) the server gets SIGNAL: TERM goes to the server's main process only (what `kill PID`
# does; hypercorn's and granian's main process then shut their workers down gracefully: a worker that got SIGTERM
# itself would die at once), KILL to its whole process group (main process and workers die at once).
signal_scenario() {
    local name=$1 port=$2 sig=$3 cpid i; shift 3
    local srv=()
    while [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    begin "$name" "$port" "server=$port" -- "${srv[@]}"
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    for i in $(seq 1 300); do grep -q '^\[.*\] progress 2' "$RUN/$name-client.log" && break; sleep 0.05; done
    echo "   SIG$sig to the server"
    if [ "$sig" = TERM ]; then kill -TERM "${PIDS[0]}"; wait "${PIDS[0]}" 2>/dev/null || true; else stop "${PIDS[0]}" "$sig"; fi
    PIDS=()
    wait "$cpid" || echo "   ($name-client exited with $?)"
    show_client "$name"
    end "$name"
}

# restart_scenario NAME PORT LISTING CLIENT-MATCH SERVER-CMD -- CLIENT-CMD (LISTING: h2c or tls, see begin): the client (background) calls add and pauses 6 s;
# as soon as its log shows the first result (CLIENT-MATCH) the server is stopped (SIGTERM to its main process: its
# graceful shutdown) and
# started again (seen listening in the socket table, no probe); the client calls add three times more and closes.
restart_scenario() {
    local name=$1 port=$2 listing=$3 match=$4 cpid i; shift 4
    local srv=()
    while [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    [ "$listing" = tls ] || listing="server=$port"
    begin "$name" "$port" "$listing" -- "${srv[@]}"
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    for i in $(seq 1 300); do grep -q "$match" "$RUN/$name-client.log" && break; sleep 0.1; done
    kill -TERM "${PIDS[0]}"; wait "${PIDS[0]}" 2>/dev/null || true; PIDS=()
    free "$port"
    bg "$name-server2" "${srv[@]}"
    listening "$port"
    wait "$cpid" || echo "   ($name-client exited with $?)"
    show_client "$name"
    end "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
# shellcheck disable=SC2046
scenario_cancel-legacy() { simple cancel-legacy 20450 $(hypercorn_cmd 20450) -- $(py_client 20450 cancel legacy); }
# shellcheck disable=SC2046
scenario_cancel-modern() { simple cancel-modern 20451 $(hypercorn_cmd 20451) -- $(py_client 20451 cancel auto); }
# shellcheck disable=SC2046
scenario_goaway-hypercorn() { signal_scenario goaway-hypercorn 20452 TERM $(hypercorn_cmd 20452) -- $(py_client 20452 slow); }
# shellcheck disable=SC2046
scenario_goaway-granian() { signal_scenario goaway-granian 20453 TERM $(granian_cmd 20453) -- $(py_client 20453 slow); }
# shellcheck disable=SC2046
scenario_kill-hypercorn() { signal_scenario kill-hypercorn 20454 KILL $(hypercorn_cmd 20454) -- $(py_client 20454 slow); }
# shellcheck disable=SC2046
scenario_restart-hypercorn() {
    restart_scenario restart-hypercorn 20455 h2c "add {'a': 1, 'b': 2} ->" $(hypercorn_cmd 20455) -- $(py_client 20455 restart)
}
# shellcheck disable=SC2046
scenario_large-hypercorn() { simple large-hypercorn 20460 $(hypercorn_cmd 20460) -- $(py_client 20460 large); }
# shellcheck disable=SC2046
scenario_large-granian() { simple large-granian 20461 $(granian_cmd 20461) -- $(py_client 20461 large); }

# front_scenario NAME FRONT BACK FRONT-CMD...: uvicorn (HTTP/1.1) on BACK, the front on FRONT, both ports captured; the
# two-session client through the front.
front_scenario() {
    local name=$1 front=$2 back=$3; shift 3
    DESCRIBE=(python3 "$ECO/javah2/wire.py" "front=$front,backend=$back" --prior "$front")
    free "$front" "$back"
    rm -f "$RUN/$name"-*.log
    guard_start "$name"
    # shellcheck disable=SC2046
    bg "$name-backend" $(uvicorn_cmd "$back")
    listening "$back"
    bg "$name-front" "$@"
    listening "$front"
    capture_start "$name" "$front" "$back"
    # shellcheck disable=SC2046
    run "$name-client" $(py_client "$front" two)
    end "$name"
}
scenario_two-nghttpx() { front_scenario two-nghttpx 20456 20457 nghttpx --conf="$W/nghttpx-h2c.conf"; }
scenario_two-nginx() {
    mkdir -p "$RUN/nginx/tmp"
    front_scenario two-nginx 20458 20459 nginx -p "$RUN/nginx/" -c "$W/nginx-h2c.conf" -e error.log
}

scenario_cancel-undici() {
    # shellcheck disable=SC2046
    begin cancel-undici 20462 tls -- $(hypercorn_cmd 20462 tls)
    # shellcheck disable=SC2046
    run cancel-undici-client $(node_client cancel-undici 20462 cancel)
    end cancel-undici
    chmod 644 "$CAP/$GROUP-cancel-undici.keys"
}
scenario_restart-undici() {
    # shellcheck disable=SC2046
    restart_scenario restart-undici 20463 tls '^\[.*\] add {"a":1,"b":2} ->' $(hypercorn_cmd 20463 tls) -- \
        $(node_client restart-undici 20463 restart)
    chmod 644 "$CAP/$GROUP-restart-undici.keys"
}

ALL=(cancel-legacy cancel-modern goaway-hypercorn goaway-granian kill-hypercorn restart-hypercorn two-nghttpx two-nginx
     large-hypercorn large-granian cancel-undici restart-undici)

run_scenarios "tcpdump tshark ss openssl node npm nghttpx nginx" -- "$@"
