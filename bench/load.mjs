// Load generator for the capacity figure, run in its own process: autocannon with 32 connections
// POSTing one JSON body to a URL for N seconds. Usage: node bench/load.mjs <url> <seconds> <body>.
// Prints {requestsPerSecond, errors, non2xx} as JSON.
import autocannon from 'autocannon';

const [url, seconds, body] = process.argv.slice(2);
const result = await autocannon({
  url,
  method: 'POST',
  connections: 32,
  duration: Number(seconds),
  headers: { 'content-type': 'application/json', authorization: 'Bearer sk_bench_0123456789' },
  body,
});
process.stdout.write(`${JSON.stringify({ requestsPerSecond: result.requests.average, errors: result.errors + result.timeouts, non2xx: result.non2xx })}\n`);
