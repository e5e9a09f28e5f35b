# Varnish 7 (Debian 12's 7.1.1) in front of an MCP server, for samples/gen/ecosystem/proxies2.sh: Debian's
# default.vcl with what users add for an SSE / MCP endpoint: the endpoint's requests are passed, never cached
# (`return (pass)` in vcl_recv), and a text/event-stream response is streamed and never stored
# (`set beresp.do_stream = true`, uncacheable, ttl 0). Backend timeouts stay Varnish's defaults (connect 3.5 s,
# first_byte_timeout 60 s, between_bytes_timeout 60 s): nothing here raises them.
vcl 4.1;

backend default {
    .host = "127.0.0.1";
    .port = "19261";
}

sub vcl_recv {
    if (req.url ~ "^/(mcp|sse|messages)") {
        return (pass);
    }
}

sub vcl_backend_response {
    if (beresp.http.Content-Type ~ "text/event-stream") {
        set beresp.do_stream = true;
        set beresp.uncacheable = true;
        set beresp.ttl = 0s;
        return (deliver);
    }
}

sub vcl_deliver {
}
