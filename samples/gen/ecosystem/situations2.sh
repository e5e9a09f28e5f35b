#!/usr/bin/env bash
# mcptap ecosystem corpus, group "situations2": real, unmodified MCP clients with automatic transport fallback meeting
# real legacy (HTTP+SSE, 2024-11-05) servers in situations users configure: nginx in front of the stream URL with a
# method rule (`limit_except GET`, answering a POST 403, or 401 with basic auth), and Gradio's MCP server whose
# legacy URL shares an app with its Streamable HTTP transport. Our code is only the harness: start, stop, nginx's
# config. Captured on loopback (127.0.0.1, ports 19830-19849):
#   fallback-403        ports 19830 (nginx, `limit_except GET { deny all; }` on /sse) -> 19831: the TS SDK 1.32.2
#                       HTTP+SSE server (../situations/ts-legacy-server.mjs); client: the TS SDK's shipped example
#                       `streamableHttpWithSseFallbackClient` (dist/esm/examples/client/, unmodified), URL /sse
#   fallback-401        ports 19832 (nginx, `limit_except GET { auth_basic ...; }` on /sse) -> 19833: the Python SDK
#                       2.3.0 HTTP+SSE app (../py_server.py --sse); the same example client, URL /sse
#   fallback-403-remote ports 19834 (nginx as in fallback-403) -> 19835 (TS SDK HTTP+SSE server): mcp-remote 0.15.1
#                       (defaults: http-first) driven over stdio by ../situations/mcp_remote_client.mjs, URL /sse
#                       (19849: mcp-remote's OAuth callback port, never opened)
#   gradio-remote       port 19836: Gradio 6.31.0's MCP server (../gradio/app.py) <- mcp-remote as above, URL
#                       /gradio_api/mcp/sse (the legacy URL of older Gradio configurations)
#   gradio-fallback     port 19837: the same Gradio app <- the TS SDK example fallback client, URL /gradio_api/mcp/sse
#
#   sudo bash samples/gen/ecosystem/situations2.sh             # every scenario (about 1 minute after setup)
#   sudo bash samples/gen/ecosystem/situations2.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/situations2-<scenario>.pcap, listings samples/gen/wire/ecosystem/situations2-<scenario>.pcap.txt
# (../nonmcp3/wire.py PORT for one hop, ../proxies2/wire.py FRONT BACK for two). Each process is bounded (timeout) and
# stopped after its scenario; a guard capture on every interface (lib.sh guard_start/guard_stop) checks that nothing
# left 127.0.0.1.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), nginx (Debian 12: `apt-get install -y nginx`; run as our own
# process with a private prefix, the system service untouched), python3 with venv, node 20 + npm. First use makes the
# sdks group's venv sdks/.venv (mcp 2.3.0), situations/node_modules (`npm ci`: TS SDK 1.32.2, express, zod,
# mcp-remote) and situations2/.venv (gradio 6.31.0 with the mcp extra: situations2/requirements-gradio.txt, the
# gradio group's pins). All git-ignored. Results and labels: samples/ecosystem/situations2.md,
# samples/ecosystem/labels-situations2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/situations2"
SIT="$ECO/situations"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=situations2
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 MCP_REMOTE_CONFIG_DIR="$RUN/mcp-auth"
# Gradio offline: no version check or telemetry (api.gradio.app), no Hub; its scratch under run/.
export GRADIO_ANALYTICS_ENABLED=False HF_HUB_OFFLINE=1 HF_HUB_DISABLE_TELEMETRY=1 GRADIO_TEMP_DIR="$RUN/tmp"

SDKPY="$ECO/sdks/.venv/bin/python"
GRPY="$W/.venv/bin/python"
TS_LEGACY=(node "$SIT/ts-legacy-server.mjs")                                        # PORT
PY_LEGACY=("$SDKPY" "$ECO/py_server.py" --name situations2-legacy-{port} --sse)     # PORT
FALLBACK_CLIENT=(node "$SIT/node_modules/@modelcontextprotocol/sdk/dist/esm/examples/client/streamableHttpWithSseFallbackClient.js")  # URL
REMOTE_CLIENT=(node "$SIT/mcp_remote_client.mjs")                                   # URL CALLBACK-PORT

setup() {
    setup_pysdk
    need_npm "$SIT"
    need_venv "$W/.venv" "$W/requirements-gradio.txt" gradio
}

U() { echo "http://$HOST:$1$2"; }
one_hop() { DESCRIBE=("$SDKPY" "$ECO/nonmcp3/wire.py" "$1"); }
two_hops() { DESCRIBE=("$SDKPY" "$ECO/proxies2/wire.py" "$1" "$2"); }

# down: SIGINT to each process group started by bg, a second, then SIGKILL.
down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}
# nginx_up NAME FRONT BACK LIMIT: nginx.conf.in for these ports and method rule (getonly | basic) under run/nginx-NAME,
# nginx in the foreground (bg). basic: a password file with one user (nginx's {PLAIN} scheme); the client has none.
nginx_up() {
    local d="$RUN/nginx-$1" limit
    rm -rf "$d"; mkdir -p "$d/tmp"
    case "$4" in
        getonly) limit='limit_except GET { deny all; }' ;;
        basic) limit='limit_except GET { auth_basic "mcp"; auth_basic_user_file htpasswd; }'
               echo 'operator:{PLAIN}not-given-to-the-client' >"$d/htpasswd" ;;
    esac
    sed -e "s/@FRONT@/$2/g" -e "s/@BACK@/$3/g" -e "s/@LIMIT@/$limit/" "$W/nginx.conf.in" >"$d/nginx.conf"
    bg "$1-nginx" nginx -p "$d" -c nginx.conf -e stderr
    listening "$2"
}
# gradio_up NAME PORT: ../gradio/app.py on PORT, waited for until its log says it serves MCP (the gradio group's way).
gradio_up() {
    local name=$1 port=$2 i
    : >"$RUN/$name-server.log"
    bg "$name-server" "$GRPY" "$ECO/gradio/app.py" "$port"
    for i in $(seq 1 600); do
        grep -q "Streamable HTTP URL" "$RUN/$name-server.log" && break
        sleep 0.1
    done
    grep -q "Streamable HTTP URL" "$RUN/$name-server.log" || { cat "$RUN/$name-server.log" >&2; return 1; }
    listening "$port"
    sleep 0.5
}
# finish NAME: capture stop and listing, everything down, guard off, the logs' tails.
finish() {
    local name=$1 f
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    for f in "$RUN/$name"-*.log; do
        grep -vE '^\s*$' "$f" | cut -c1-160 | tail -8 | sed "s/^/   $(basename "$f" .log): /" || true
    done
}
# proxied NAME FRONT BACK LIMIT SECONDS SERVER-CMD... -- CLIENT-CMD...: the server on BACK behind nginx on FRONT.
proxied() {
    local name=$1 front=$2 back=$3 limit=$4 secs=$5; shift 5
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    two_hops "$front" "$back"
    guard_start "$name"
    free "$front" "$back"
    rm -f "$RUN/$name"-*.log
    bg "$name-server" "${srv[@]}" "$back"
    listening "$back"
    nginx_up "$name" "$front" "$back" "$limit"
    sleep 1
    capture_start "$name" "$front" "$back"
    timeout "$secs" "$@" >"$RUN/$name-client.log" 2>&1 || echo "   ($name client exited with $?)"
    finish "$name"
}
# gradio NAME PORT SECONDS CLIENT-CMD...: the Gradio app on PORT, one bounded client run.
gradio() {
    local name=$1 port=$2 secs=$3; shift 3
    one_hop "$port"
    guard_start "$name"
    free "$port"
    rm -f "$RUN/$name"-*.log
    gradio_up "$name" "$port"
    capture_start "$name" "$port"
    timeout "$secs" "$@" >"$RUN/$name-client.log" 2>&1 || echo "   ($name client exited with $?)"
    finish "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_fallback-403() {
    proxied fallback-403 19830 19831 getonly 30 "${TS_LEGACY[@]}" -- "${FALLBACK_CLIENT[@]}" "$(U 19830 /sse)"
}
scenario_fallback-401() {
    proxied fallback-401 19832 19833 basic 30 "${PY_LEGACY[@]}" -- "${FALLBACK_CLIENT[@]}" "$(U 19832 /sse)"
}
scenario_fallback-403-remote() {
    proxied fallback-403-remote 19834 19835 getonly 45 "${TS_LEGACY[@]}" -- "${REMOTE_CLIENT[@]}" "$(U 19834 /sse)" 19849
}
scenario_gradio-remote() {
    gradio gradio-remote 19836 45 "${REMOTE_CLIENT[@]}" "$(U 19836 /gradio_api/mcp/sse)" 19849
}
scenario_gradio-fallback() {
    gradio gradio-fallback 19837 30 "${FALLBACK_CLIENT[@]}" "$(U 19837 /gradio_api/mcp/sse)"
}

ALL=(fallback-403 fallback-401 fallback-403-remote gradio-remote gradio-fallback)
run_scenarios "tcpdump tshark ss nginx node npm python3" -- "$@"
