# The natives group's Perl MCP client: MCP::Client of the CPAN `MCP` distribution (mojolicious/mojo-mcp 0.12) on
# Mojo::UserAgent (Mojolicious 9.48), Streamable HTTP POSTs only (no GET stream), blocking.
#
#     perl mojo_client.pl URL        e.g. http://127.0.0.1:19819/mcp
#
# initialize (+ notifications/initialized), ping, tools/list, add(1,2), echo("hello"), slow_count(3), add(40,2), a
# tool that does not exist, DELETE. Every request times out after 10 s (the user agent's request_timeout).
use Mojo::Base -strict, -signatures;

use MCP::Client;
use Mojo::JSON qw(to_json);

my $url    = shift @ARGV // 'http://127.0.0.1:19819/mcp';
my $client = MCP::Client->new(url => $url, name => 'mcptap-natives-perl-client', version => '1.0.0');
$client->ua->request_timeout(10)->inactivity_timeout(10);
local $| = 1;
my $init = $client->initialize_session;
say 'initialized: ', to_json($init->{serverInfo}), ' ', $init->{protocolVersion}, ' session ', $client->session_id // '-';
say 'ping: ',  to_json($client->ping);
say 'tools: ', join ' ', map { $_->{name} } @{$client->list_tools->{tools}};
for my $call (['add', {a => 1, b => 2}], ['echo', {text => 'hello'}], ['slow_count', {n => 3}], ['add', {a => 40, b => 2}]) {
  say "$call->[0]: ", to_json($client->call_tool(@$call)->{content});
}
eval { $client->call_tool('nosuch', {}); 1 } or print "nosuch: $@";
say 'delete: ', $client->delete_session;
