<?php
// The official PHP SDK's Streamable HTTP server (mcp/sdk 0.7.1, src/php-sdk, loaded by path) under PHP's built-in
// web server (`php -S 127.0.0.1:PORT php_server.php`, this file as the router: every request runs it afresh, one
// request at a time). As the SDK's examples/server/bootstrap.php does: a PSR-7 server request from the globals,
// StreamableHttpTransport with its default middleware, Server::run(), the PSR-7 response emitted (here by the few
// lines of emit() instead of laminas-httphandlerrunner's SapiEmitter, which Debian does not package). Sessions in a
// FileSessionStore (PHP keeps no memory between requests). Tools add(a, b), echo(text), slow_count(n) (n
// notifications/progress 0.1 s apart when the request carries a progressToken).
declare(strict_types=1);

$src = __DIR__.'/src';
foreach (['Nyholm/Psr7', 'Psr/Log', 'Psr/Http/Message', 'Psr/Http/Client', 'Psr/EventDispatcher', 'Psr/Container',
          'Symfony/Component/Uid', 'Symfony/Component/Finder', 'Symfony/Contracts/Deprecation',
          'phpDocumentor/Reflection/DocBlock', 'phpDocumentor/Reflection/Types', 'phpDocumentor/Reflection/Common',
          'Webmozart/Assert'] as $deb) {
    require_once "/usr/share/php/$deb/autoload.php";   // Debian 12 packages (php-nyholm-psr7, php-psr-*, ...)
}
$psr4 = [
    'Mcp\\' => "$src/php-sdk/src/",
    'Opis\\JsonSchema\\' => "$src/opis-json-schema/src/",
    'Opis\\String\\' => "$src/opis-string/src/",
    'Opis\\Uri\\' => "$src/opis-uri/src/",
    'Psr\\Clock\\' => "$src/psr-clock/src/",
    'Http\\Discovery\\' => "$src/php-http-discovery/src/",
    'Psr\\Http\\Server\\' => ["$src/psr-http-server-handler/src/", "$src/psr-http-server-middleware/src/"],
];
spl_autoload_register(static function (string $class) use ($psr4): void {
    foreach ($psr4 as $prefix => $dirs) {
        if (str_starts_with($class, $prefix)) {
            foreach ((array) $dirs as $dir) {
                $file = $dir.str_replace('\\', '/', substr($class, strlen($prefix))).'.php';
                if (is_file($file)) { require $file; return; }
            }
        }
    }
});

use Mcp\Server;
use Mcp\Server\RequestContext;
use Mcp\Server\Session\FileSessionStore;
use Mcp\Server\Transport\StreamableHttpTransport;
use Nyholm\Psr7\Factory\Psr17Factory;
use Psr\Http\Message\ResponseInterface;

$log = new class extends Psr\Log\AbstractLogger {
    public function log($level, $message, array $context = []): void
    {
        if ('debug' !== $level) {
            file_put_contents('php://stderr', sprintf("[%s] %s\n", strtoupper((string) $level), $message));
        }
    }
};

function emit(ResponseInterface $r): void
{
    http_response_code($r->getStatusCode());
    foreach ($r->getHeaders() as $name => $values) {
        foreach ($values as $v) {
            header("$name: $v", false);
        }
    }
    echo $r->getBody();   // a CallbackStream (SSE reply) echoes and flushes its events itself
}

$f = new Psr17Factory();
$request = $f->createServerRequest($_SERVER['REQUEST_METHOD'], 'http://'.$_SERVER['HTTP_HOST'].$_SERVER['REQUEST_URI'], $_SERVER);
foreach (getallheaders() as $name => $value) {
    $request = $request->withHeader($name, $value);
}
$body = $f->createStream((string) file_get_contents('php://input'));
$body->rewind();   // Debian's nyholm/psr7 1.5.1 leaves a new stream at its end; the transport reads from the position
$request = $request->withBody($body);

$server = Server::builder()
    ->setServerInfo('othersdks-php', '1.0.0')
    ->setLogger($log)
    ->setSession(new FileSessionStore(getenv('MCP_SESSIONS') ?: sys_get_temp_dir().'/othersdks-php-sessions'))
    ->addTool(static fn (int $a, int $b): string => (string) ($a + $b), name: 'add', description: 'Add two integers')
    ->addTool(static fn (string $text): string => $text, name: 'echo', description: 'Echo the text back')
    ->addTool(static function (RequestContext $context, int $n): string {
        for ($i = 1; $i <= $n; ++$i) {
            usleep(100_000);
            $context->getClientGateway()->progress($i, $n, "step $i");
        }
        return "counted to $n";
    }, name: 'slow_count', description: 'Count to n, one progress notification every 0.1 s')
    ->build();

emit($server->run(new StreamableHttpTransport($request, $f, $f, logger: $log)));
