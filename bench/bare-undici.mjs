// The baseline of the booking-throughput figure: the same create-order and accept requests that
// `shipbook book` sends, with undici.request at the same concurrency against the same sandbox,
// and nothing else (no validation, no journal, no waiting). Usage:
//   node bench/bare-undici.mjs <base-url> <orders.ndjson> <concurrency>
// Prints {ordersPerSecond, orders} as JSON.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';

const [baseUrl, file, concurrencyArg] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);
const orders = readFileSync(file, 'utf8').split('\n').filter(Boolean);
const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
const headers = { 'content-type': 'application/json', authorization: 'Bearer sk_bench_0123456789' };

async function call(method, path, body) {
  const res = await request(new URL(path, baseUrl), { method, headers, body: JSON.stringify({ request: body }), dispatcher });
  const json = await res.body.json();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${json.message}`);
  return json.result;
}

let next = 0;
const started = process.hrtime.bigint();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < orders.length) {
      const order = JSON.parse(orders[next++]);
      const created = await call('POST', 'orders/', order);
      await call('PUT', `orders/${created.order.id}/accept/`, { order: { id: created.order.id, payment: { type: 'credit' } } });
    }
  }),
);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
await dispatcher.close();
process.stdout.write(`${JSON.stringify({ ordersPerSecond: orders.length / seconds, orders: orders.length })}\n`);
