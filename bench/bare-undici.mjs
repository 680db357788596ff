// The baseline of the booking-throughput figure: the same create-order and accept requests that
// `shipbook book` sends, with undici.request at the same concurrency against the same sandbox,
// and nothing else (no validation, no journal, no waiting). Usage:
//   node bench/bare-undici.mjs <base-url> <orders.ndjson> <concurrency> [<poll-ms>]
// With <poll-ms> (for information, not the baseline), it also waits for each booking result as
// `shipbook book --poll <poll-ms>ms` does: fetch-order-data (GET orders/{id}/) on book's schedule
// (an eighth of the interval after acceptance, then a quarter, a half, then every interval) until
// the order is processed; as in book, <concurrency> bounds the requests in flight and an order
// waiting between polls holds no place. So it sends book's requests, and still does nothing else.
// Prints {ordersPerSecond, orders, requests} as JSON.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';

const [baseUrl, file, concurrencyArg, pollArg] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);
const pollMs = pollArg === undefined ? undefined : Number(pollArg);
const orders = readFileSync(file, 'utf8').split('\n').filter(Boolean);
const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
const headers = { 'content-type': 'application/json', authorization: 'Bearer sk_bench_0123456789' };
let requests = 0;

async function call(method, path, body) {
  requests++;
  const res = await request(new URL(path, baseUrl), { method, headers, body: body === undefined ? undefined : JSON.stringify({ request: body }), dispatcher });
  const json = await res.body.json();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${json.message}`);
  return json.result;
}

/** Creates `order` and accepts it (credit): book's two requests that change something. Returns the order id. */
async function createAndAccept(order) {
  const id = (await call('POST', 'orders/', order)).order.id;
  await call('PUT', `orders/${id}/accept/`, { order: { id, payment: { type: 'credit' } } });
  return id;
}

const started = process.hrtime.bigint();
if (pollMs === undefined) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < orders.length) {
        await createAndAccept(JSON.parse(orders[next++]));
      }
    }),
  );
} else {
  // Places for requests in flight, first come first served.
  let free = concurrency;
  const queue = [];
  const acquire = () => (free > 0 ? (free--, Promise.resolve()) : new Promise((resolve) => queue.push(resolve)));
  const release = () => (queue.length > 0 ? queue.shift()() : free++);
  const book = async (order) => {
    // Holds the place taken for it from create to accept, as book does.
    const id = await createAndAccept(order);
    release();
    for (let n = 1; ; n++) {
      await sleep(n >= 4 ? pollMs : Math.max(1, Math.round(pollMs / 2 ** (4 - n))));
      await acquire();
      try {
        const status = String((await call('GET', `orders/${id}/`)).order.status).toLowerCase();
        if (status === 'processed') return;
        if (status === 'failed' || status === 'cancelled') throw new Error(`order ${id} ended ${status}`);
      } finally {
        release();
      }
    }
  };
  const underWay = [];
  for (const line of orders) {
    await acquire();
    underWay.push(book(JSON.parse(line)));
  }
  await Promise.all(underWay);
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
await dispatcher.close();
process.stdout.write(`${JSON.stringify({ ordersPerSecond: orders.length / seconds, orders: orders.length, requests })}\n`);
