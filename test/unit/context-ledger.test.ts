/**
 * `ctx.ledger(mode)`: the context opens the ledger of the run's target in the run's state
 * directory, in the implementation the profile's `ledger` setting chooses, and closes what it
 * opened when the run ends, once, whether or not the command closed it first.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createContext, type Context } from '../../src/context.js';
import { ledgerPath, type JournalRecord } from '../../src/ledger/index.js';
import { bufferIO } from '../helpers/run.js';

/** A context on a service that is never called (no command here sends anything), with a state directory of its own. */
function context(state = mkdtempSync(join(tmpdir(), 'shipbook-ctx-ledger-'))): { ctx: Context; state: string } {
  const io = bufferIO({
    env: {
      SHIPBOOK_BASE_URL: 'https://booking.example.invalid',
      SHIPBOOK_API_KEY: 'sk_test_ctx_ledger_1234',
      SHIPBOOK_CONFIG_DIR: '/nonexistent-shipbook-test',
      SHIPBOOK_STATE_DIR: state,
      SHIPBOOK_LEDGER: 'file',
    },
  });
  return { ctx: createContext(io, {}), state };
}

async function all(records: AsyncIterable<JournalRecord>): Promise<JournalRecord[]> {
  const out: JournalRecord[] = [];
  for await (const r of records) out.push(r);
  return out;
}

describe('ctx.ledger', () => {
  it('writes to the file ledger of the run target, stamped with the operation and the profile, and closes it when the run ends', async () => {
    const { ctx, state } = context();
    const ledger = await ctx.ledger('write', { command: 'shipbook book doc.json', op: 'book' });
    expect(ledger.location).toBe(ledgerPath(state, await ctx.targetId()));
    expect(await ledger.claim('doc-1', () => true)).toMatchObject({ kind: 'claimed' });
    ledger.append({ id: 'doc-1', event: 'created', order_id: 'ORD-1' });
    await ledger.durable();
    expect(ledger.get('doc-1')?.claim).toBeDefined();
    // The command does not close it: the end of the run does, letting go of its claim.
    await ctx.close();

    const { ctx: next } = context(state);
    const peek = await next.ledger('peek');
    expect(peek('doc-1')).toMatchObject({ stage: 'created', orderId: 'ORD-1' });
    expect(peek('doc-1')?.claim).toBeUndefined();
    const queries = await next.ledger('query');
    const records = await all(queries.records({ orderId: 'ORD-1' }));
    expect(records.map((r) => r.event)).toEqual(['claimed', 'created', 'released']);
    expect(records[1]).toMatchObject({ id: 'doc-1', op: 'book', profile: (await next.profile()).name });
    await next.close();
  });

  it('closes a ledger once, whether its command closed it first or not', async () => {
    const { ctx } = context();
    const ledger = await ctx.ledger('write', { command: 'shipbook journal resolve' });
    const first = ledger.close();
    expect(ledger.close()).toBe(first);
    await first;
    await ctx.close();
  });

  it('peeks at the run journal copy too, and opens nothing for a peek', async () => {
    const { ctx, state } = context();
    const copy = join(state, 'journal.ndjson');
    const ledger = await ctx.ledger('write', { command: 'shipbook book --journal', copy: { path: copy, lock: true } });
    ledger.append({ id: 'doc-2', event: 'created', order_id: 'ORD-2' });
    await ledger.durable();
    await ctx.close();

    const { ctx: other } = context();
    const peek = await other.ledger('peek', { copy: { path: copy } });
    // Another state directory: its ledger knows nothing, the copy knows the order.
    expect(peek('doc-2')).toMatchObject({ stage: 'created', orderId: 'ORD-2' });
    expect(existsSync(ledgerPath(other.stateDir(), await other.targetId()))).toBe(false);
    await other.close();
  });
});
