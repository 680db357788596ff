/**
 * A saved sender's own pickup days: its `cutoff`, `pickup_window` and `closed` days count over the
 * profile's for the collections that name it (`collection: "@name"`), and are never sent.
 */
import { describe, expect, it } from 'vitest';
import { loadCollectionCalendar } from '../../src/booking/pickup/calendar.js';
import { pickupRuleWith } from '../../src/booking/pickup/rule.js';
import { senderAddress } from '../../src/config/schema.js';
import { checkDocument, validateBytes } from '../../src/input/validate.js';
import { fixture, order } from './validation-helpers.js';

// Wednesday 25 November 2026, 11:00 in Sydney: before the profile's 14:00 cut-off, after the sender's 10:00.
const NOW = new Date('2026-11-25T00:00:00Z');
const SENDER = fixture('fixtures/wizard/warehouse-syd.yaml') as Record<string, unknown>;

describe("a saved sender's pickup settings", () => {
  it('are accepted in the address file, and checked', () => {
    expect(senderAddress.safeParse({ ...SENDER, cutoff: '10:00', pickup_window: '08:00-12:00', closed: ['2026-11-26'] }).success).toBe(true);
    const wrong = senderAddress.safeParse({ ...SENDER, cutoff: '25:00', pickup_window: '12:00-08:00', closed: ['2026-13-01'] });
    expect(wrong.success).toBe(false);
    expect(wrong.error!.issues.map((i) => i.path.join('.')).sort()).toEqual(['closed.0', 'cutoff', 'pickup_window']);
  });

  it('decide the next collection day and the window of the collections that name the sender, and are not sent', async () => {
    const rule = pickupRuleWith(await loadCollectionCalendar(), undefined, {}, () => NOW);
    const saved = { ...SENDER, cutoff: '10:00', pickup_window: '08:00-12:00', closed: ['2026-11-26'] };
    const check = (collection: unknown) => {
      const { doc } = order();
      doc.order.shipments[0].collection = collection;
      const report = validateBytes('doc.json', Buffer.from(JSON.stringify(doc)), {
        kind: 'order',
        now: () => NOW,
        pickup: rule,
        senders: { senders: { warehouse: saved }, profile: 'dev' },
      });
      expect(report.issues.filter((i) => i.severity === 'error')).toEqual([]);
      return report;
    };
    // Named by reference: past the sender's 10:00 cut-off, the 26th closed: Friday the 27th, 08:00-12:00.
    const byName = check({ sender: '@warehouse', pickup: { date: 'next' } });
    expect(byName.valid).toBe(true);
    const { doc } = order();
    doc.order.shipments[0].collection = { sender: '@warehouse', pickup: { date: 'next' } };
    const sent = checkDocument(
      { file: 'doc.json', data: doc, wrapper: [], locate: () => undefined },
      { kind: 'order', now: () => NOW, pickup: rule, senders: { senders: { warehouse: saved }, profile: 'dev' } },
    ).value as { order: { shipments: Array<{ collection: Record<string, unknown> }> } };
    const collection = sent.order.shipments[0]!.collection;
    expect(collection.pickup).toEqual({ date: '2026-11-27', time_earliest: '08:00', time_latest: '12:00' });
    for (const field of ['cutoff', 'pickup_window', 'closed']) expect(collection).not.toHaveProperty(field);
    // The same address written out in full: the profile's rules, today before 14:00, 09:00-15:00.
    const { doc: plain } = order();
    plain.order.shipments[0].collection.pickup = { date: 'next' };
    const own = checkDocument({ file: 'doc.json', data: plain, wrapper: [], locate: () => undefined }, { kind: 'order', now: () => NOW, pickup: rule })
      .value as { order: { shipments: Array<{ collection: Record<string, unknown> }> } };
    expect(own.order.shipments[0]!.collection.pickup).toEqual({ date: '2026-11-25', time_earliest: '09:00', time_latest: '15:00' });
  });
});
