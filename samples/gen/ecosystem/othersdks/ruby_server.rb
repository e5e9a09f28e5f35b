# frozen_string_literal: true

# The official Ruby SDK's Streamable HTTP server (gem mcp 1.3.0, src/ruby-sdk/lib, loaded by path) under WEBrick
# (Debian's ruby-webrick 1.8.1) through rackup 2.3.1's handler and rack 3.2.7 (src/, by path): the SDK's SSE replies
# are Rack 3 streaming bodies (a proc called with the socket), which Debian's puma 5.6 / rack 2.2 send as an empty
# body. MCP::Server::Transports::StreamableHTTPTransport is the whole Rack app, no middleware. Tools add(a, b),
# echo(text) and slow_count(n) (n notifications/progress 0.1 s apart when the request carries a progressToken).
#   ruby ruby_server.rb PORT [--stateless] [--json]
#     --stateless: StreamableHTTPTransport.new(server, stateless: true) (no session id, GET 405)
#     --json:      enable_json_response: true (each request answered with one application/json reply)
here = __dir__
$LOAD_PATH.unshift(File.join(here, "src/ruby-sdk/lib"), File.join(here, "src/json_schemer/lib"),
                  File.join(here, "src/rack/lib"), File.join(here, "src/rackup/lib"))
require "mcp"
require "rack"
require "rackup"
require "rackup/handler/webrick"

port = Integer(ARGV.fetch(0))
stateless = ARGV.include?("--stateless")
json = ARGV.include?("--json")
$stdout.sync = true

server = MCP::Server.new(name: "othersdks-ruby", version: "1.0.0")
server.define_tool(
  name: "add", description: "Add two integers",
  input_schema: { properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"] },
) { |a:, b:| MCP::Tool::Response.new([{ type: "text", text: (a + b).to_s }]) }
server.define_tool(
  name: "echo", description: "Echo the text back",
  input_schema: { properties: { text: { type: "string" } }, required: ["text"] },
) { |text:| MCP::Tool::Response.new([{ type: "text", text: text }]) }
server.define_tool(
  name: "slow_count", description: "Count to n, one progress notification every 0.1 s",
  input_schema: { properties: { n: { type: "integer" } }, required: ["n"] },
) do |n:, server_context:|
  1.upto(n) do |i|
    sleep(0.1)
    server_context.report_progress(i, total: n, message: "step #{i}")
  end
  MCP::Tool::Response.new([{ type: "text", text: "counted to #{n}" }])
end

transport = MCP::Server::Transports::StreamableHTTPTransport.new(server, stateless: stateless, enable_json_response: json)
server.transport = transport

app = Rack::Builder.new { run(transport) }
puts "ruby mcp #{MCP::VERSION} rack #{Rack.release} webrick #{WEBrick::VERSION} on 127.0.0.1:#{port} stateless=#{stateless} json=#{json}"
Rackup::Handler::WEBrick.run(app, Host: "127.0.0.1", Port: port, AccessLog: [])
