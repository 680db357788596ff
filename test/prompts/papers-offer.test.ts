/**
 * The end of a guided booking of an international order: the customs papers offered, written where
 * the person says, and recorded in the ledger; nothing asked for an order that stays in Australia.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scripted } from '../helpers/prompter.js';
import { offerPapers } from '../../src/commands/documents/booking.js';
import { paperFields } from '../../src/booking/papers/ledger.js';
import type { JournalRecord } from '../../src/ledger/records.js';
import { orderResponse } from '../../src/schema/order.js';

/** A ledger holding the `created` record of an order to `country`, and the records appended. */
function ledgerOf(country: string) {
  const order = orderResponse.parse({
    id: 'ORD-W1',
    shipments: [
      {
        id: 'SHP-W1',
        collection: { first_name: 'Priya', last_name: 'Raman', country: 'AU', city: 'Sydney', postcode: '2000', address_lines: ['5 Bridge Street'] },
        delivery: { first_name: 'Aroha', last_name: 'Ngata', country, city: 'Auckland', postcode: '1011', address_lines: ['12 Ponsonby Road'] },
        packages: [{ length: 20, width: 15, height: 10, weight: 0.9, unit_weight: 'CM' }],
        customs_information: {
          reason: 'Gift',
          tax_status: 'Private',
          items: [{ description: 'Face oil', quantity: 1, value: 42, currency: 'AUD', madein: 'AU' }],
        },
      },
    ],
  });
  const records: JournalRecord[] = [
    {
      t: new Date().toISOString(),
      id: 'doc-w',
      event: 'created',
      order_id: 'ORD-W1',
      sheet: [{ id: 'SHP-W1', pkgs: 1, kg: 0.9, country }],
      ...paperFields(order),
    },
  ];
  const appended: Array<Omit<JournalRecord, 't'>> = [];
  return {
    appended,
    ledger: {
      records: async function* () {
        yield* records;
      },
      append: (r: Omit<JournalRecord, 't'>) => void appended.push(r),
      written: async () => undefined,
    },
  };
}

/** A context with a terminal, the scripted prompter and an empty profile. */
function contextOf(prompter: ReturnType<typeof scripted>) {
  const err: string[] = [];
  return { err, ctx: { io: { canPrompt: true, err: (t: string) => void err.push(t) }, prompter: () => prompter, profile: async () => ({}) } as never };
}

describe('the guided booking offers the customs papers', () => {
  it('writes them where the person says, and records them in the ledger', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'shipbook-offer-')), 'papers');
    const { ledger, appended } = ledgerOf('NZ');
    const { ctx, err } = contextOf(
      scripted({ 'Order ORD-W1 leaves Australia: write its customs papers (commercial invoice, packing slip)?': true, 'Directory for the papers': dir }),
    );
    await offerPapers(ctx, ledger, 'ORD-W1');
    const file = join(dir, 'ORD-W1-papers.pdf');
    expect(existsSync(file)).toBe(true);
    expect(appended).toEqual([{ id: 'doc-w', event: 'papers', order_id: 'ORD-W1', files: [file] }]);
    expect(err.join('')).toContain(`Wrote the customs papers of order ORD-W1 to ${file}`);
  });

  it('asks nothing for an order that stays in Australia', async () => {
    const { ledger, appended } = ledgerOf('AU');
    const { ctx } = contextOf(scripted({}));
    await offerPapers(ctx, ledger, 'ORD-W1');
    expect(appended).toEqual([]);
  });
});
