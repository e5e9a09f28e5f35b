# The natives group's Perl MCP server: the CPAN `MCP` distribution (mojolicious/mojo-mcp 0.12, Sebastian Riedel) on
# Mojolicious 9.48 (both from GitHub, on PERL5LIB; see SOURCES), its own Streamable HTTP transport
# (MCP::Server::Transport::HTTP) under Mojolicious' own HTTP server (Mojo::Server::Daemon), 127.0.0.1 only.
#
#     perl mojo_server.pl PORT [--plain]
#
# Default: `any '/mcp' => $server->to_action({streaming => 1})`: sessions, the GET SSE stream, DELETE, and progress
# notifications (sent on the session's GET stream; the tools/call reply that awaits them is an SSE reply of its own).
# --plain: `$server->to_action` (the distribution's default): POST only, no session state (any Mcp-Session-Id is
# accepted), GET and DELETE answered 405 JSON.
# Tools: add(a,b), echo(text), slow_count(n): n progress notifications 0.1 s apart, then "counted to n".
use Mojolicious::Lite -signatures;

use MCP::Server;
use Mojo::IOLoop;
use Mojo::Promise;

my $port  = shift @ARGV // 19815;
my $plain = grep { $_ eq '--plain' } @ARGV;
@ARGV = ();

my $server = MCP::Server->new(name => 'mcptap-natives-perl', version => '1.0.0');
$server->tool(
  name         => 'add',
  description  => 'Add two integers',
  input_schema => {type => 'object', properties => {a => {type => 'integer'}, b => {type => 'integer'}}, required => ['a', 'b']},
  code         => sub ($tool, $args) { return '' . ($args->{a} + $args->{b}) }
);
$server->tool(
  name         => 'echo',
  description  => 'Echo a text',
  input_schema => {type => 'object', properties => {text => {type => 'string'}}, required => ['text']},
  code         => sub ($tool, $args) { return $args->{text} }
);
$server->tool(
  name         => 'slow_count',
  description  => 'Count to n, 0.1 s a step, with progress',
  input_schema => {type => 'object', properties => {n => {type => 'integer'}}, required => ['n']},
  code         => sub ($tool, $args) {
    my $context = $tool->context;
    my $n       = $args->{n};
    my $promise = Mojo::Promise->new;
    my $done    = 0;
    my $id;
    $id = Mojo::IOLoop->recurring(
      0.1 => sub {
        $done++;
        $context->notify_progress($done, $n, "step $done of $n");
        return if $done < $n;
        Mojo::IOLoop->remove($id);
        $promise->resolve("counted to $n");
      }
    );
    return $promise;
  }
);

any '/mcp' => $plain ? $server->to_action : $server->to_action({streaming => 1});

app->log->level('info');
app->start('daemon', '-l', "http://127.0.0.1:$port");
