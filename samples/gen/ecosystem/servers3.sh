#!/usr/bin/env bash
# mcptap ecosystem corpus, group "servers3": more published MCP servers (npm, PyPI) that offer an HTTP transport, each
# run with its own defaults over it, against the official SDK clients (TS SDK 1.32.2, Python SDK `mcp` 2.3.0) with
# theirs, fully offline: every API these servers front is pointed at 127.0.0.1:19809, where nothing listens (their
# tools fail cleanly), telemetry is off, and a guard capture of all other traffic checks it. Captured on loopback
# (127.0.0.1, ports 19790-19809 only).
#
#   sudo bash samples/gen/ecosystem/servers3.sh             # every scenario
#   sudo bash samples/gen/ecosystem/servers3.sh SCENARIO..  # some of them
#
# Servers:
#   - n8n-mcp 2.87.0 (npm; `MCP_MODE=http`): its own express server (dist/http-server-single-session.js) around the
#     TS SDK 1.30.0 transports, a bearer token (AUTH_TOKEN) on every MCP route; Streamable HTTP on /mcp (stateful),
#     HTTP+SSE on /sse + /messages; works offline (its bundled SQLite node database, read through sql.js). It answers
#     `initialize` with 2024-11-05 when the clientInfo name contains "n8n" or "langchain", 2025-03-26 otherwise.
#   - mcp-server-kubernetes 4.1.7 (npm, Flux159; ENABLE_UNSAFE_STREAMABLE_HTTP_TRANSPORT / ENABLE_UNSAFE_SSE_TRANSPORT):
#     express 4 around the TS SDK 1.26.0 transports, ONE shared `Server` connected to a new transport per request
#     (stateless Streamable HTTP) or per GET /sse; a kubeconfig whose cluster is the refused 127.0.0.1:19809 (tools
#     run `kubectl`, which must be on PATH; captured with the machine's kubectl package, client v1.32.4).
#   - mcp-searxng 2.4.0 (npm; MCP_HTTP_PORT): express around the TS SDK v2 (`@modelcontextprotocol/server` and
#     `@modelcontextprotocol/node`) with its own session table: stateful 2025 sessions and stateless 2026-07-28;
#     SEARXNG_URL is the refused port.
#   - mcp-grafana 2.1.1 (PyPI: a wheel around Grafana's Go binary, the official go-sdk v1.8.0; `-t streamable-http`
#     stateless, `-t sse`); GRAFANA_URL is the refused port; its anonymous usage report (on by default) is off.
#   - excel-mcp-server 2.2.2 (PyPI; `streamable-http`): the Python SDK 2.3.0 `MCPServer.streamable_http_app` under
#     uvicorn, on a scratch folder of workbooks (local files only).
#
# Scenarios (capture samples/ecosystem/servers3-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   n8n-ts        19790  TS SDK client -> n8n-mcp /mcp: search_nodes, get_node of a node type that does not exist
#   n8n-py        19791  Python SDK client (mode auto: server/discover first) -> the same
#   n8n-sse       19792  TS SDK SSEClientTransport -> n8n-mcp /sse
#   n8n-two       19793  two TS SDK clients at once, one named "n8n-mcptap-client" (answered 2024-11-05), the other the
#                        generic one (answered 2025-03-26)
#   n8n-sse-two   19808  the same two clients over HTTP+SSE, the generic one first, the "n8n" one 1 s later
#   k8s-ts        19794  TS SDK client -> mcp-server-kubernetes /mcp (stateless): kubectl_get (refused cluster), ping
#   k8s-py        19795  Python SDK client (auto) -> the same
#   k8s-sse       19796  TS SDK SSEClientTransport -> mcp-server-kubernetes /sse
#   k8s-sse-two   19797  two TS SSE clients, the second 1 s after the first: the second GET /sse makes the shared
#                        Server throw "Already connected" unhandled, and the process dies under the first session
#   searxng-ts    19798  TS SDK client -> mcp-searxng /mcp: searxng_web_search (SearXNG refused), web_url_read of a
#                        loopback URL (refused by its own policy)
#   searxng-py    19799  Python SDK client (auto) -> the same (a stateless 2026-07-28 exchange)
#   grafana-ts    19805  TS SDK client -> mcp-grafana /mcp (stateless): search_dashboards (Grafana refused)
#   grafana-py    19806  Python SDK client (auto) -> the same
#   grafana-sse   19807  TS SDK SSEClientTransport -> mcp-grafana -t sse /sse
#   excel-ts      19800  TS SDK client (Authorization: Bearer) -> excel-mcp-server /mcp: describe_workbook of a
#                        workbook made by the script, read_range of a workbook that does not exist
#   excel-py      19801  Python SDK client (auto) -> the same
#   excel-badtoken 19802 TS SDK client with a wrong bearer token -> the same server: its middleware's 401
#
# Each client run is bounded (timeout 60 here, 30 s inside the clients, 10-15 s per request). Every server is up
# before its capture starts (its port seen listening in the socket table, no probe) and stopped after it.
#
# Needs root (tcpdump), tcpdump, tshark (agents/wire.py, the agents group's listing), ss, kubectl, python3 (3.11) with
# venv, node 20 + npm. First use makes the sdks group's venv sdks/.venv (the Python SDK 2.3.0 client; also runs
# wire.py), servers3/.venv-excel and .venv-grafana from servers3/requirements-{excel,grafana}.txt and
# servers3/node_modules (`npm ci`: the three npm servers and the TS SDK 1.32.2 client). The clients are the servers2
# group's generic ones, by path (../servers2/ts_client.mjs run with `node --import servers3/sdk-hook.mjs`, which resolves its SDK imports from
# servers3/node_modules; ../servers2/py_client.py), plus servers3/named_client.mjs (a TS client under a chosen
# clientInfo name). All installs git-ignored (servers3/.gitignore). Results and labels: samples/ecosystem/servers3.md,
# samples/ecosystem/labels-servers3.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/servers3"                                       # harness code, pins, node_modules, venvs
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the kubeconfig, workbooks, servers' cwd
GROUP=servers3
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, run, need_npm, need_venv, free, listening, capture_*
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true N8N_MCP_TELEMETRY_DISABLED=true GRAFANA_USAGE_STATS=disabled
export PYTHONDONTWRITEBYTECODE=1
unset ENABLE_TELEMETRY

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python SDK client; also runs wire.py
NM="$W/node_modules"
DEAD="http://$HOST:19809"                               # every upstream API: nothing listens there (refused at once)

setup() {
    setup_pysdk
    need_venv "$W/.venv-excel" "$W/requirements-excel.txt" excel-mcp-server
    need_venv "$W/.venv-grafana" "$W/requirements-grafana.txt" mcp-grafana
    need_npm "$W"
    cat >"$RUN/kubeconfig" <<KUBE
apiVersion: v1
kind: Config
clusters:
- name: offline
  cluster:
    server: https://$HOST:19809
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
    mkdir -p "$RUN/workbooks"
    "$W/.venv-excel/bin/python" - "$RUN/workbooks/sales.xlsx" <<'PY'
import sys
from openpyxl import Workbook
wb = Workbook()
ws = wb.active
ws.title = "Sales"
ws.append(["region", "q1", "q2"])
ws.append(["north", 10, 12])
ws.append(["south", 7, 9])
ws["D2"] = "=B2+C2"
wb.create_sheet("Notes")["A1"] = "offline fixture"
wb.save(sys.argv[1])
PY
}

TS_CLIENT=(node --import "$W/sdk-hook.mjs" "$ECO/servers2/ts_client.mjs")   # streamable|sse URL [--header H:V] [--call N J]
NAMED_CLIENT=(node "$W/named_client.mjs")                                   # NAME streamable|sse URL [...]
PY_CLIENT=("$SDKPY" "$ECO/servers2/py_client.py")                           # URL [--header H:V] [--call N J]

# Server commands (the port is given as an environment prefix or an argument by each scenario).
# n8n-mcp (env PORT=N N8N): MCP_MODE=http, its own token (>= 32 characters, with no "n8n" in it: n8n-mcp looks for
# that string in header values on its REST GET); telemetry off (N8N_MCP_TELEMETRY_DISABLED above); no N8N_API_URL, so
# its n8n-management tools are not offered.
N8N_TOKEN=mcptap-offline-token-0123456789abcdef
N8N_HDR="Authorization:Bearer $N8N_TOKEN"
N8N=(env -C "$RUN" MCP_MODE=http HOST="$HOST" AUTH_TOKEN="$N8N_TOKEN" node "$NM/n8n-mcp/dist/mcp/index.js")
# mcp-server-kubernetes (env PORT=N K8S_HTTP | K8S_SSE): telemetry is off unless ENABLE_TELEMETRY; kubectl reads
# KUBECONFIG (and keeps its discovery cache under HOME, here RUN).
K8S=(env -C "$RUN" HOST="$HOST" KUBECONFIG="$RUN/kubeconfig" HOME="$RUN" node "$NM/mcp-server-kubernetes/dist/index.js")
K8S_HTTP=(env ENABLE_UNSAFE_STREAMABLE_HTTP_TRANSPORT=1 "${K8S[@]}")
K8S_SSE=(env ENABLE_UNSAFE_SSE_TRANSPORT=1 "${K8S[@]}")
# mcp-searxng (env MCP_HTTP_PORT=N SEARXNG): the HTTP transport binds MCP_HTTP_HOST, 127.0.0.1 by default; SearXNG
# refused.
SEARXNG=(env -C "$RUN" SEARXNG_URL="$DEAD" node "$NM/mcp-searxng/dist/cli.js")
# mcp-grafana (GRAFANA -t T -address HOST:N): the wheel's wrapper execs the Go binary; Grafana refused, a dummy
# service-account token; GRAFANA_USAGE_STATS=disabled (and DO_NOT_TRACK=1 above) turn off the anonymous usage report
# it sends to Grafana Labs by default.
GRAFANA=(env -C "$RUN" GRAFANA_URL="$DEAD" GRAFANA_SERVICE_ACCOUNT_TOKEN=offline-token GRAFANA_USAGE_STATS=disabled
         "$W/.venv-grafana/bin/mcp-grafana")
# excel-mcp-server (EXCEL --port N): Streamable HTTP over RUN/workbooks, behind its bearer-token middleware
# (EXCEL_MCP_AUTH_TOKEN; on 127.0.0.1 it would also run without one).
EXCEL_TOKEN=mcptap-offline-excel
EXCEL=(env -C "$RUN" EXCEL_MCP_AUTH_TOKEN="$EXCEL_TOKEN" "$W/.venv-excel/bin/excel-mcp-server" streamable-http
       --host "$HOST" --allow-dir "$RUN/workbooks")

# one NAME PORT SERVER-CMD... -- CLIENT-CMD...: guard on, the server up (listening, no probe), capture of PORT, one
# bounded client run, capture stop and listing, server down, guard off.
one() {
    local name=$1 port=$2 srv=()
    shift 2
    while [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    begin "$name" "$port" "${srv[@]}"
    run "$name-client" "$@"
    end "$name"
}
begin() {
    local name=$1 port=$2
    shift 2
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$port")
    guard_start "$name"
    free "$port"
    : >"$RUN/$name-server.log"
    bg "$name-server" "$@"
    listening "$port"
    sleep 2
    capture_start "$name" "$port"
}
end() {
    local name=$1
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
    grep -vE '^\s*$' "$RUN/$name-server.log" | cut -c1-150 | tail -4 | sed "s/^/   server: /" || true
}
# two NAME PORT DELAY SERVER-CMD... -- CLIENT-A... -- CLIENT-B...: as one, with two clients, B started DELAY s after A.
two() {
    local name=$1 port=$2 delay=$3 srv=() a=() b=() pa pb x
    shift 3
    while [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    while [ "$1" != "--" ]; do a+=("$1"); shift; done
    shift
    b=("$@")
    begin "$name" "$port" "${srv[@]}"
    timeout 60 "${a[@]}" >"$RUN/$name-client-a.log" 2>&1 & pa=$!
    sleep "$delay"
    timeout 60 "${b[@]}" >"$RUN/$name-client-b.log" 2>&1 & pb=$!
    wait "$pa" || echo "   (client a exited with $?)"
    wait "$pb" || echo "   (client b exited with $?)"
    for x in a b; do
        grep -E '^\[' "$RUN/$name-client-$x.log" | cut -c1-150 | tail -12 | sed "s/^/   $x: /" || true
    done
    end "$name"
}

U() { echo "http://$HOST:$1$2"; }

# --------------------------------------------------------------------------------------------- scenarios
N8N_CALLS=(--header "$N8N_HDR" --call search_nodes '{"query":"webhook","limit":2}'
           --call get_node '{"nodeType":"nodes-base.mcptapNoSuchNode"}')
scenario_n8n-ts()  { one n8n-ts 19790 env PORT=19790 "${N8N[@]}" -- "${TS_CLIENT[@]}" streamable "$(U 19790 /mcp)" "${N8N_CALLS[@]}"; }
scenario_n8n-py()  { one n8n-py 19791 env PORT=19791 "${N8N[@]}" -- "${PY_CLIENT[@]}" "$(U 19791 /mcp)" "${N8N_CALLS[@]}"; }
scenario_n8n-sse() { one n8n-sse 19792 env PORT=19792 "${N8N[@]}" -- "${TS_CLIENT[@]}" sse "$(U 19792 /sse)" "${N8N_CALLS[@]}"; }
scenario_n8n-two() {
    two n8n-two 19793 0 env PORT=19793 "${N8N[@]}" \
        -- "${NAMED_CLIENT[@]}" n8n-mcptap-client streamable "$(U 19793 /mcp)" "${N8N_CALLS[@]}" \
        -- "${TS_CLIENT[@]}" streamable "$(U 19793 /mcp)" "${N8N_CALLS[@]}"
}
# n8n-sse-two: the same pair over HTTP+SSE, in the other order: the generic client first, the "n8n" one 1 s later.
scenario_n8n-sse-two() {
    two n8n-sse-two 19808 1 env PORT=19808 "${N8N[@]}" \
        -- "${TS_CLIENT[@]}" sse "$(U 19808 /sse)" "${N8N_CALLS[@]}" \
        -- "${NAMED_CLIENT[@]}" n8n-mcptap-client sse "$(U 19808 /sse)" "${N8N_CALLS[@]}"
}
K8S_CALLS=(--call kubectl_get '{"resourceType":"pods","namespace":"default"}' --call ping '{}')
scenario_k8s-ts()  { one k8s-ts 19794 env PORT=19794 "${K8S_HTTP[@]}" -- "${TS_CLIENT[@]}" streamable "$(U 19794 /mcp)" "${K8S_CALLS[@]}"; }
scenario_k8s-py()  { one k8s-py 19795 env PORT=19795 "${K8S_HTTP[@]}" -- "${PY_CLIENT[@]}" "$(U 19795 /mcp)" "${K8S_CALLS[@]}"; }
scenario_k8s-sse() { one k8s-sse 19796 env PORT=19796 "${K8S_SSE[@]}" -- "${TS_CLIENT[@]}" sse "$(U 19796 /sse)" "${K8S_CALLS[@]}"; }
scenario_k8s-sse-two() {
    local many=() i
    for i in 1 2 3 4 5 6 7 8; do many+=(--call kubectl_get '{"resourceType":"pods","namespace":"default"}'); done
    two k8s-sse-two 19797 1 env PORT=19797 "${K8S_SSE[@]}" \
        -- "${TS_CLIENT[@]}" sse "$(U 19797 /sse)" "${many[@]}" \
        -- "${TS_CLIENT[@]}" sse "$(U 19797 /sse)" --call ping '{}'
}
SEARX_CALLS=(--call searxng_web_search '{"query":"model context protocol"}'
             --call web_url_read "{\"url\":\"$DEAD/index.html\"}")
scenario_searxng-ts() { one searxng-ts 19798 env MCP_HTTP_PORT=19798 "${SEARXNG[@]}" -- "${TS_CLIENT[@]}" streamable "$(U 19798 /mcp)" "${SEARX_CALLS[@]}"; }
scenario_searxng-py() { one searxng-py 19799 env MCP_HTTP_PORT=19799 "${SEARXNG[@]}" -- "${PY_CLIENT[@]}" "$(U 19799 /mcp)" "${SEARX_CALLS[@]}"; }
GRAFANA_CALLS=(--call search_dashboards '{"query":"cpu"}')
scenario_grafana-ts()  { one grafana-ts 19805 "${GRAFANA[@]}" -t streamable-http -address "$HOST:19805" -- "${TS_CLIENT[@]}" streamable "$(U 19805 /mcp)" "${GRAFANA_CALLS[@]}"; }
scenario_grafana-py()  { one grafana-py 19806 "${GRAFANA[@]}" -t streamable-http -address "$HOST:19806" -- "${PY_CLIENT[@]}" "$(U 19806 /mcp)" "${GRAFANA_CALLS[@]}"; }
scenario_grafana-sse() { one grafana-sse 19807 "${GRAFANA[@]}" -t sse -address "$HOST:19807" -- "${TS_CLIENT[@]}" sse "$(U 19807 /sse)" "${GRAFANA_CALLS[@]}"; }
EXCEL_CALLS=(--header "Authorization:Bearer $EXCEL_TOKEN" --call describe_workbook '{"path":"sales.xlsx"}'
             --call read_range '{"path":"missing.xlsx","sheet":"Sales","range":"A1:C3"}')
scenario_excel-ts() { one excel-ts 19800 "${EXCEL[@]}" --port 19800 -- "${TS_CLIENT[@]}" streamable "$(U 19800 /mcp)" "${EXCEL_CALLS[@]}"; }
scenario_excel-py() { one excel-py 19801 "${EXCEL[@]}" --port 19801 -- "${PY_CLIENT[@]}" "$(U 19801 /mcp)" "${EXCEL_CALLS[@]}"; }
# excel-badtoken: the TS SDK client with a wrong bearer token (no auth provider): the middleware's 401.
scenario_excel-badtoken() {
    one excel-badtoken 19802 "${EXCEL[@]}" --port 19802 -- "${TS_CLIENT[@]}" streamable "$(U 19802 /mcp)" \
        --header "Authorization:Bearer wrong-token" --call describe_workbook '{"path":"sales.xlsx"}'
}

ALL=(n8n-ts n8n-py n8n-sse n8n-two n8n-sse-two k8s-ts k8s-py k8s-sse k8s-sse-two searxng-ts searxng-py grafana-ts grafana-py
     grafana-sse excel-ts excel-py excel-badtoken)

run_scenarios "tcpdump tshark ss kubectl node npm" -- "$@"
