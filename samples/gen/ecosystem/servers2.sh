#!/usr/bin/env bash
# mcptap ecosystem corpus, group "servers2": more published MCP servers (npm, PyPI) that offer an HTTP transport, each
# run with its own defaults over it, against the official SDK clients (TS SDK 1.32.2, Python SDK `mcp` 2.3.0) with
# theirs, fully offline: every cloud or cluster API these servers front is pointed at 127.0.0.1:19289, where nothing
# listens (their tools answer "connection refused" errors), telemetry and update checks are off, and a guard capture
# of all other traffic checks it. Captured on loopback (127.0.0.1, ports 19270-19289 only).
#
#   sudo bash samples/gen/ecosystem/servers2.sh             # every scenario
#   sudo bash samples/gen/ecosystem/servers2.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/servers2-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   context7        port 19270: @upstash/context7-mcp 4.1.1 --transport http (express + the TS SDK v2
#                   `createMcpHandler`: stateless, 2026-07-28 native, a 2025 fallback) <- TS SDK client: tools,
#                   resolve-library-id (its API is refused), close()
#   context7-py     port 19271: the same server <- the Python SDK client, mode auto (server/discover first)
#   notion          port 19272: @notionhq/notion-mcp-server 2.5.2 --transport http (express + its bundled TS SDK
#                   transport, stateful, bearer token AUTH_TOKEN) <- TS SDK client with Authorization: Bearer: tools,
#                   API-get-self (the Notion API at BASE_URL is refused), close()
#   notion-py       port 19273: the same server <- the Python SDK client (auto), the same header and call
#   kubernetes      port 19274: kubernetes-mcp-server 0.0.67 --port (Go, the official go-sdk 1.8.0 Streamable HTTP
#                   handler, stateful) with a kubeconfig whose cluster is refused <- TS SDK client: tools,
#                   configuration_view (works offline), namespaces_list (refused), close()
#   kubernetes-py   port 19275: the same server <- the Python SDK client (auto)
#   firecrawl       port 19276: firecrawl-mcp 3.26.0 HTTP_STREAMABLE_SERVER=true (FastMCP for TypeScript httpStream,
#                   stateless) with FIRECRAWL_API_URL refused <- TS SDK client: tools, firecrawl_scrape, close()
#   firecrawl-py    port 19277: the same server <- the Python SDK client (auto)
#   atlassian       port 19278: mcp-atlassian 0.23.1 --transport streamable-http (FastMCP 3.4.11 on the Python SDK
#                   1.30.0 transport, stateful) with JIRA_URL refused <- TS SDK client with Authorization: Token (a
#                   per-request personal token, which this server requires): tools, jira_get_issue, close()
#   atlassian-py    port 19279: the same server <- the Python SDK client (auto), the same header and call
#   atlassian-sse   port 19280: the same package, --transport sse (GET /sse, POST /messages/?session_id=) <- TS SDK
#                   SSEClientTransport with the same header, the same call
#
# Each client run is bounded (timeout 60 here, 30 s inside); the whole run takes about a minute. The fixture (setup)
# is a kubeconfig in RUN naming the refused cluster https://127.0.0.1:19289 with a dummy token.
#
# Needs root (tcpdump), tcpdump, tshark (agents/wire.py, the agents group's listing), python3 with venv, node 20 + npm.
# First use makes the sdks group's venv sdks/.venv (the Python SDK 2.3.0 client; also runs wire.py),
# servers2/.venv-atlassian from servers2/requirements-atlassian.txt, and servers2/node_modules (`npm ci`: the four npm
# servers and the TS SDK client). All git-ignored (servers2/.gitignore). Results and labels:
# samples/ecosystem/servers2.md, samples/ecosystem/labels-servers2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/servers2"                                       # harness code, pins, node_modules, venvs
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the kubeconfig, the servers' working directory
GROUP=servers2
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, need_npm, free, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python SDK client; also runs wire.py
NM="$W/node_modules"
DEAD="http://$HOST:19289"                               # every upstream API: nothing listens there (refused at once)

setup() {
    setup_pysdk
    need_venv "$W/.venv-atlassian" "$W/requirements-atlassian.txt" mcp-atlassian
    need_npm "$W"
    cat >"$RUN/kubeconfig" <<KUBE
apiVersion: v1
kind: Config
clusters:
- name: offline
  cluster:
    server: https://$HOST:19289
    insecure-skip-tls-verify: true
contexts:
- name: offline
  context:
    cluster: offline
    user: offline
    namespace: default
current-context: offline
users:
- name: offline
  user:
    token: offline-token
KUBE
}

TS_CLIENT=(node "$W/ts_client.mjs")
PY_CLIENT=("$SDKPY" "$W/py_client.py")
# @upstash/context7-mcp (CONTEXT7 --port N): its API (CONTEXT7_API_URL) refused; OTEL_SDK_DISABLED=true turns its
# OpenTelemetry off (otherwise it starts an embedded Prometheus exporter in HTTP mode). It binds every interface.
CONTEXT7=(env OTEL_SDK_DISABLED=true CONTEXT7_API_URL="$DEAD/api" node "$NM/@upstash/context7-mcp/dist/index.js" --transport http)
# @notionhq/notion-mcp-server (NOTION --port N): host 127.0.0.1 by default; AUTH_TOKEN fixes the bearer token it
# requires (otherwise a random one written to a temp file); BASE_URL replaces the Notion API's URL; no NOTION_TOKEN,
# so nothing is fetched at start (it looks up api.notion.com/v1/users/me when one is set).
NOTION_TOKEN_HDR="Authorization:Bearer mcptap-offline"
NOTION=(env AUTH_TOKEN=mcptap-offline BASE_URL="$DEAD" node "$NM/@notionhq/notion-mcp-server/bin/cli.mjs" --transport http)
# kubernetes-mcp-server (KUBE --port N): the npm package's Go binary, run directly (the package's bin/index.js only
# spawns it); telemetry is off by default; the kubeconfig's cluster is refused.
KUBE=("$NM/kubernetes-mcp-server-linux-amd64/bin/kubernetes-mcp-server-linux-amd64" --bind-address "$HOST"
      --kubeconfig "$RUN/kubeconfig")
# firecrawl-mcp (PORT=N FIRECRAWL...): HTTP_STREAMABLE_SERVER=true (FastMCP-TS httpStream on /mcp, stateless);
# FIRECRAWL_API_URL (a self-hosted API) refused. It declares node >= 22 and runs on 20.
FIRECRAWL=(env HTTP_STREAMABLE_SERVER=true HOST="$HOST" FIRECRAWL_API_URL="$DEAD" node "$NM/firecrawl-mcp/dist/index.js")
# mcp-atlassian (ATLASSIAN --transport T --port N): Jira Server/Data Center at JIRA_URL (refused) with a personal
# token; FASTMCP_CHECK_FOR_UPDATES=off (FastMCP asks pypi.org for a newer version when it prints its banner) and no
# banner. Clients must send their own credentials (Authorization: Token ...): it answers 401 otherwise.
ATL_TOKEN_HDR="Authorization:Token offline-pat"
ATLASSIAN=(env -C "$RUN" FASTMCP_CHECK_FOR_UPDATES=off FASTMCP_SHOW_SERVER_BANNER=false JIRA_URL="$DEAD"
           JIRA_PERSONAL_TOKEN=offline-token "$W/.venv-atlassian/bin/mcp-atlassian" --host "$HOST")

# servers2 NAME PORT SERVER-CMD... -- CLIENT-CMD...: lib.sh capture_run (server up on PORT, capture of that port, one
# bounded client run, stop, listing by agents/wire.py), inside a guard capture of every packet that is not
# 127.0.0.1 <-> 127.0.0.1 (or ::1 <-> ::1); the guard's packets are listed as a warning (another program's traffic on
# this machine lands there too).
servers2() {
    local name=$1 port=$2
    shift 2
    free "$port"
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$port")
    guard_start "$name"
    capture_run "$name" "$port" "$@"
    sleep 1
    guard_stop "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
C7_CALL=(--call resolve-library-id '{"query":"react hooks","libraryName":"react"}')
scenario_context7() {
    servers2 context7 19270 "${CONTEXT7[@]}" --port 19270 -- "${TS_CLIENT[@]}" streamable "http://$HOST:19270/mcp" "${C7_CALL[@]}"
}
scenario_context7-py() {
    servers2 context7-py 19271 "${CONTEXT7[@]}" --port 19271 -- "${PY_CLIENT[@]}" "http://$HOST:19271/mcp" "${C7_CALL[@]}"
}
NOTION_CALL=(--header "$NOTION_TOKEN_HDR" --call API-get-self '{}')
scenario_notion() {
    servers2 notion 19272 "${NOTION[@]}" --port 19272 -- "${TS_CLIENT[@]}" streamable "http://$HOST:19272/mcp" "${NOTION_CALL[@]}"
}
scenario_notion-py() {
    servers2 notion-py 19273 "${NOTION[@]}" --port 19273 -- "${PY_CLIENT[@]}" "http://$HOST:19273/mcp" "${NOTION_CALL[@]}"
}
KUBE_CALLS=(--call configuration_view '{"minified":true}' --call namespaces_list '{}')
scenario_kubernetes() {
    servers2 kubernetes 19274 "${KUBE[@]}" --port 19274 -- "${TS_CLIENT[@]}" streamable "http://$HOST:19274/mcp" "${KUBE_CALLS[@]}"
}
scenario_kubernetes-py() {
    servers2 kubernetes-py 19275 "${KUBE[@]}" --port 19275 -- "${PY_CLIENT[@]}" "http://$HOST:19275/mcp" "${KUBE_CALLS[@]}"
}
FC_CALL=(--call firecrawl_scrape "{\"url\":\"$DEAD/index.html\"}")
scenario_firecrawl() {
    servers2 firecrawl 19276 env PORT=19276 "${FIRECRAWL[@]}" -- "${TS_CLIENT[@]}" streamable "http://$HOST:19276/mcp" "${FC_CALL[@]}"
}
scenario_firecrawl-py() {
    servers2 firecrawl-py 19277 env PORT=19277 "${FIRECRAWL[@]}" -- "${PY_CLIENT[@]}" "http://$HOST:19277/mcp" "${FC_CALL[@]}"
}
ATL_CALL=(--header "$ATL_TOKEN_HDR" --call jira_get_issue '{"issue_key":"MCP-1"}')
scenario_atlassian() {
    servers2 atlassian 19278 "${ATLASSIAN[@]}" --transport streamable-http --port 19278 -- \
        "${TS_CLIENT[@]}" streamable "http://$HOST:19278/mcp" "${ATL_CALL[@]}"
}
scenario_atlassian-py() {
    servers2 atlassian-py 19279 "${ATLASSIAN[@]}" --transport streamable-http --port 19279 -- \
        "${PY_CLIENT[@]}" "http://$HOST:19279/mcp" "${ATL_CALL[@]}"
}
scenario_atlassian-sse() {
    servers2 atlassian-sse 19280 "${ATLASSIAN[@]}" --transport sse --port 19280 -- \
        "${TS_CLIENT[@]}" sse "http://$HOST:19280/sse" "${ATL_CALL[@]}"
}

ALL=(context7 context7-py notion notion-py kubernetes kubernetes-py firecrawl firecrawl-py atlassian atlassian-py
     atlassian-sse)

run_scenarios "tcpdump tshark node npm" -- "$@"
