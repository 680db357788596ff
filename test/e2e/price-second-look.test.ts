/**
 * Prices get a second look: a price that does not add up is a warning, never a silent number. A small proxy in front of a real sandbox changes
 * the service's numbers the way a misbehaving service might (the sandbox itself always adds up);
 * `book` warns on stderr with both figures, lists the warnings in --json, and still books.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_API_KEY, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runShipbook } from '../helpers/run.js';

type Tamper = (method: string, path: string, result: Record<string, any>) => void;
let sandbox: Sandbox;
let proxy: Server;
let tamper: Tamper = () => {};
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ processingDelayMs: 50 });
  const target = new URL(sandbox.url);
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const forward = request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (c: Buffer) => body.push(c));
          answer.on('end', () => {
            let text = Buffer.concat(body).toString();
            try {
              const envelope = JSON.parse(text) as { result?: Record<string, any> };
              if (envelope.result) tamper(req.method ?? 'GET', req.url ?? '/', envelope.result);
              text = JSON.stringify(envelope);
            } catch {
              // not JSON: pass it on
            }
            const headers = { ...answer.headers };
            delete headers['content-length'];
            delete headers['transfer-encoding'];
            res.writeHead(answer.statusCode ?? 502, headers).end(text);
          });
        },
      );
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  env = { SHIPBOOK_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`, SHIPBOOK_API_KEY: SANDBOX_API_KEY };
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await sandbox.close();
});

describe('book takes a second look at the prices', () => {
  it('warns when a total is not amount + insurance + GST or an amount is negative; books anyway', async () => {
    tamper = (method, path, result) => {
      if (method === 'POST' && path.startsWith('/orders/')) {
        result.order.price.total = 99.99;
        result.order.shipments[0].service.price.amount = -1;
      }
    };
    const r = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--json', '--poll', '50ms'], { env });
    tamper = () => {};
    expect(r.code, r.stderr).toBe(0);
    const { order, warnings } = JSON.parse(r.stdout) as { order: { id: string; state: string }; warnings: string[] };
    expect(order.state).toBe('processed');
    expect(warnings).toEqual([
      `order ${order.id}: total 99.99 AUD is not amount 43.00 + insurance 0.00 + GST 4.30 = 47.30 AUD`,
      expect.stringMatching(/^shipment SHP-\w+: amount is negative \(-1\.00 AUD\)$/),
      expect.stringMatching(/^shipment SHP-\w+: total 47\.30 AUD is not amount -1\.00 \+ insurance 0\.00 \+ GST 4\.30 = 3\.30 AUD$/),
    ]);
    for (const w of warnings) expect(r.stderr).toContain(`warning: ${w}`);
  });

  it('warns when summary_child_shipments is not the sum of the children, to the cent', async () => {
    tamper = (method, path, result) => {
      if (method === 'PUT' && path === '/shipments/') result.order.price.summary_child_shipments = '163.68';
    };
    const r = await runShipbook(['book', 'fixtures/consolidated/three-parcels.yaml', '--poll', '50ms'], { env });
    tamper = () => {};
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: order ORD-\w+: summary_child_shipments 163\.68 AUD is not the sum of the children's totals 163\.67 AUD/);
    expect(r.stderr.match(/summary_child_shipments/g)).toHaveLength(1); // said once, not by two checks
    expect(r.stdout).toMatch(/^order\tORD-\w+\tprocessed$/m);
  });

  it('warns the same way in quote, order create, order get, order accept --wait and shipment combine, not only in book', async () => {
    tamper = (method, path, result) => {
      if (method === 'POST' && path === '/quote/') result.services[0].price.total = '1.00';
      if ((method === 'POST' && path === '/orders/') || (method === 'GET' && path.startsWith('/orders/'))) result.order.price.gst = '-4.30';
      if (method === 'PUT' && path === '/shipments/') result.order.price.summary_child_shipments = '0.01';
    };
    try {
      const quote = await runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml', '--json'], { env });
      expect(quote.code, quote.stderr).toBe(0);
      const q = JSON.parse(quote.stdout) as { warnings: string[] };
      expect(q.warnings).toEqual([expect.stringMatching(/^service \S+: total 1\.00 AUD is not amount /)]);
      expect(quote.stderr).toContain(`warning: ${q.warnings[0]}`);

      const created = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env });
      expect(created.code, created.stderr).toBe(0);
      const c = JSON.parse(created.stdout) as { order: { id: string }; warnings: string[] };
      expect(c.warnings).toContain(`order ${c.order.id}: GST is negative (-4.30 AUD)`);
      expect(created.stderr).toContain(`warning: order ${c.order.id}: GST is negative (-4.30 AUD)`);

      const got = await runShipbook(['order', 'get', c.order.id], { env });
      expect(got.code, got.stderr).toBe(0);
      expect(got.stderr).toContain(`warning: order ${c.order.id}: GST is negative (-4.30 AUD)`);

      const accepted = await runShipbook(['order', 'accept', c.order.id, '--payment', 'credit', '--wait', '--poll', '50ms', '--json'], { env });
      expect(accepted.code, accepted.stderr).toBe(0);
      expect((JSON.parse(accepted.stdout) as { warnings: string[] }).warnings).toContain(`order ${c.order.id}: GST is negative (-4.30 AUD)`);

      const ids: string[] = [];
      for (const f of ['fixtures/shipments/au-us-1.yaml', 'fixtures/shipments/au-gb-2.yaml']) {
        const r = await runShipbook(['shipment', 'create', f, '--json'], { env });
        expect(r.code, r.stderr).toBe(0);
        ids.push((JSON.parse(r.stdout) as { shipment: { id: string } }).shipment.id);
      }
      const combined = await runShipbook(['shipment', 'combine', ...ids, '--main', 'fixtures/shipments/main-to-hub.yaml', '--json'], { env });
      expect(combined.code, combined.stderr).toBe(0);
      const w = (JSON.parse(combined.stdout) as { warnings: string[] }).warnings;
      expect(w).toEqual([expect.stringMatching(/summary_child_shipments 0\.01 AUD is not the sum of the children's totals/)]);
      expect(combined.stderr.match(/summary_child_shipments/g)).toHaveLength(1);
    } finally {
      tamper = () => {};
    }
  });

  it('says nothing when the numbers add up', async () => {
    const r = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--json', '--poll', '50ms'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('warning:');
    expect(JSON.parse(r.stdout)).not.toHaveProperty('warnings');
  });
});
