/**
 * An order that rules sent by consolidated mail, whose shipments were created and whose combine the
 * service refused: what its records say (src/booking/record.ts `recordMailMember`), where the fold
 * puts it, what a rerun's batch reports of it (src/booking/batch/results.ts `skippedResult`) and
 * the hint it prints (src/output/ledger.ts `nextStepHint`).
 */
import { describe, expect, it } from 'vitest';
import { resumeFrom } from '../../src/booking/index.js';
import { skippedResult } from '../../src/booking/batch/results.js';
import { recordMailMember } from '../../src/booking/record.js';
import { applyRecord } from '../../src/ledger/fold.js';
import type { EntryState, JournalRecord } from '../../src/ledger/index.js';
import { nextStepHint } from '../../src/output/ledger.js';

const REFUSAL = 'invalid request: main_shipment is required (this account does not have the free-pickup option)';

/** Records appended, folded as the ledger folds them. */
function sink() {
  const records: Omit<JournalRecord, 't'>[] = [];
  let state: EntryState | undefined;
  return {
    records,
    state: () => state,
    append(r: Omit<JournalRecord, 't'>) {
      records.push(r);
      state = applyRecord(state, { ...r, t: '2026-11-27T00:00:00.000Z' } as JournalRecord);
      return state;
    },
  };
}

describe('a consolidated-mail order whose combine the service refused', () => {
  it('records its own shipments and the refusal: a rerun reports it failed so, with the fix and the commands that book it', () => {
    const s = sink();
    const at = { id: 'doc-1', file: 'o.ndjson', line: 2 };
    recordMailMember(s, at, { kind: 'sent', group: 'group-1' });
    expect(resumeFrom(s.state()).action).toBe('unknown');
    recordMailMember(s, at, { kind: 'combine_refused', shipmentIds: ['SHP-2'], error: { code: 'combine_refused', message: REFUSAL, exit_code: 3 } });
    expect(s.records.map((r) => r.event)).toEqual(['create_sent', 'shipment_created', 'failed']);
    expect(s.state()).toMatchObject({ stage: 'failed', shipmentIds: ['SHP-2'], error: { code: 'combine_refused', message: REFUSAL } });
    expect(s.state()?.orderId).toBeUndefined();

    const resume = resumeFrom(s.state());
    expect(resume.action).toBe('combine');
    const row = skippedResult(at, resume as Extract<typeof resume, { action: 'combine' }>);
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 0,
      shipment_ids: ['SHP-2'],
      error: { code: 'combine_refused', message: `an earlier run created shipments SHP-2 for it and the service refused to combine them: ${REFUSAL}` },
      next: { action: 'fix_mail', identity: 'doc-1', shipment_ids: ['SHP-2'] },
    });
    const hint = nextStepHint(row.next!, { rerun: 'shipbook book o.ndjson --rules r.yaml', file: 'o.ndjson' }, { shell: 'posix' });
    expect(hint).toContain('Its shipments SHP-2 stay uncombined (nothing is paid for them)');
    expect(hint).toContain('unset SHIPBOOK_MAIL_FREE_PICKUP');
    expect(hint).toContain('"shipbook journal resolve doc-1 --not-created"');
    expect(hint).toMatch(/run the same command again \(its shipments are created anew\): shipbook book o\.ndjson --rules r\.yaml$/);
    expect(hint).not.toContain('may exist');
  });

  it('shipments created and not combined with no answer saying why stay the combine step of before', () => {
    const s = sink();
    s.append({ id: 'doc-2', event: 'shipment_created', shipment_ids: ['SHP-1'] });
    const resume = resumeFrom(s.state());
    const row = skippedResult({ id: 'doc-2', file: 'c.yaml', line: 1 }, resume as Extract<typeof resume, { action: 'combine' }>);
    expect(row.next).toEqual({ action: 'combine', identity: 'doc-2', shipment_ids: ['SHP-1'] });
    expect(row.error?.code).toBe('incomplete');
  });
});
