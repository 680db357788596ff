/** Saved sender references in files (src/input/senders.ts): replaced before validation, unknown names at their line:col. */
import { PLAIN_HINTS } from '../../src/shell.js';
import { describe, expect, it } from 'vitest';
import { parseInput } from '../../src/input/parse.js';
import { resolveSenders } from '../../src/input/senders.js';
import { wordIssues } from '../../src/output/issues.js';

const WAREHOUSE = {
  first_name: 'Priya',
  last_name: 'Raman',
  email: 'p@example.com',
  phone: '1',
  country: 'AU',
  postcode: '2015',
  city: 'Alexandria',
  address_lines: ['Unit 4'],
};

describe('resolveSenders', () => {
  it('replaces "@name" and {sender: "@name", pickup} anywhere, leaving the input unchanged', () => {
    const text = [
      'shipments:',
      '  - collection: "@warehouse"',
      'main_shipment:',
      '  collection:',
      '    sender: "@warehouse"',
      '    pickup: { date: "2026-12-01", time_earliest: "09:00", time_latest: "15:00" }',
      '',
    ].join('\n');
    const doc = parseInput('c.yaml', Buffer.from(text));
    const r = resolveSenders(doc, { warehouse: WAREHOUSE }, 'dev');
    expect(r.issues).toEqual([]);
    expect(r.used).toEqual(['warehouse', 'warehouse']);
    const data = r.data as { shipments: Array<{ collection: unknown }>; main_shipment: { collection: Record<string, unknown> } };
    expect(data.shipments[0]!.collection).toEqual(WAREHOUSE);
    expect(data.main_shipment.collection).toEqual({ ...WAREHOUSE, pickup: { date: '2026-12-01', time_earliest: '09:00', time_latest: '15:00' } });
    expect((doc.data as { shipments: Array<{ collection: unknown }> }).shipments[0]!.collection).toBe('@warehouse');
  });

  it('reports an unknown name at its line and column with the saved names', () => {
    const doc = parseInput('o.yaml', Buffer.from('order:\n  shipments:\n    - collection: "@nowhere"\n'));
    const r = resolveSenders(doc, { warehouse: WAREHOUSE }, 'dev');
    // The next step is data; output/ words it for the run's shell and profile.
    expect(r.issues[0]?.next).toEqual(['; save one with "', { argv: ['config', 'sender', 'set', 'nowhere', { placeholder: 'address-file' }] }, '")']);
    expect(wordIssues(r.issues, PLAIN_HINTS)).toEqual([
      {
        file: 'o.yaml',
        line: 3,
        column: 19,
        path: 'order.shipments[0].collection',
        message: 'unknown sender "@nowhere" in profile "dev" (saved: @warehouse; save one with "shipbook config sender set nowhere <address-file>")',
        severity: 'error',
      },
    ]);
  });

  it('leaves documents without references alone', () => {
    const doc = parseInput('q.yaml', Buffer.from('collection_country: AU\nnote: "@not-a-collection"\n'));
    const r = resolveSenders(doc, undefined, 'sandbox');
    expect(r).toEqual({ data: doc.data, issues: [], used: [], pickups: [] });
  });
});
