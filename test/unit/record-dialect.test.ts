/**
 * One dialect of records: the recorder (src/booking/record.ts) writes the same records for the
 * booking engine and for changes typed by hand, and records of the older dialect of commands typed
 * by hand (`sent` with its step, `answered`) still fold, list and show in history as they did.
 */
import { describe, expect, it } from 'vitest';
import { changeIdentity, recordedRequest, type RecordSink } from '../../src/booking/record.js';
import { applyRecord } from '../../src/ledger/fold.js';
import { historyRows } from '../../src/ledger/reports/history.js';
import { knownOrders } from '../../src/ledger/reports/orders.js';
import { parseRecord, type EntryState, type JournalRecord } from '../../src/ledger/records.js';
import type { OrderResponse } from '../../src/schema/order.js';

/** Lines as an older version wrote them for `shipment create`, `shipment combine`, `order cancel` typed by hand. */
const OLD_LINES = [
  '{"t":"2026-03-01T09:00:00.000Z","id":"change:aaaaaaaaaaaa","event":"sent","step":"create_shipment","op":"shipment create"}',
  '{"t":"2026-03-01T09:00:01.000Z","id":"change:aaaaaaaaaaaa","event":"answered","shipment_ids":["SHP-1"],"total":"12.50","op":"shipment create"}',
  '{"t":"2026-03-01T09:01:00.000Z","id":"change:bbbbbbbbbbbb","event":"sent","step":"combine","shipment_ids":["SHP-1","SHP-2"],"op":"shipment combine"}',
  '{"t":"2026-03-01T09:01:01.000Z","id":"change:bbbbbbbbbbbb","event":"answered","order_id":"ORD-P","total":"30.00","sheet":[],"op":"shipment combine"}',
  '{"t":"2026-03-01T09:02:00.000Z","id":"order:ORD-P","event":"sent","step":"cancel","order_id":"ORD-P","op":"order cancel"}',
  '{"t":"2026-03-01T09:02:01.000Z","id":"order:ORD-P","event":"cancelled","order_id":"ORD-P","op":"order cancel"}',
];

const oldRecords = (): JournalRecord[] => OLD_LINES.map((l) => parseRecord(l)!);

function fold(records: JournalRecord[]): Map<string, EntryState> {
  const states = new Map<string, EntryState>();
  for (const r of records) states.set(r.id, applyRecord(states.get(r.id), r));
  return states;
}

async function* stream(records: JournalRecord[]): AsyncGenerator<JournalRecord> {
  for (const r of records) yield r;
}

/** A sink that keeps what the recorder appends, stamped with the times and op of `OLD_LINES`. */
function keeping(): { sink: RecordSink; records: JournalRecord[] } {
  const records: JournalRecord[] = [];
  const sink = {
    append(r: Omit<JournalRecord, 't'>) {
      const old = oldRecords()[records.length]!;
      records.push({ t: old.t, ...r, ...(old.op !== undefined ? { op: old.op } : {}) });
      return { id: r.id, stage: 'new', shipmentIds: [], records: 0 } satisfies EntryState;
    },
    durable: () => Promise.resolve(),
    written: () => Promise.resolve(),
  };
  return { sink: sink as unknown as RecordSink, records };
}

const order = (id: string, total: string): OrderResponse =>
  ({ id, status: 'PND', shipments: [], price: { total: { toString: () => total } } }) as unknown as OrderResponse;

/** The same three changes, as the recorder writes them today. */
async function newRecords(): Promise<JournalRecord[]> {
  const { sink, records } = keeping();
  await recordedRequest(
    sink,
    { id: 'change:aaaaaaaaaaaa' },
    { step: 'create_shipment' },
    () => Promise.resolve('SHP-1'),
    (id) => ({
      kind: 'shipment_created',
      shipmentIds: [id],
      total: '12.50',
    }),
  );
  await recordedRequest(
    sink,
    { id: 'change:bbbbbbbbbbbb' },
    { step: 'combine', shipmentIds: ['SHP-1', 'SHP-2'] },
    () => Promise.resolve(order('ORD-P', '30.00')),
    (o) => ({
      kind: 'created',
      order: o,
    }),
  );
  await recordedRequest(
    sink,
    { id: 'order:ORD-P' },
    { step: 'cancel', orderId: 'ORD-P' },
    () => Promise.resolve('ORD-P'),
    (orderId) => ({ kind: 'cancelled', orderId }),
  );
  return records;
}

describe('the one dialect of records', () => {
  it('writes a change typed by hand as the engine writes its steps: an intent (create_sent, cancel_sent) and what the answer said', async () => {
    expect((await newRecords()).map((r) => `${r.id} ${r.event}${r.step ? ` ${r.step}` : ''}`)).toEqual([
      'change:aaaaaaaaaaaa create_sent create_shipment',
      'change:aaaaaaaaaaaa shipment_created',
      'change:bbbbbbbbbbbb create_sent combine',
      'change:bbbbbbbbbbbb created',
      'order:ORD-P cancel_sent',
      'order:ORD-P cancelled',
    ]);
    expect(changeIdentity()).toMatch(/^change:[0-9a-f]{12}$/);
  });

  it('folds older records of changes typed by hand as before: a change of no document stands nowhere, a cancel ends the order', () => {
    const states = fold(oldRecords());
    expect(states.get('change:aaaaaaaaaaaa')).toMatchObject({ stage: 'new', records: 0, shipmentIds: [] });
    expect(states.get('change:bbbbbbbbbbbb')).toMatchObject({ stage: 'new', records: 0 });
    expect(states.get('change:bbbbbbbbbbbb')?.orderId).toBeUndefined();
    expect(states.get('order:ORD-P')).toMatchObject({ stage: 'failed', orderId: 'ORD-P', records: 1, error: { code: 'cancelled' } });
  });

  it('folds, lists and shows in history the older dialect and the new one alike', async () => {
    const before = oldRecords();
    const after = await newRecords();
    expect(fold(after)).toEqual(fold(before));
    const rows = async (rs: JournalRecord[]) => {
      const out = [];
      for await (const row of historyRows(stream(rs))) out.push(row);
      return out;
    };
    const oldRows = await rows(before);
    expect(oldRows.map((r) => `${r.operation} ${r.step} ${r.status} ${r.order_id ?? '-'}`)).toEqual([
      'shipment create create_shipment done -',
      'shipment combine combine done ORD-P',
      'order cancel cancel done ORD-P',
    ]);
    expect(await rows(after)).toEqual(oldRows);
    const listed = await knownOrders(stream(before));
    expect(listed.map((o) => `${o.identity} ${o.order_id ?? '-'} ${o.status}`)).toEqual(['change:bbbbbbbbbbbb ORD-P pending', 'order:ORD-P ORD-P cancelled']);
    expect(await knownOrders(stream(after))).toEqual(listed);
  });
});
