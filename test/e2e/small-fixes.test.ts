/**
 * Small side doors where a command said less than it knew: a journal that does not exist, an
 * order left out by --skip-invalid without its reason, an order file given to shipment create.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox({ processingDelayMs: 20 });
const dir = mkdtempSync(join(tmpdir(), 'shipbook-small-'));

describe('small fixes', () => {
  it('journal show --journal of a file that does not exist is an error (exit 2), not an empty journal', async () => {
    const missing = join(dir, 'missing.ndjson');
    const r = await runShipbook(['journal', 'show', '--journal', missing], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${missing}: no such file`);
    expect(r.stderr).not.toContain('has no documents');
    expect(r.stderr.trimEnd().endsWith('shipbook journal show')).toBe(true);
    const json = await runShipbook(['journal', 'show', '--journal', missing, '--json'], { env: fx.env });
    expect((JSON.parse(json.stdout) as { error: { code: string } }).error.code).toBe('journal_not_found');
  });

  it('book --skip-invalid says why an order was left out: its first problem and a count of the rest', async () => {
    const good = JSON.stringify(JSON.parse(JSON.stringify((await import('yaml')).parse(readFileSync('fixtures/orders/domestic-syd-mel.yaml', 'utf8')))));
    const bad = good.replace('"transient_id"', '"transient_idx"').replace('"SB-DOM-ROAD"', '"SB-DOM-ROAD", "colour": 1');
    const file = join(dir, 'bad.ndjson');
    writeFileSync(file, `${good}\n${bad}\n`);
    const r = await runShipbook(['book', file, '--skip-invalid', '--poll', '50ms'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`invalid        ${file}:2  order.shipments[0].transient_idx: unknown field (did you mean transient_id?) (and 1 more problem)`);
    expect(r.stderr).toMatch(/invalid \S+bad\.ndjson:2 \([0-9a-f]+-1\): order\.shipments\[0\]\.transient_idx: unknown field/);
  });

  it('shipment create given an order file says it is an order and gives the command that books it', async () => {
    const r = await runShipbook(['shipment', 'create', 'fixtures/orders/domestic-syd-mel.yaml'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('fixtures/orders/domestic-syd-mel.yaml is an order, not a consolidated-mail shipment; nothing was sent');
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe('  shipbook book fixtures/orders/domestic-syd-mel.yaml');
    expect(r.stderr).not.toContain('collection_type  required');
  });
});
