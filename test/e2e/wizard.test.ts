/**
 * The guided booking without a terminal (CI): `--service cheapest|<code>` chooses from a live quote,
 * `--max-total` cancels an order above it (exit 9), `--save-as` writes a file `validate` accepts,
 * saved sender references, and a missing input listed with what supplies it (exit 2).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { runShipbook } from '../helpers/run.js';
import { runCli } from '../helpers/cli.js';

const fx = useSandbox();
/** A stored profile "dev" (saved senders live in stored profiles) pointed at the test's sandbox. */
let env: Record<string, string>;
beforeAll(() => {
  env = { ...fx.env, SHIPBOOK_PROFILE: 'dev' };
});

describe('book without a terminal', () => {
  it('lists every missing part and what supplies it when there is no file (exit 2), creating nothing', async () => {
    const r = await runShipbook(['book'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no order file: give one, e.g. shipbook book order.yaml');
    for (const part of ['collection', 'delivery', 'collection.pickup', 'packages', 'customs_information', 'description']) {
      expect(r.stderr).toContain(`order.shipments[0].${part}  required: `);
    }
    expect(r.stderr).toContain('order.shipments[0].service.code  required: give --service cheapest|<code>, or service.code in the file');
    expect(r.stderr).not.toContain('[sandbox]');
  });

  it('names a missing service at its place in the file', async () => {
    // The default profile (from the environment) has no saved senders.
    const r = await runShipbook(['book', 'fixtures/wizard/no-service.yaml'], { env: fx.env });
    expect(r.code).toBe(2);
    // No saved senders in this profile: the reference is reported at its line and column first.
    expect(r.stderr).toContain('fixtures/wizard/no-service.yaml:10:17  order.shipments[0].collection.sender  unknown sender "@warehouse-syd"');
  });
});

describe('saved senders, --service and --max-total', () => {
  beforeAll(async () => {
    const saved = await runShipbook(['config', 'sender', 'set', 'warehouse-syd', 'fixtures/wizard/warehouse-syd.yaml'], { env });
    expect(saved.code, saved.stderr).toBe(0);
  });

  it('books an order without a service with --service cheapest, and saves it as a file validate accepts', async () => {
    const out = join(fx.home, 'again.yaml');
    const r = await runCli(['book', 'fixtures/wizard/no-service.yaml', '--service', 'cheapest', '--save-as', out], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/SBX\d+/);
    expect(r.stdout).toContain('Road Express');
    const saved = readFileSync(out, 'utf8');
    expect(saved).toContain('code: SB-DOM-ROAD');
    expect(saved).toContain('first_name: Priya');
    const v = await runShipbook(['validate', out], { env });
    expect(v.code, v.stdout + v.stderr).toBe(0);
    const again = await runShipbook(['book', out], { env });
    expect(again.code, again.stderr).toBe(0);
  });

  it('takes a service code from the quote, and refuses one the quote does not offer (exit 2)', async () => {
    const ok = await runShipbook(['order', 'create', 'fixtures/wizard/no-service.yaml', '--service', 'SB-DOM-EXP'], { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('pending');
    const bad = await runShipbook(['book', 'fixtures/wizard/no-service.yaml', '--service', 'SB-NOPE'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'service SB-NOPE is not offered for the shipment; offered: SB-DOM-ROAD (38.50 AUD), SB-CP-STD (40.98 AUD), SB-AP-PARCEL (41.80 AUD), SB-AX-ROAD (50.88 AUD), SB-ST-PREM (52.03 AUD), SB-DOM-EXP (54.78 AUD)',
    );
  });

  it('cancels an order whose exact total is above --max-total and exits 9 saying the price and the limit', async () => {
    const r = await runShipbook(['book', 'fixtures/wizard/no-service.yaml', '--service', 'cheapest', '--max-total', '30'], { env });
    expect(r.code).toBe(9);
    const id = /order (ORD-\w+) costs 38\.50 AUD, above --max-total 30\.00 AUD: not accepted, the pending order was cancelled/.exec(r.stderr)?.[1];
    expect(id, r.stderr).toBeDefined();
    expect(r.stderr).not.toContain('accept it with');
    const get = await runShipbook(['order', 'get', id!, '--json'], { env });
    expect(JSON.parse(get.stdout).order.status).toMatch(/cancel/i);
  });

  it('accepts an order at or under --max-total', async () => {
    const r = await runShipbook(['book', 'fixtures/wizard/no-service.yaml', '--service', 'cheapest', '--max-total', '38.50'], { env });
    expect(r.code, r.stderr).toBe(0);
  });

  it('refuses (exit 9) on order create too, and cancels the order', async () => {
    const r = await runShipbook(['order', 'create', 'fixtures/wizard/no-service.yaml', '--service', 'cheapest', '--max-total', '10'], { env });
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(/costs 38\.50 AUD, above --max-total 10\.00 AUD/);
  });
});

describe('shipment create without a terminal', () => {
  it('lists what a shipment lacks when there is no file (exit 2)', async () => {
    const r = await runShipbook(['shipment', 'create'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the shipment is missing 8 parts, and there is no terminal to ask on; nothing was sent');
    expect(r.stderr).toContain('shipment.service.code  required: give --service cheapest|<code>');
  });

  it('chooses the consolidated-mail service of a live quote with --service cheapest', async () => {
    const file = join(fx.home, 'no-service-shipment.yaml');
    writeFileSync(file, readFileSync('fixtures/shipments/au-us-1.yaml', 'utf8').replace('  service:\n    code: SB-GLOBAL-MAIL\n', ''));
    const r = await runShipbook(['shipment', 'create', file, '--service', 'cheapest', '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).shipment.service.code).toBe('SB-GLOBAL-MAIL');
  });
});

describe('quote without a terminal', () => {
  it('lists the flags a quote lacks (exit 2)', async () => {
    const r = await runShipbook(['quote', '--from', 'AU:2000:Sydney'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--to COUNTRY:POSTCODE:CITY (where they go)');
    expect(r.stderr).toContain('--package LxWxH<cm|in>:<weight><kg|lb> (at least one; repeat for more)');
    expect(r.stderr).not.toContain('--from COUNTRY');
  });
});

describe('validate and saved senders', () => {
  it('reports an unknown saved sender at its line and column', async () => {
    const r = await runShipbook(['validate', 'fixtures/wizard/unknown-sender.yaml'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/unknown-sender\.yaml:6:19\s+order\.shipments\[0\]\.collection\s+error\s+unknown sender "@warehouse-nowhere"/);
  });
});
