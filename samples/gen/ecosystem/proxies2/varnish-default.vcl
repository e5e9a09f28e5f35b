# Varnish 7 (Debian 12's 7.1.1) in front of an MCP server, for samples/gen/ecosystem/proxies2.sh: Debian's
# /etc/varnish/default.vcl (the example VCL new users start from) with its backend pointed at the MCP server, nothing
# else. Everything else is Varnish's built-in VCL: POST and DELETE are passed to the backend, a GET without Cookie or
# Authorization is looked up in the cache (hashed on URL and Host only: Mcp-Session-Id is not part of the key), a
# response is cached unless its Cache-Control says no-cache/no-store/private (then hit-for-miss for 2 min); bodies are
# streamed (beresp.do_stream defaults to true). Backend timeouts are Varnish's defaults: connect 3.5 s,
# first_byte_timeout 60 s, between_bytes_timeout 60 s.
vcl 4.1;

backend default {
    .host = "127.0.0.1";
    .port = "19259";
}

sub vcl_recv {
}

sub vcl_backend_response {
}

sub vcl_deliver {
}
