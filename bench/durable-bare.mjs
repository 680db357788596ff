// The durable baseline of the booking figures: the fastest client that keeps book's promise, and
// nothing else. Like bench/bare-undici.mjs it sends book's requests with undici.request (create,
// accept, then fetch-order-data until the order is processed) at the same concurrency, and also:
// - appends each mutating request's intent (create, accept) to a write-ahead log and fdatasyncs it
//   before the request leaves; the intents of one event-loop turn share one write and one flush;
// - appends each answer to the log after it arrives (written with the next flush, not awaited);
// - polls at the same interval and on the same schedule as `shipbook book --poll <ms>ms`: the
//   first poll one interval after acceptance, then half as long again each time, up to twice it.
// As in book, <concurrency> bounds the orders being created and accepted; an order waiting for its
// result holds no place. No validation, no ledger format, no checks of the answers. Usage:
//   node bench/durable-bare.mjs <base-url> <orders.ndjson> <concurrency> <poll-ms> [<wal-file>]
// Prints {ordersPerSecond, orders, requests, flushes} as JSON.
import { openSync, closeSync, writeSync, fdatasyncSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';

const [baseUrl, file, concurrencyArg, pollArg, walArg] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);
const pollMs = Number(pollArg ?? 1000);
const orders = readFileSync(file, 'utf8').split('\n').filter(Boolean);
const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
const headers = { 'content-type': 'application/json', authorization: 'Bearer sk_bench_0123456789' };
const wal = openSync(walArg ?? join(mkdtempSync(join(tmpdir(), 'durable-bare-')), 'wal.ndjson'), 'a');
let requests = 0;
let flushes = 0;

// The write-ahead log: lines of one turn are written and flushed together (group commit).
let pending = [];
let flushed;
function flushSoon() {
  flushed ??= new Promise((resolve) =>
    setImmediate(() => {
      const lines = pending;
      pending = [];
      flushed = undefined;
      writeSync(wal, lines.join(''));
      fdatasyncSync(wal);
      flushes++;
      resolve();
    }),
  );
  return flushed;
}
/** Appends an intent and resolves once it is on disk. */
const intent = (record) => (pending.push(`${JSON.stringify(record)}\n`), flushSoon());
/** Appends an answer; it reaches the disk with the next flush. */
const answer = (record) => {
  pending.push(`${JSON.stringify(record)}\n`);
  void flushSoon();
};

async function call(method, path, body) {
  requests++;
  const res = await request(new URL(path, baseUrl), { method, headers, body: body === undefined ? undefined : JSON.stringify({ request: body }), dispatcher });
  const json = await res.body.json();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${json.message}`);
  return json.result;
}

/** The pause before poll `n` (n ≥ 1), book's schedule. */
const pollDelay = (n) => Math.max(1, Math.round(pollMs * Math.min(2, 1.5 ** (n - 1))));

// Places for orders being created and accepted, first come first served.
let free = concurrency;
const queue = [];
const acquire = () => (free > 0 ? (free--, Promise.resolve()) : new Promise((resolve) => queue.push(resolve)));
const release = () => (queue.length > 0 ? queue.shift()() : free++);

async function book(order, n) {
  const transient = order.order?.shipments?.[0]?.transient_id ?? String(n);
  await intent({ n, event: 'create_sent', transient });
  const id = (await call('POST', 'orders/', order)).order.id;
  answer({ n, event: 'created', order_id: id });
  await intent({ n, event: 'accept_sent', order_id: id });
  await call('PUT', `orders/${id}/accept/`, { order: { id, payment: { type: 'credit' } } });
  answer({ n, event: 'accepted', order_id: id });
  release();
  for (let poll = 1; ; poll++) {
    await sleep(pollDelay(poll));
    const status = String((await call('GET', `orders/${id}/`)).order.status).toLowerCase();
    if (status === 'processed') {
      answer({ n, event: 'processed', order_id: id });
      return;
    }
    if (status === 'failed' || status === 'cancelled') throw new Error(`order ${id} ended ${status}`);
  }
}

const started = process.hrtime.bigint();
const underWay = [];
for (let i = 0; i < orders.length; i++) {
  await acquire();
  underWay.push(book(JSON.parse(orders[i]), i));
}
await Promise.all(underWay);
await flushSoon();
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
closeSync(wal);
await dispatcher.close();
process.stdout.write(`${JSON.stringify({ ordersPerSecond: orders.length / seconds, orders: orders.length, requests, flushes })}\n`);
