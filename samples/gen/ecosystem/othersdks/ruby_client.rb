# frozen_string_literal: true

# The official Ruby SDK's HTTP client (gem mcp 1.3.0: MCP::Client over MCP::Client::HTTP, Faraday 2.14.2
# and faraday-net_http 3.4.2 from src/, over Ruby 3.1's net-http), one bounded session:
# client.connect (default: automatic negotiation, a server/discover probe first; --legacy: connect(mode: :legacy),
# the classic initialize handshake), tools, add(1,2), echo("hello"), slow_count(N) with a
# progressToken, add(40,2), close (DELETE). Every step's failure is logged and the run goes on; the whole run is
# bounded by a 30 s timer.
#   ruby ruby_client.rb URL [SLOW_N] [--legacy]
here = __dir__
$LOAD_PATH.unshift(File.join(here, "src/ruby-sdk/lib"), File.join(here, "src/json_schemer/lib"),
                   File.join(here, "src/event_stream_parser/lib"), File.join(here, "src/faraday/lib"),
                   File.join(here, "src/faraday-net_http/lib"))
require "mcp"
require "timeout"

legacy = !ARGV.delete("--legacy").nil?
url = ARGV.fetch(0)
slow = Integer(ARGV.fetch(1, "3"))
$stderr.sync = true
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
log = ->(*a) { warn(format("[%.3f] %s", Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0, a.join(" "))) }
step = lambda do |name, &blk|
  blk.call
rescue StandardError, Timeout::Error => e
  log.call(name, "failed:", e.class, e.message[0, 200])
  nil
end

Timeout.timeout(30) do
  transport = MCP::Client::HTTP.new(url: url)
  client = MCP::Client.new(transport: transport)
  step.call("connect") { client.connect(client_info: { name: "mcptap-othersdks-ruby-client", version: "1.0.0" }, mode: legacy ? :legacy : nil) }
  log.call("connected", "protocol", client.protocol_version.inspect, "session", transport.session_id.inspect)
  tools = step.call("tools") { client.tools }
  log.call("tools", tools&.map(&:name).inspect)
  show = ->(name, r) { log.call(name, "->", r.nil? ? "no result" : (r.dig("result", "content") || r).to_s[0, 120]) }
  show.call("add", step.call("add") { client.call_tool(name: "add", arguments: { a: 1, b: 2 }) })
  show.call("echo", step.call("echo") { client.call_tool(name: "echo", arguments: { text: "hello" }) })
  show.call("slow_count", step.call("slow_count") do
    client.call_tool(name: "slow_count", arguments: { n: slow }, progress_token: "p-1")
  end)
  show.call("add", step.call("add") { client.call_tool(name: "add", arguments: { a: 40, b: 2 }) })
  step.call("close") { transport.close }
  log.call("closed")
end
