# Helpers shared by the ecosystem capture scripts (sourced after ../lib.sh, not run). The caller sets GROUP (the
# captures' name prefix), CAP (where captures go), WIRE (where their listings go), RUN (scratch: logs) and
# DESCRIBE (the listing command, run in CAP with the capture's file name appended), and defines scenario_NAME
# functions and the ALL array of their names.

PIDS=()
TCPDUMP_PID=""
cleanup() {
    local p
    [ -n "$TCPDUMP_PID" ] && kill -INT "$TCPDUMP_PID" 2>/dev/null || true
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && { kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null || true; }; done
    PIDS=()
}
trap 'cleanup; [ -z "$GUARD_PID" ] || kill -INT "$GUARD_PID" 2>/dev/null || true' EXIT

# guard_start NAME / guard_stop NAME: a second tcpdump, on every interface, of every packet that is not loopback to
# loopback, for the whole of a scenario whose programs might reach out (a framework's update check, a browser's
# background requests); guard_stop says whether it saw any. The EXIT trap stops a guard left running.
GUARD_PID=""
guard_start() {
    tcpdump -i any -s 0 -U -w "$RUN/offline-$1.pcap" \
        "not (src host 127.0.0.1 and dst host 127.0.0.1) and not (ip6 src host ::1 and ip6 dst host ::1) and not arp" \
        2>"$RUN/offline-$1.log" &
    GUARD_PID=$!
    wait_capturing "$RUN/offline-$1.log"
}
guard_stop() {
    local guard="$RUN/offline-$1.pcap" n
    kill -INT "$GUARD_PID"; wait "$GUARD_PID" 2>/dev/null || true; GUARD_PID=""
    n=$(tcpdump -nr "$guard" 2>/dev/null | wc -l)
    if [ "$n" -eq 0 ]; then
        echo "   offline guard: no packet but 127.0.0.1 <-> 127.0.0.1 during the scenario"
    else
        echo "   OFFLINE GUARD: $n other packets during $1 (whose? see $guard):" >&2
        tcpdump -nr "$guard" 2>/dev/null | head -5 | sed "s/^/   guard: /" >&2 || true   # head may cut tcpdump off
    fi
}

# bg NAME CMD...: start CMD in its own process group (so its children die with it), log to RUN/NAME.log.
bg() {
    local name=$1; shift
    setsid "$@" >>"$RUN/$name.log" 2>&1 &
    LAST_PID=$!
    PIDS+=("$LAST_PID")
}
# stop PID [SIGNAL]: signal the process group started by bg (default TERM) and reap it.
stop() { kill "-${2:-TERM}" -- "-$1" 2>/dev/null || kill "-${2:-TERM}" "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }

# need_venv DIR REQUIREMENTS [PROGRAM]: a Python venv at DIR, made from REQUIREMENTS unless DIR/bin/PROGRAM (default
# python) is there already. Every venv is git-ignored beside the scripts that make it.
need_venv() {
    local dir=$1 reqs=$2 prog=${3:-python}
    [ -x "$dir/bin/$prog" ] || { python3 -m venv "$dir" && "$dir/bin/pip" install -q -r "$reqs"; }
}
# need_npm DIR: DIR/node_modules installed from DIR/package-lock.json (`npm ci`) unless it is there already and newer
# than the lock. Every node_modules is git-ignored beside the scripts that make it. A lock written where a registry
# lacked other platforms' optional packages (servers2's kubernetes-mcp-server-<os>-<cpu>: the mirror the captures
# were made with answers 404 for all but linux-x64) is refused by `npm ci`; `npm install --no-save` then installs
# the lock's versions without rewriting it.
need_npm() {
    local dir=$1
    if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
        (cd "$dir" && { npm ci --no-audit --no-fund || { echo "need_npm: npm ci refused $dir/package-lock.json; npm install --no-save" >&2; npm install --no-save --no-audit --no-fund; }; })
    fi
}
# free PORT...: wait (max 15 s each) until nothing listens on these ports any more (the previous run's processes are
# signalled by cleanup, not waited for; a server started while they still listen would fail to bind, unseen).
# Watching the socket table (ss), never connecting: used between two servers of a running capture (a restart), a
# probe would be a refused SYN on the wire (session 37's groups found one in their first restart captures).
free() {
    local p i
    for p in "$@"; do
        for i in $(seq 1 150); do [ -z "$(ss -Hltn "src $HOST:$p")" ] && break; sleep 0.1; done
        [ -z "$(ss -Hltn "src $HOST:$p")" ] || echo "something still listens on $HOST:$p" >&2
    done
}

# listening PORT: wait (max 30 s) until something listens on HOST:PORT, watching the socket table (ss), not probing:
# a probe would be a connection in the capture (and a relay would open one to its backend for it).
listening() {
    local i
    for i in $(seq 1 300); do
        [ -n "$(ss -Hltn "src $HOST:$1")" ] && return 0
        sleep 0.1
    done
    echo "nothing listens on $HOST:$1" >&2
    return 1
}

# setup_pysdk: the venv of the sdks group's Python SDK server (sdks/py/sdks_py.py), which other groups' clients
# are run against.
setup_pysdk() { need_venv "$ECO/sdks/.venv" "$ECO/sdks/requirements.txt"; }

# server NAME PORT CMD...: bg, then wait until HOST:PORT accepts connections (before any capture starts, so no
# refused connection is captured).
server() { local name=$1 port=$2; shift 2; bg "$name" "$@"; wait_port "$port"; }

# capture_start NAME PORT...: tcpdump on lo for those ports into CAP/GROUP-NAME.pcap.
capture_start() {
    local name=$1; shift
    local filter="" p
    for p in "$@"; do filter="${filter:+$filter or }tcp port $p"; done
    rm -f "$CAP/$GROUP-$name.pcap"
    tcpdump -i lo -s 0 -U -w "$CAP/$GROUP-$name.pcap" "$filter" 2>"$RUN/tcpdump-$name.log" &
    TCPDUMP_PID=$!
    wait_capturing "$RUN/tcpdump-$name.log"
}
# capture_stop NAME: stop tcpdump (a second after the last packet, so nothing in flight is cut), list the capture
# into WIRE/GROUP-NAME.pcap.txt.
capture_stop() {
    local name=$1
    sleep 1
    kill -INT "$TCPDUMP_PID"; wait "$TCPDUMP_PID" 2>/dev/null || true; TCPDUMP_PID=""
    chmod 644 "$CAP/$GROUP-$name.pcap"
    (cd "$CAP" && "${DESCRIBE[@]}" "$GROUP-$name.pcap") >"$WIRE/$GROUP-$name.pcap.txt" || true
    echo "   wrote samples/ecosystem/$GROUP-$name.pcap ($(stat -c %s "$CAP/$GROUP-$name.pcap") bytes)"
}

# run NAME CMD...: a bounded client run (timeout 60), output to RUN/NAME.log and shown indented.
run() {
    local name=$1; shift
    local rc=0
    timeout 60 "$@" >"$RUN/$name.log" 2>&1 || rc=$?
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name.log" | cut -c1-150 | tail -20 | sed "s/^/   $name: /" || true
    [ "$rc" -eq 0 ] || echo "   ($name exited with $rc)"
}

# capture_run NAME PORT SERVER-CMD... -- CLIENT-CMD...: the usual scenario: server NAME-server up on PORT, capture
# GROUP-NAME on that port, one bounded client run (NAME-client), capture stop, everything down.
capture_run() {
    local name=$1 port=$2; shift 2
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    server "$name-server" "$port" "${srv[@]}"
    capture_start "$name" "$port"
    run "$name-client" "$@"
    capture_stop "$name"
    cleanup
}

# run_scenarios TOOLS -- [SCENARIO...]: check that the space-separated TOOLS are on PATH, run setup, then the
# scenarios named (all of ALL without names).
run_scenarios() {
    local tool s
    for tool in $1; do
        command -v "$tool" >/dev/null || { echo "missing $tool (see the header of this script for what to install)" >&2; exit 1; }
    done
    shift 2
    setup
    [ $# -gt 0 ] || set -- "${ALL[@]}"
    for s in "$@"; do
        declare -F "scenario_$s" >/dev/null || { echo "unknown scenario: $s (known: ${ALL[*]})" >&2; exit 2; }
        echo "== $GROUP-$s"
        "scenario_$s"
    done
}
