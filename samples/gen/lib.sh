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

# write_nginx_conf DIR PORT BACKEND on|off [CERT KEY]: an nginx config of our own in DIR/nginx.conf (prefix,
# pid and temp paths in DIR; run it with `nginx -p DIR -c DIR/nginx.conf`), listening on HOST:PORT (with CERT
# and KEY: TLS 1.3 and HTTP/2, `listen ... ssl http2`), proxying to HOST:BACKEND over HTTP/1.1 without
# buffering (so SSE flows event by event), gzip on|off for JSON and SSE replies.
write_nginx_conf() {
    local dir=$1 port=$2 backend=$3 gz=$4 cert=${5:-} key=${6:-} listen="$HOST:$2" tls=""
    if [ -n "$cert" ]; then
        listen="$listen ssl http2"
        tls="ssl_certificate $cert; ssl_certificate_key $key; ssl_protocols TLSv1.3;"
    fi
    mkdir -p "$dir/tmp"
    cat >"$dir/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    server {
        listen $listen;
        $tls
        gzip $gz;
        gzip_types application/json text/event-stream;
        gzip_proxied any;
        gzip_min_length 0;
        location / {
            proxy_pass http://$HOST:$backend;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_buffering off;
            proxy_read_timeout 120s;
        }
    }
}
CONF
}
