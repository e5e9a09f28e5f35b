// jayson (JSON-RPC 2.0) over HTTP as its README shows it: jayson.server({...}).http().listen(PORT).
// Methods: add (the simple example), ping (the notifications example: does nothing), and fail (a method that
// answers a JSON-RPC error object through its callback, the "Errors" section).   node jayson_server.mjs PORT
import jayson from 'jayson';

const port = Number(process.argv[2]);
const server = new jayson.Server({
  add: function (args, callback) {
    callback(null, args[0] + args[1]);
  },
  ping: function (args, callback) {
    // do something, do nothing
    callback();
  },
  fail: function (args, callback) {
    callback({ code: 4, message: 'Insufficient funds', data: { needed: args[0] } });
  },
});
server.http().listen(port, '127.0.0.1');
console.log(`jayson on 127.0.0.1:${port}`);
