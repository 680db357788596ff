import { describe, expect, it } from 'vitest';
import { createdStage, earlierBooking, resumeFrom, type EarlierBooking } from '../../src/booking/index.js';
import { earlierAbout, earlierNote, earlierRefusal } from '../../src/output/earlier.js';
import { LimitRefusedError, cmd, exitCodeOf } from '../../src/errors.js';
import { shellCommand } from '../../src/shell.js';
import { hintText } from '../../src/output/hints.js';
import type { EntryState } from '../../src/ledger/index.js';

const state = (over: Partial<EntryState>): EntryState => ({ id: 'doc-1', stage: 'new', shipmentIds: [], records: 1, ...over });
const plain = { shell: 'posix' as const };
const noColour = { color: false };
const ledger = { identity: 'doc-1', label: 'the built-in sandbox', location: '/tmp/j.ndjson' };
const decide = (s: EntryState | undefined, o: Partial<Parameters<typeof earlierBooking>[1]> = {}): EarlierBooking =>
  earlierBooking(resumeFrom(s, { maxTotalCents: o.maxTotalCents }), { command: 'book', file: 'a b.yaml', canAsk: false, ...o });

describe('what an earlier booking means', () => {
  it('books a document the ledger does not know, and order create calls a document taken meanwhile a lost claim', () => {
    expect(decide(undefined).action).toBe('book');
    const lost = decide(undefined, { command: 'order create' });
    expect(lost.action).toBe('claim_lost');
    expect(exitCodeOf(earlierRefusal(lost, ledger, plain)!.kind)).toBe(11);
  });

  it('continues an order created or accepted before, and order create shows it instead', () => {
    const created = decide(state({ stage: 'created', orderId: 'ORD-1', file: 'a.yaml' }));
    expect(created).toMatchObject({ action: 'resume', earlier: 'accept', orderId: 'ORD-1', ask: false });
    expect(earlierNote(noColour, created, plain)).toBe(
      'note: this document was booked before (a.yaml) and became order ORD-1, not accepted: continuing that order, not creating another\n',
    );
    const accepted = decide(state({ stage: 'accepted', orderId: 'ORD-1' }), { canAsk: true });
    expect(accepted).toMatchObject({ action: 'resume', earlier: 'wait', ask: false });
    const shown = decide(state({ stage: 'accepted', orderId: 'ORD-1' }), { command: 'order create' });
    expect(shown.action).toBe('already_created');
    expect(createdStage(shown, undefined)).toEqual({ stage: 'accepted', pending: false });
    expect(createdStage(decide(state({ stage: 'created', orderId: 'ORD-1' }), { command: 'order create' }), 'unknown')).toEqual({
      stage: 'not accepted',
      pending: true,
    });
    expect(createdStage(shown, 'pending')).toEqual({ stage: 'pending', pending: true });
    expect(earlierNote(noColour, shown, plain, 'accepted')).toBe(
      "note: this document was created before: order ORD-1, accepted; nothing was sent. To create another: shipbook order create 'a b.yaml' --again\n",
    );
  });

  it('shows a processed booking as the result, asking first on a terminal when no other run holds it', () => {
    const done = decide(state({ stage: 'processed', orderId: 'ORD-2', trackingNumbers: ['TN1'] }), { canAsk: true });
    expect(done).toMatchObject({ action: 'already_booked', ask: true, trackingNumbers: ['TN1'] });
    expect(earlierAbout(done)).toBe('this document was booked before: order ORD-2, processed, tracking TN1');
    expect(earlierRefusal(done, ledger, plain)).toBeUndefined();
    const held = decide(state({ stage: 'processed', orderId: 'ORD-2' }), { canAsk: true, byOther: { pid: 42, command: 'shipbook book a.yaml' } });
    expect(held.ask).toBe(false);
    expect(earlierAbout(held)).toBe('this document was booked before (by another run just now: pid 42, shipbook book a.yaml): order ORD-2, processed');
  });

  it('refuses an unanswered create or uncombined shipments with the steps to find out (exit 5)', () => {
    const unknown = decide(state({ stage: 'unknown', unknownStep: 'create', transientIds: ['T-1'] }));
    expect(unknown).toMatchObject({ action: 'unknown', earlier: 'unknown', kind: 'network', references: ['T-1'] });
    const err = earlierRefusal(unknown, ledger, plain)!;
    expect(err.code).toBe('booking_unknown');
    expect(exitCodeOf(err.kind)).toBe(5);
    expect(hintText(err.suggestion!, plain)).toContain("Only if a second order, paid twice, is acceptable: shipbook book 'a b.yaml' --again");
    const e = decide(state({ stage: 'created', shipmentIds: ['SHP-1', 'SHP-2'] }), { file: undefined });
    expect(e).toMatchObject({ action: 'unknown', earlier: 'combine' });
    expect(earlierAbout(e)).toBe('an earlier run created shipments SHP-1, SHP-2 for this document and did not combine them');
    const create = decide(state({ stage: 'unknown' }), { command: 'order create', byOther: { pid: 7, command: 'x' } });
    expect(earlierRefusal(create, ledger, plain)!.message).toBe(
      'not created: a create request for this document was sent by another run just now (pid 7, x) and its answer never came: the order may exist',
    );
  });

  it('refuses shipments created and then refused by the service (a combine) as failed, with the exit code recorded then, never as unknown', () => {
    const refusal = 'invalid request: main_shipment is required (this account does not have the free-pickup option)';
    const s = state({ stage: 'failed', shipmentIds: ['SHP-1'], file: 'a.yaml', error: { code: 'combine_refused', message: refusal, exit_code: 3 } });
    const e = decide(s, { canAsk: true });
    expect(e).toMatchObject({ action: 'ended', earlier: 'combine', ask: true, kind: 'api', shipmentIds: ['SHP-1'] });
    expect(earlierAbout(e)).toBe(
      `an earlier run (a.yaml) created shipments SHP-1 for this document and the service then refused to go on (no order was made): ${refusal}`,
    );
    const err = earlierRefusal(e, ledger, plain)!;
    expect(err.code).toBe('previous_booking_failed');
    expect(exitCodeOf(err.kind)).toBe(3);
    expect(err.message).toBe(`not booked again: ${earlierAbout(e)}`);
    const hint = hintText(err.suggestion!, plain);
    expect(hint).toContain('Shipments SHP-1 stay uncombined (nothing is paid for them)');
    expect(hint).toContain('unset SHIPBOOK_MAIL_FREE_PICKUP');
    expect(hint).toContain('"shipbook journal resolve doc-1 --not-created" and run the same command again');
    expect(hint).not.toContain('may exist');
    // Without an exit code recorded, a failed booking (exit 6).
    const bare = decide(state({ stage: 'failed', shipmentIds: ['SHP-1'], error: { code: 'x', message: 'no' } }));
    expect(exitCodeOf(bare.kind!)).toBe(6);
  });

  it('refuses an order a limit refused while this run keeps a limit below its total (exit 9)', () => {
    const s = state({ stage: 'failed', orderId: 'ORD-3', total: '120.00', limit: '100.00', error: { code: 'limit_refused', message: 'over', exit_code: 9 } });
    expect(decide(s, { maxTotalCents: 15000 }).action).toBe('book');
    const over = decide(s, { maxTotalCents: 10000, canAsk: true });
    expect(over).toMatchObject({ action: 'over_limit', ask: false, totalCents: 12000, kind: 'limit_refused' });
    const err = earlierRefusal(over, ledger, plain);
    expect(err).toBeInstanceOf(LimitRefusedError);
    expect(err!.message).toBe(
      "not booked: order ORD-3 of this document cost 120.00 AUD and was refused by --max-total 100.00 (cancelled); this run's --max-total 100.00 is still below it; nothing was sent",
    );
    expect(hintText(err!.suggestion!, plain)).toBe('Run it again with --max-total 120.00 or more to book it.');
    expect(exitCodeOf(err!.kind)).toBe(9);
  });

  it('refuses a booking that ended failed with its recorded exit code and the commands to see it or book it again', () => {
    const s = state({ stage: 'failed', orderId: 'ORD-4', error: { code: 'booking_failed', message: 'carrier said no', exit_code: 6 } });
    const ended = decide(s, { canAsk: true });
    expect(ended).toMatchObject({ action: 'ended', ask: true, kind: 'booking_failed' });
    const err = earlierRefusal(ended, ledger, { shell: 'posix', profile: 'live' })!;
    expect(err.message).toBe('not booked again: the last booking of this document, order ORD-4, ended failed: carrier said no');
    expect(hintText(err.suggestion!, { shell: 'posix', profile: 'live' })).toBe(
      `See it with "shipbook --profile live order get ORD-4"; book the document again with "shipbook --profile live book 'a b.yaml' --again".`,
    );
    const created = earlierRefusal(decide(s, { command: 'order create', file: undefined }), ledger, plain)!;
    expect(created.message).toBe('not created again: this document became order ORD-4, whose booking ended failed');
    expect(hintText(created.suggestion!, plain)).toBe(
      'See it with "shipbook order get ORD-4"; create the document again with "shipbook order create --again".',
    );
  });
});

describe('a next step carried as data prints as the command it replaced', () => {
  it('hintText of cmd(…) is byte for byte shellCommand(…), in every shell, with or without --profile', () => {
    const argsList = [
      ['order', 'accept', 'ORD-1'],
      ['book', 'my orders/a b.yaml', '--again'],
      ['order', 'create', "it's $5.yaml"],
      ['journal', 'show'],
    ];
    for (const shell of ['posix', 'powershell', 'cmd'] as const) {
      for (const profile of [undefined, 'live one']) {
        const style = { shell, ...(profile !== undefined ? { profile } : {}) };
        for (const args of argsList) expect(hintText([cmd(...args)], style)).toBe(shellCommand(style, ...args));
      }
    }
  });
});
