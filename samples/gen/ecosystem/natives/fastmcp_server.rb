# frozen_string_literal: true

# The natives group's third-party Ruby MCP server: fast-mcp 1.6.0 (github yjacquin/fast-mcp, not the official Ruby
# SDK) as Rack middleware under Debian's Puma 5.6.5: its own HTTP+SSE transport (FastMcp::Transports::RackTransport,
# GET /mcp/sse written on the hijacked socket, POST /mcp/messages?session_id=...), 127.0.0.1 only. fast-mcp has no
# Streamable HTTP transport. Its dependencies come from Debian (rack, puma, addressable, mime-types, zeitwerk,
# concurrent-ruby) and, for dry-schema and its dry-rb dependencies, which Debian lacks or has too old, from GitHub
# trees on the load path: natives.sh passes `-I ruby/NAME/lib` for fast-mcp and each of them (see SOURCES).
#
#     ruby -I natives/ruby/fast-mcp/lib -I natives/ruby/dry-schema/lib ... fastmcp_server.rb PORT
#
# Tools: add(a,b), echo(text), slow_count(n) (sleeps n x 0.1 s; fast-mcp tools cannot send progress).
require 'logger'
require 'fast_mcp'
require 'rack'
require 'puma'
require 'puma/configuration'
require 'puma/launcher'

port = Integer(ARGV[0] || 19822)

class AddTool < FastMcp::Tool
  tool_name 'add'
  description 'Add two integers'
  arguments do
    required(:a).filled(:integer).description('first')
    required(:b).filled(:integer).description('second')
  end

  def call(a:, b:) # rubocop:disable Naming/MethodParameterName
    (a + b).to_s
  end
end

class EchoTool < FastMcp::Tool
  tool_name 'echo'
  description 'Echo a text'
  arguments { required(:text).filled(:string).description('text to echo') }

  def call(text:)
    text
  end
end

class SlowCountTool < FastMcp::Tool
  tool_name 'slow_count'
  description 'Count to n, 0.1 s a step'
  arguments { required(:n).filled(:integer).description('steps') }

  def call(n:) # rubocop:disable Naming/MethodParameterName
    n.times { sleep 0.1 }
    "counted to #{n}"
  end
end

not_found = ->(_env) { [404, { 'Content-Type' => 'text/plain' }, ['not found']] }
logger = Logger.new($stdout)
logger.level = Logger::INFO
mcp_app = FastMcp.rack_middleware(not_found, name: 'mcptap-natives-ruby', version: '1.0.0', logger: logger) do |server|
  server.register_tools(AddTool, EchoTool, SlowCountTool)
end

app = Rack::Builder.new { run mcp_app }
config = Puma::Configuration.new do |c|
  c.bind "tcp://127.0.0.1:#{port}"
  c.app app
  c.threads 4, 8
  c.workers 0
end
Puma::Launcher.new(config).run
