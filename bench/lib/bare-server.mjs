// The ceiling: a bare node:http server answering every request with one fixed JSON body.
// Prints the same kind of ready line as jst-tracker serve.
import { createServer } from 'node:http';

const body = JSON.stringify({ hello: 'world' });
const server = createServer((req, res) => {
  // Read (and drop) any request body, as a real route would, before answering.
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`bare node:http listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
