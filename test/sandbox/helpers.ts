/** Shared pieces of the sandbox tests: a realistic order body and a small HTTP client over fetch. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Sydney warehouse (pickup) to a Melbourne customer: two packages in cm/kg, customs for a sale. */
export function sydneyToMelbourneShipment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    transient_id: 'WH-2025-0001',
    service: { code: 'SB-DOM-ROAD', options: [] },
    collection_type: 'pickup',
    collection: {
      first_name: 'Priya',
      last_name: 'Raman',
      company: 'Harbour Goods Pty Ltd',
      email: 'dispatch@harbourgoods.com.au',
      phone: '+61 2 9000 1234',
      country: 'AU',
      postcode: '2000',
      city: 'Sydney',
      address_lines: ['Warehouse 4', '88 Kent Street'],
      pickup: { date: '2025-06-03', time_earliest: '09:00', time_latest: '17:00' },
    },
    delivery: {
      first_name: 'Tom',
      last_name: 'Nguyen',
      email: 'tom.nguyen@example.com',
      phone: '0412 345 678',
      country: 'AU',
      postcode: '3000',
      city: 'Melbourne',
      address_lines: ['Level 12', '200 Collins Street'],
    },
    packages: [
      { length: 40, width: 30, height: 20, weight: 4.2, unit: 'cm' },
      { length: 30, width: 20, height: 10, weight: 1.5, unit: 'cm' },
    ],
    customs_information: {
      reason: 'sale',
      tax_status: 'Company',
      lithium: false,
      items: [
        { description: 'Merino wool jumper', quantity: 2, value: 89.95, currency: 'AUD', madein: 'AU' },
        { description: 'Leather wallet', quantity: 1, value: 45.5, currency: 'AUD', madein: 'IT' },
      ],
    },
    description: 'Clothing and accessories',
    ...overrides,
  };
}

/** The create-order body (inside `request`). */
export function orderRequest(...shipments: Array<Record<string, unknown>>): Record<string, unknown> {
  return { order: { shipments: shipments.length > 0 ? shipments : [sydneyToMelbourneShipment()] } };
}

/** The result of a call: HTTP status, headers and the parsed JSON body. */
interface CallResult {
  status: number;
  headers: Headers;
  json: any;
}

/** Calls the sandbox: `body` is wrapped in `request` unless `raw` text is given; `auth` null sends no header. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  opts: { body?: unknown; raw?: string; auth?: string | null; wrap?: boolean } = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.auth !== null) headers.authorization = opts.auth ?? 'Bearer sk_sandbox_builtin';
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.wrap === false ? opts.body : { request: opts.body });
  const res = await fetch(new URL(path.replace(/^\//, ''), baseUrl), { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text === '' ? undefined : JSON.parse(text) };
}

/** Polls `check` every 10 ms until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A callback receiver on 127.0.0.1: records every POST body and answers with the next status of `statuses` (then 200). */
export async function startReceiver(statuses: number[] = []): Promise<{ url: string; bodies: unknown[]; server: Server; close(): Promise<void> }> {
  const bodies: unknown[] = [];
  const queue = [...statuses];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      const status = queue.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: status < 300 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/s3cr3t-path`,
    bodies,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
