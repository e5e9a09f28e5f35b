#!/usr/bin/env bash
# mcptap ecosystem corpus, group "javah2": the official Java MCP SDK (modelcontextprotocol/java-sdk 2.0.1, built by the
# javasdk group: javasdk/build.sh) over HTTP/2: its java.net.http client transports with HttpClient.Version.HTTP_2
# (cleartext: `Upgrade: h2c` offered on each connection's first request) and its Streamable HTTP servlet transport on
# embedded Tomcat 10.1 with Tomcat's Http2Protocol upgrade protocol (h2c by upgrade or prior knowledge). Captured on
# loopback (127.0.0.1, ports 19710-19729):
#   - javah2/JavaH2Client.java: McpClient.sync over HttpClientStreamableHttpTransport / HttpClientSseClientTransport,
#     the transport's HttpClient built with .version(HTTP_2) (the SDK's default is HTTP_1_1);
#   - javah2/JavaH2Server.java: the javasdk group's stateful server (McpServer.sync, tools add, echo, slow_count) with
#     connector.addUpgradeProtocol(new Http2Protocol()).
#
#   sudo bash samples/gen/ecosystem/javah2.sh             # every scenario
#   sudo bash samples/gen/ecosystem/javah2.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/javah2-<scenario>.pcap, listing samples/gen/wire/ecosystem/javah2-<scenario>.pcap.txt):
#   hypercorn      port 19710: Java client (Streamable HTTP, HTTP_2) -> the Python SDK server (mcp 2.3.0,
#                  ../h2more/h2more_py.py:app, streamable_http_app defaults) under hypercorn 0.18.0 without TLS
#   nghttpx-h2c    ports 19711 (nghttpx, javah2/nghttpx-h2c.conf) -> 19712 (the TypeScript SDK 1.32.2 server,
#                  ../proxies2/ts-server.mjs): Java client (Streamable HTTP, HTTP_2) through nghttpx's cleartext front
#   nghttpx-sse    ports 19713 (nghttpx, javah2/nghttpx-sse.conf) -> 19714 (the Python SDK server ../py_server.py --sse):
#                  Java client (HTTP+SSE, HTTP_2) through nghttpx
#   tomcat-java    port 19715: Java client (Streamable HTTP, HTTP_2) -> JavaH2Server (Tomcat h2c)
#   tomcat-py      port 19716: the Python SDK client (../proxies2/py_client.py, httpx2 HTTP/1.1) -> JavaH2Server
#   tomcat-ts      port 19717: the TypeScript SDK client (../proxies2/ts_client.mjs, Node fetch HTTP/1.1) -> JavaH2Server
#   tomcat-h2c-py  port 19718: the Python SDK client over httpx2 AsyncClient(http1=False, http2=True) (cleartext h2c
#                  with prior knowledge; ../h2more/h2more_py.py client --h2c --mode legacy) -> JavaH2Server
#   tomcat-sse-java port 19719: Java client (HTTP+SSE, HTTP_2) -> JavaH2Server in `sse` mode (the SDK's legacy HTTP+SSE
#                  servlet transport: GET /sse, POST /mcp/message?sessionId=) on the same h2c-capable connector
#   nghttpx-tls    ports 19721 (nghttpx, javah2/nghttpx-tls.conf: TLS front, ALPN h2) -> 19722 (the TypeScript SDK
#                  server): Java client (Streamable HTTP, HTTP_2, https://, trusting javah2/run/certs/cert.pem) -> h2 over
#                  TLS. OpenJDK 17 writes no key log: the JVM is pinned to TLS 1.2 (-Djdk.tls.client.protocols=TLSv1.2)
#                  and the client writes its sessions' master secrets (JavaH2Client.java, $JAVAH2_SECRETS); the
#                  script pairs each with the ClientHello random in the capture into samples/ecosystem/javah2-nghttpx-tls.keys
#                  (NSS key log, CLIENT_RANDOM lines)
#   restart-h2c    port 19720: Java client (Streamable HTTP, HTTP_2, slow_count 3, 8 s hold) -> JavaH2Server, which is
#                  killed (SIGKILL) 4 s into the run, during the hold, and started again on the same port: the client's
#                  add(40,2) after the hold needs a new connection (upgrade again) and reaches a server that does not
#                  know its session
#
# Each session: initialize, tools/list, add(1,2), echo("hello"), slow_count(3) with a progressToken, add(40,2), close
# (DELETE where a session id exists). Each client run is bounded (timeout 60 here; 30 s inside the clients; 10 s per
# request). Each server (and proxy) is up before its capture starts (its port seen listening in the socket table, no
# probe) and stopped after it. No network beyond 127.0.0.1: nothing here reports usage (DO_NOT_TRACK=1 all the same;
# nghttpx, hypercorn, Tomcat and the JDK have no telemetry); a guard capture on every interface checks it.
#
# Needs root (tcpdump), tcpdump, tshark (javah2/wire.py, which imports ../proxies3/wire.py by path), ss, java/javac 17,
# nghttpx (Debian nghttp2-proxy), python3 (3.11) with venv, node 20 + npm; the javasdk group's build
# (../javasdk/build/classpath: `bash samples/gen/ecosystem/javasdk/build.sh`), the sdks group's venv (../sdks/.venv),
# ../proxies2/node_modules. First use makes javah2/.venv (javah2/requirements.txt: hypercorn, and httpx2 with h2) and
# compiles javah2/*.java into javah2/build/classes. All git-ignored. Results and labels: samples/ecosystem/javah2.md,
# samples/ecosystem/labels-javah2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/javah2"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=javah2
DESCRIBE=()                                             # set per scenario: wire.py needs the ports
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN/tmp"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 NO_UPDATE_NOTIFIER=1

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0 (the sdks group's venv)
VPY="$W/.venv/bin/python"                               # mcp 2.3.0 + hypercorn + h2
JCP() { echo "$(cat "$ECO/javasdk/build/classpath"):$W/build/classes"; }
JAVA=(java -Xmx256m -XX:TieredStopAtLevel=1 "-Djava.io.tmpdir=$RUN/tmp" -cp)

setup() {
    [ -s "$ECO/javasdk/build/classpath" ] || bash "$ECO/javasdk/build.sh"
    setup_pysdk
    need_npm "$ECO/proxies2"
    need_venv "$W/.venv" "$W/requirements.txt" hypercorn
    if [ ! -f "$W/build/classes/JavaH2Client.class" ] || [ "$W/JavaH2Client.java" -nt "$W/build/classes/JavaH2Client.class" ] \
        || [ "$W/JavaH2Server.java" -nt "$W/build/classes/JavaH2Server.class" ]; then
        mkdir -p "$W/build/classes"
        javac -nowarn -proc:none -d "$W/build/classes" -cp "$(cat "$ECO/javasdk/build/classpath")" "$W"/*.java
    fi
}

# down: SIGINT to each started process group, a second, then SIGKILL (Tomcat's await() keeps the JVM up).
down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}

# scenario NAME WIRE-SPEC PORTS -- SERVER-CMD... [-- PROXY-CMD...] -- CLIENT-CMD...: guard on; the server (first port of
# PORTS, comma-separated; the last one when a proxy is given), then the proxy on the first port, each seen listening;
# capture of PORTS; one bounded client run; capture stop and listing (wire.py WIRE-SPEC); everything down; guard off.
scenario() {
    local name=$1 spec=$2 ports=$3; shift 3
    shift                                               # --
    local srv=() prx=() p
    while [ "$1" != "--" ]; do srv+=("$1"); shift; done; shift
    while [ "$1" != "--" ]; do prx+=("$1"); shift; done; shift
    IFS=, read -r -a PS <<<"$ports"
    # shellcheck disable=SC2206
    DESCRIBE=(python3 "$W/wire.py" $spec)
    guard_start "$name"
    free "${PS[@]}"
    bg "$name-server" "${srv[@]}"
    listening "${PS[-1]}"
    if [ ${#prx[@]} -gt 0 ]; then
        bg "$name-proxy" "${prx[@]}"
        listening "${PS[0]}"
    fi
    sleep 2
    capture_start "$name" "${PS[@]}"
    run "$name-client" "$@"
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    for p in server proxy; do
        [ -f "$RUN/$name-$p.log" ] && grep -vE '^\s*$' "$RUN/$name-$p.log" | cut -c1-150 | tail -4 | sed "s/^/   $p: /" || true
    done
}

U() { echo "http://$HOST:$1$2"; }
jclient() { echo "${JAVA[@]}" "$(JCP)" JavaH2Client "$@"; }     # MODE BASE_URL SLOW_N
jserver() { echo "${JAVA[@]}" "$(JCP)" JavaH2Server "$@"; }     # PORT [sse]
hypercorn_cmd() { echo "$W/.venv/bin/hypercorn" --bind "$HOST:$1" "$ECO/h2more/h2more_py.py:app"; }
nghttpx_cmd() { echo nghttpx "--conf=$W/$1"; }

# shellcheck disable=SC2046  # the helpers print word lists without spaces inside words
scenario_hypercorn() { scenario hypercorn server=19710 19710 -- $(hypercorn_cmd 19710) -- -- $(jclient streamable "$(U 19710 '')" 3); }
# shellcheck disable=SC2046
scenario_nghttpx-h2c() { scenario nghttpx-h2c front=19711,backend=19712 19711,19712 -- node "$ECO/proxies2/ts-server.mjs" 19712 \
    -- $(nghttpx_cmd nghttpx-h2c.conf) -- $(jclient streamable "$(U 19711 '')" 3); }
# shellcheck disable=SC2046
scenario_nghttpx-sse() { scenario nghttpx-sse front=19713,backend=19714 19713,19714 -- "$SDKPY" "$ECO/py_server.py" 19714 --sse \
    --name javah2-py-sse-server -- $(nghttpx_cmd nghttpx-sse.conf) -- $(jclient sse "$(U 19713 '')" 3); }
# shellcheck disable=SC2046
scenario_tomcat-java() { scenario tomcat-java server=19715 19715 -- $(jserver 19715) -- -- $(jclient streamable "$(U 19715 '')" 3); }
# shellcheck disable=SC2046
scenario_tomcat-py() { scenario tomcat-py server=19716 19716 -- $(jserver 19716) -- -- "$SDKPY" "$ECO/proxies2/py_client.py" "$(U 19716 /mcp)" --slow 3; }
# shellcheck disable=SC2046
scenario_tomcat-ts() { scenario tomcat-ts server=19717 19717 -- $(jserver 19717) -- -- node "$ECO/proxies2/ts_client.mjs" "$(U 19717 /mcp)" 3; }
# shellcheck disable=SC2046
scenario_tomcat-h2c-py() { scenario tomcat-h2c-py "server=19718 --prior 19718" 19718 -- $(jserver 19718) -- -- "$VPY" "$ECO/h2more/h2more_py.py" \
    client --url "$(U 19718 /mcp)" --h2c --mode legacy; }

# shellcheck disable=SC2046
scenario_tomcat-sse-java() { scenario tomcat-sse-java server=19719 19719 -- $(jserver 19719 sse) -- -- $(jclient sse "$(U 19719 '')" 3); }

# restart NAME PORT CLIENT-CMD...: as scenario, with the client in the background: 4 s into its run the server's process
# group gets SIGKILL, and once the port is free a new server process starts on it (as the javasdk group's restart).
restart() {
    local name=$1 port=$2 cpid; shift 2
    DESCRIBE=(python3 "$W/wire.py" "server=$port")
    guard_start "$name"
    free "$port"
    # shellcheck disable=SC2046
    bg "$name-server" $(jserver "$port")
    listening "$port"
    sleep 2
    capture_start "$name" "$port"
    run "$name-client" "$@" &
    cpid=$!
    sleep 4
    kill -KILL -- "-${PIDS[0]}" 2>/dev/null || true
    wait "${PIDS[0]}" 2>/dev/null || true
    PIDS=()
    echo "   server killed at 4 s; starting a new one"
    free "$port"
    # shellcheck disable=SC2046
    bg "$name-server" $(jserver "$port")
    listening "$port"
    wait "$cpid" || true
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    grep -vE '^\s*$' "$RUN/$name-server.log" | cut -c1-150 | tail -4 | sed "s/^/   server: /" || true
}
# shellcheck disable=SC2046
scenario_restart-h2c() { restart restart-h2c 19720 $(jclient streamable "$(U 19720 '')" 3 8); }

scenario_nghttpx-tls() {
    local name=nghttpx-tls front=19721 back=19722 keys="$CAP/$GROUP-nghttpx-tls.keys" sec="$RUN/nghttpx-tls.secrets"
    [ -s "$W/run/certs/cert.pem" ] || { mkdir -p "$W/run/certs" && openssl req -x509 -newkey rsa:2048 -nodes -days 30 \
        -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" -keyout "$W/run/certs/key.pem" \
        -out "$W/run/certs/cert.pem" 2>/dev/null; }
    rm -f "$keys" "$sec"
    DESCRIBE=(python3 "$ECO/proxies3/wire.py" tls "$front" "$back")
    guard_start "$name"
    free "$front" "$back"
    bg "$name-server" node "$ECO/proxies2/ts-server.mjs" "$back"
    listening "$back"
    (cd "$W" && bg "$name-proxy" nghttpx "--conf=$W/nghttpx-tls.conf"; echo "$LAST_PID" >"$RUN/$name-proxy.pid")
    PIDS+=("$(cat "$RUN/$name-proxy.pid")")
    listening "$front"
    sleep 2
    capture_start "$name" "$front" "$back"
    # shellcheck disable=SC2046
    run "$name-client" env "JAVAH2_CA=$W/run/certs/cert.pem" "JAVAH2_SECRETS=$sec" java -Xmx256m -XX:TieredStopAtLevel=1 \
        "-Djava.io.tmpdir=$RUN/tmp" -Djdk.tls.client.protocols=TLSv1.2 --add-opens java.base/sun.security.ssl=ALL-UNNAMED \
        -cp "$(JCP)" JavaH2Client streamable "https://$HOST:$front" 3
    sleep 1
    kill -INT "$TCPDUMP_PID"; wait "$TCPDUMP_PID" 2>/dev/null || true; TCPDUMP_PID=""
    # the key log: the ClientHello randoms of the capture, in order, each with the master secret of the same rank
    # (one TLS connection here: java.net.http multiplexes the whole session over one h2 connection)
    paste -d' ' <(tshark -r "$CAP/$GROUP-$name.pcap" -Y "tls.handshake.type == 1 && tcp.dstport == $front" \
        -T fields -e tls.handshake.random 2>/dev/null) "$sec" | awk 'NF == 2 { print "CLIENT_RANDOM " $1 " " $2 }' >"$keys"
    chmod 644 "$CAP/$GROUP-$name.pcap" "$keys"
    echo "   key log: $(wc -l <"$keys") CLIENT_RANDOM line(s)"
    (cd "$CAP" && "${DESCRIBE[@]}" "$GROUP-$name.pcap") >"$WIRE/$GROUP-$name.pcap.txt" || true
    echo "   wrote samples/ecosystem/$GROUP-$name.pcap ($(stat -c %s "$CAP/$GROUP-$name.pcap") bytes)"
    down
    cleanup
    sleep 1
    guard_stop "$name"
}

ALL=(hypercorn nghttpx-h2c nghttpx-sse tomcat-java tomcat-py tomcat-ts tomcat-h2c-py tomcat-sse-java restart-h2c nghttpx-tls)

run_scenarios "tcpdump tshark ss java javac nghttpx node npm python3 openssl" -- "$@"
