#!/usr/bin/env bash
# mcptap ecosystem corpus, group "pyservers6": four Python MCP servers from PyPI that serve HTTP themselves, three of
# them with a Streamable HTTP transport written by hand (no SDK transport), run against the official Python SDK client
# (`mcp` 2.3.0) with their defaults plus the settings users set, fully offline. Captured on loopback (127.0.0.1,
# ports 20650-20657 of the group's 20650-20669; 20669 is only named in a fetch URL the server refuses;
# 20667-20668 were used for trial runs outside any capture).
#
#   sudo bash samples/gen/ecosystem/pyservers6.sh             # every scenario
#   sudo bash samples/gen/ecosystem/pyservers6.sh SCENARIO..  # some of them
#
# Servers (four packages, each in its own venv, pyservers6/requirements-*.txt, pip freezes):
#   - office-word-mcp-server 1.1.11 (`word_mcp_server`, python-docx tools) on fastmcp 4.2.3 / mcp 2.3.0: MCP_TRANSPORT=
#     streamable-http or sse, MCP_HOST, MCP_PORT (its documented settings); documents written in its working directory
#     (pyservers6/run/word-<scenario>/).
#   - mcp-echo-streamablehttp-server-stateful 0.2.0: its own Starlette transport (routes POST/GET/OPTIONS /mcp, sessions
#     in its own manager); starlette pinned to 0.52.1 in its venv, because its Starlette(on_startup=...) fails on the
#     starlette 1.x that pip picks by default. MCP_PROTOCOL_VERSIONS_SUPPORTED (its documented setting) left at its
#     default (2025-06-18,2025-03-26,2024-11-05) in echo-default, set to 2025-11-25,2025-06-18,2025-03-26 elsewhere.
#   - mcp-echo-streamablehttp-server-stateless 0.2.0: the same author's stateless variant (starlette 1.10.0 as pip
#     picks it), MCP_PROTOCOL_VERSIONS_SUPPORTED as above.
#   - mcp-fetch-streamablehttp-server 0.2.0: FastAPI, its own "native Streamable HTTP" transport (mcp pinned to
#     1.30.0 in its venv: it imports mcp.shared.session, gone in mcp 2.x); needs
#     MCP_SERVER_NAME, MCP_SERVER_VERSION, MCP_PROTOCOL_VERSION (set to 2025-11-25, the client's version; it accepts
#     exactly one). Its fetch tool refuses 127.0.0.1 and non-http schemes before any request, so nothing is fetched.
#
# Scenarios (capture samples/ecosystem/pyservers6-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/pyservers6-<scenario>.pcap.txt), client pyservers6/ps6_client.py (mode legacy =
# initialize handshake, unless said), steps pyservers6/steps-*.json:
#   word-http            20650  word server, streamable-http at /mcp: create_document, add_paragraph,
#                               get_document_text, get_document_info of a missing file; DELETE on close
#   word-sse             20651  word server, MCP_TRANSPORT=sse (GET /sse, POST /messages/?session_id=): the same calls
#   word-stateless-json  20652  word server, streamable-http with FASTMCP_STATELESS_HTTP=true FASTMCP_JSON_RESPONSE=true
#   echo-default         20653  stateful echo server, default versions: the client's initialize (2025-11-25) refused
#   echo-stateful        20654  stateful echo server, 2025-11-25 added: echo, replayLastEcho, sessionInfo, nope
#   echo-stateless       20655  stateless echo server: echo, healthProbe, replayLastEcho (not in this variant), nope
#   echo-stateless-auto  20656  the same, client mode auto (the SDK default: server/discover first)
#   fetch                20657  fetch server: fetch http://127.0.0.1:20669/ (refused by its host check), fetch
#                               file:///etc/hostname (scheme refused), nope
#
# Each client run is bounded (timeout 60; the client ends itself after 50 s, 10 s per request). Each server is up
# before its capture starts (its port seen listening in the socket table, no probe) and stopped after it. DO_NOT_TRACK=1;
# a guard capture on every interface (lib.sh guard_start/guard_stop) checks that nothing left 127.0.0.1.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), python3 (3.11) with venv. First use makes pyservers6/.venv-*
# from pyservers6/requirements-*.txt (git-ignored). The listings are made by agents/wire.py. Results and labels:
# samples/ecosystem/pyservers6.md, samples/ecosystem/labels-pyservers6.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/pyservers6"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=pyservers6
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1
VERS=2025-11-25,2025-06-18,2025-03-26

setup() {
    local n
    for n in client word echo echols fetch; do need_venv "$W/.venv-$n" "$W/requirements-$n.txt"; done
}

# begin NAME PORT: guard on, port free, old logs gone, DESCRIBE set.
begin() {
    local name=$1 port=$2
    DESCRIBE=("$W/.venv-client/bin/python" "$ECO/agents/wire.py" - "$port")
    guard_start "$name"
    free "$port"
    rm -f "$RUN/$name"-*.log
}
# up NAME PORT CMD...: the server in its own process group, logged, its port seen listening.
up() { local name=$1 port=$2; shift 2; bg "$name-server" "$@"; listening "$port"; }
# client NAME PORT STEPS [client options]: capture on, one bounded client run, capture off, server down, guard off.
client() {
    local name=$1 port=$2 steps=$3; shift 3
    capture_start "$name" "$port"
    run "$name-client" "$W/.venv-client/bin/python" "$W/ps6_client.py" "$@" "$W/steps-$steps.json"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}
word() {
    local name=$1 port=$2 steps=$3; shift 3
    begin "$name" "$port"
    rm -rf "$RUN/word-$name"; mkdir -p "$RUN/word-$name"
    up "$name" "$port" env -C "$RUN/word-$name" MCP_HOST=$HOST MCP_PORT="$port" "$@" "$W/.venv-word/bin/word_mcp_server"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_word-http() {
    word word-http 20650 word MCP_TRANSPORT=streamable-http
    client word-http 20650 word "http://$HOST:20650/mcp"
}
scenario_word-sse() {
    word word-sse 20651 word MCP_TRANSPORT=sse
    client word-sse 20651 word --sse "http://$HOST:20651/sse"
}
scenario_word-stateless-json() {
    word word-stateless-json 20652 word MCP_TRANSPORT=streamable-http FASTMCP_STATELESS_HTTP=true FASTMCP_JSON_RESPONSE=true
    client word-stateless-json 20652 word "http://$HOST:20652/mcp"
}
scenario_echo-default() {
    begin echo-default 20653
    up echo-default 20653 "$W/.venv-echo/bin/mcp-echo-streamablehttp-server-stateful" --host $HOST --port 20653
    client echo-default 20653 echo "http://$HOST:20653/mcp"
}
scenario_echo-stateful() {
    begin echo-stateful 20654
    up echo-stateful 20654 env MCP_PROTOCOL_VERSIONS_SUPPORTED=$VERS \
        "$W/.venv-echo/bin/mcp-echo-streamablehttp-server-stateful" --host $HOST --port 20654
    client echo-stateful 20654 echo "http://$HOST:20654/mcp"
}
scenario_echo-stateless() {
    begin echo-stateless 20655
    up echo-stateless 20655 env MCP_PROTOCOL_VERSIONS_SUPPORTED=$VERS \
        "$W/.venv-echols/bin/mcp-echo-streamablehttp-server-stateless" --host $HOST --port 20655
    client echo-stateless 20655 echols "http://$HOST:20655/mcp"
}
scenario_echo-stateless-auto() {
    begin echo-stateless-auto 20656
    up echo-stateless-auto 20656 env MCP_PROTOCOL_VERSIONS_SUPPORTED=$VERS \
        "$W/.venv-echols/bin/mcp-echo-streamablehttp-server-stateless" --host $HOST --port 20656
    client echo-stateless-auto 20656 echols --mode auto "http://$HOST:20656/mcp"
}
scenario_fetch() {
    begin fetch 20657
    up fetch 20657 env -C "$RUN" HOST=$HOST PORT=20657 MCP_SERVER_NAME=mcp-fetch MCP_SERVER_VERSION=0.2.0 \
        MCP_PROTOCOL_VERSION=2025-11-25 "$W/.venv-fetch/bin/python" -m mcp_fetch_streamablehttp_server
    client fetch 20657 fetch "http://$HOST:20657/mcp"
}

ALL=(word-http word-sse word-stateless-json echo-default echo-stateful echo-stateless echo-stateless-auto fetch)

run_scenarios "tcpdump tshark ss python3" -- "$@"
