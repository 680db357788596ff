// The baseline of the sandbox-capacity figure: a bare node:http server that reads the body and
// answers every request with one fixed envelope. Prints {"url": …} on stdout when it listens.
import { createServer } from 'node:http';

const body = JSON.stringify({
  message: 'OK',
  code: 200,
  result: {
    services: [
      {
        code: 'SB-DOM-ROAD',
        name: 'Road Express',
        carrier: 'Sandbox',
        global_mail: false,
        price: { currency: 'AUD', amount: 12.5, total: 13.75, gst: 1.25, insurance: 0 },
      },
    ],
  },
});
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
