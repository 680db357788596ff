/**
 * What shipbook sends for the input variants the interface document allows, read at a fake
 * service (test/helpers/fault-server.ts): a quote service entry pasted as a shipment's service
 * (only code and options go out), and a quote's insurance (a decimal amount, or the example's
 * boolean-looking string).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { hostileServiceEnv } from '../helpers/fault-server.js';
import { runShipbook } from '../helpers/run.js';

const { server, env } = hostileServiceEnv('sk_test_variants0123456789');
const dir = mkdtempSync(join(tmpdir(), 'shipbook-variants-'));
const sent = (i = 0) => JSON.parse(server.requests[i]!.body) as { request: any };

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('a quote service entry pasted as the service', () => {
  it('is sent as code and options only, with one warning that the rest was ignored', async () => {
    const doc = parse(readFileSync('fixtures/orders/domestic-syd-mel.yaml', 'utf8'));
    doc.order.shipments[0].service = {
      code: 'SB-DOM-ROAD',
      name: 'Road Economy',
      carrier: 'Sandbox Freight',
      global_mail: false,
      price: { currency: 'AUD', amount: 12.5, total: 13.75, gst: 1.25, insurance: 0 },
    };
    const file = join(dir, 'pasted.yaml');
    writeFileSync(file, stringify(doc));
    // The answer lists the shipment sent (an answer with other shipments is a contradiction, exit 5).
    server.set('POST /orders/', {
      mode: 'ok',
      result: {
        order: { id: 'ORD-P1', status: 'new', shipments: [{ id: 'SHP-P1', status: 'PEN', transient_id: 'SO-10482', service: { code: 'SB-DOM-ROAD' } }] },
      },
    });
    const r = await runShipbook(['order', 'create', file], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(sent().request.order.shipments[0].service).toEqual({ code: 'SB-DOM-ROAD' });
    expect(r.stderr.match(/quote service entry/g)).toHaveLength(1);
    expect(r.stderr).toMatch(/only its code and options are sent; name, carrier, global_mail, price are ignored/);
  });
});

describe('quote insurance', () => {
  const quoteWith = (insurance: unknown) => {
    const doc = parse(readFileSync('fixtures/quotes/syd-mel-single.yaml', 'utf8'));
    (doc.request ?? doc).insurance = insurance;
    const file = join(dir, `quote-${String(insurance)}.yaml`);
    writeFileSync(file, stringify(doc));
    return file;
  };

  it('sends a file\'s "true" as the example\'s string "true", not the JSON boolean', async () => {
    server.set('POST /quote/', { mode: 'ok', result: { services: [] } });
    const r = await runShipbook(['quote', quoteWith('true')], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests[0]!.body).toContain('"insurance":"true"');
  });

  it('sends an amount as a decimal number', async () => {
    server.set('POST /quote/', { mode: 'ok', result: { services: [] } });
    const r = await runShipbook(['quote', quoteWith('150.50')], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(sent().request.insurance).toBe(150.5);
  });
});

describe('GET /quote/ package parameter names, a setting of the profile', () => {
  it('sends the assumed names by default and the names the profile sets', async () => {
    const home = mkdtempSync(join(tmpdir(), 'shipbook-qp-'));
    try {
      const cfg = { SHIPBOOK_CONFIG_DIR: join(home, 'config'), SHIPBOOK_API_KEY: 'sk_test_variants0123456789' };
      expect((await runShipbook(['--profile', 'svc', 'config', 'set', 'base-url', server.url], { env: cfg })).code).toBe(0);
      server.set('GET /quote/', { mode: 'ok', result: { services: [] } });
      const before = await runShipbook(['--profile', 'svc', 'quote', 'fixtures/quotes/syd-mel-single.yaml', '--get'], { env: cfg });
      expect(before.code, before.stderr).toBe(0);
      for (const [field, name] of [
        ['length', 'pkg_length'],
        ['weight', 'mass'],
        ['unit', 'units'],
      ]) {
        const set = await runShipbook(['--profile', 'svc', 'config', 'set', `quote-params.${field}`, name!], { env: cfg });
        expect(set.code, set.stderr).toBe(0);
      }
      const after = await runShipbook(['--profile', 'svc', 'quote', 'fixtures/quotes/syd-mel-single.yaml', '--get'], { env: cfg });
      expect(after.code, after.stderr).toBe(0);
      expect(server.requests).toHaveLength(2);
      const [first, second] = server.requests.map((r) => r.query);
      expect(first).toMatchObject({ length: '30', width: '20', height: '15', weight: '2.5', unit: 'cm', collection_city: 'Sydney' });
      expect(second).toMatchObject({ pkg_length: '30', width: '20', height: '15', mass: '2.5', units: 'cm', collection_city: 'Sydney' });
      expect(second).not.toHaveProperty('length');
      const shown = await runShipbook(['--profile', 'svc', 'config', 'get', 'quote-params.weight'], { env: cfg });
      expect(shown.stdout.trim()).toBe('mass');
      const bad = await runShipbook(['--profile', 'svc', 'config', 'set', 'quote-params.unit', 'a b'], { env: cfg });
      expect(bad.code).toBe(2);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
