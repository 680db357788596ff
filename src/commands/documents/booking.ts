/**
 * The customs papers of a batch (`book … --documents DIR`): as soon as an order is processed, the
 * papers of its international shipments (commercial invoice and packing slip, A4) are made from the
 * ledger's record of it into DIR, the ledger records that they were made, and the order's result
 * carries each file's path. An order whose papers the ledger says were made is not made again
 * (a rerun), unless asked (`--documents-again`): its result carries the files made before. The
 * guided booking offers the same at its end ({@link offerPapers}).
 */
import type { Context } from '../../context.js';
import type { IOStreams } from '../../io.js';
import { paperOrdersOf, recordPapersMade } from '../../booking/index.js';
import { isInternational } from '../../booking/index.js';
import type { BatchResult } from '../../booking/index.js';
import type { LedgerStore } from '../../ledger/index.js';
import type { JournalRecord } from '../../ledger/index.js';
import { makePaperFiles, readPaperSettings } from './make.js';

/** What the papers need of the run's ledger: its records, and to append and write the `papers` record. */
type PapersLedger = Pick<LedgerStore, 'records' | 'written'> & { append(record: Omit<JournalRecord, 't'>): unknown };

/** What the papers of a batch do with each result. */
interface BatchPapers {
  /**
   * Starts making the papers of a processed order, and hands the result on to `then` (the
   * reports) once `result.documents` is set: the reports write a result as it arrives, so it
   * must be whole by then. A result that needs no papers is handed on at once.
   */
  add(result: BatchResult, then: (result: BatchResult) => void): void;
  /** Resolves once the papers of every result added are written (or could not be). */
  settle(): Promise<void>;
}

/**
 * The papers of a batch into `o.dir`, from the run's ledger.
 * @throws as src/commands/documents/make.ts `readPaperSettings` (exit 2) for a catalogue or signature in error, before anything is booked
 */
export async function batchPapers(o: {
  dir: string;
  again: boolean;
  ledger: PapersLedger;
  settings: { catalogue?: string; signature?: string } | undefined;
  io: IOStreams;
}): Promise<BatchPapers> {
  const settings = await readPaperSettings(o.settings);
  const pending: Array<Promise<void>> = [];
  const make = async (r: BatchResult, orderId: string) => {
    // The processed record is visible to a reader of the ledger once written.
    await o.ledger.written();
    const order = (await paperOrdersOf(o.ledger.records({ orderId }))).find((x) => x.orderId === orderId);
    if (order === undefined || !order.recorded || !order.shipments.some(isInternational)) return;
    const before = order.made.at(-1);
    if (before !== undefined && !o.again) {
      r.documents = before.files;
      return;
    }
    const made = await makePaperFiles(
      [order],
      { dir: o.dir },
      { choice: { invoice: true, packingSlip: true }, paper: 'a4', copies: 1 },
      settings,
      '--documents',
    );
    const files = made.files.map((f) => f.path);
    if (files.length === 0) return;
    recordPapersMade(o.ledger, order.id, orderId, files);
    await o.ledger.written();
    r.documents = files;
    o.io.err(`Wrote the customs papers of order ${orderId} to ${files.join(', ')}.\n`);
  };
  return {
    add(r, then) {
      if ((r.status !== 'booked' && r.status !== 'already_booked') || r.order_id === undefined) return then(r);
      const orderId = r.order_id;
      pending.push(
        make(r, orderId)
          .catch((err: unknown) => {
            o.io.err(`warning: the customs papers of order ${orderId} were not made: ${err instanceof Error ? err.message : String(err)}\n`);
          })
          .finally(() => then(r)),
      );
    },
    async settle() {
      await Promise.all(pending);
    },
  };
}

/**
 * At the end of a guided booking of an international order: offers to write its customs papers
 * (commercial invoice and packing slip, A4) into a directory, and records them in the ledger.
 * Asks nothing without a terminal, nor for an order that stays in Australia.
 * @throws as {@link batchPapers}
 */
export async function offerPapers(ctx: Pick<Context, 'io' | 'prompter' | 'profile'>, ledger: PapersLedger, orderId: string): Promise<void> {
  if (!ctx.io.canPrompt) return;
  await ledger.written();
  const order = (await paperOrdersOf(ledger.records({ orderId }))).find((x) => x.orderId === orderId);
  if (order === undefined || !order.recorded || !order.shipments.some(isInternational)) return;
  const prompter = ctx.prompter();
  const yes = await prompter.confirm({
    message: `Order ${orderId} leaves Australia: write its customs papers (commercial invoice, packing slip)?`,
    default: true,
  });
  if (!yes) return;
  const dir = (await prompter.input({ message: 'Directory for the papers', default: '.' })).trim() || '.';
  const settings = await readPaperSettings((await ctx.profile()).papers);
  const made = await makePaperFiles([order], { dir }, { choice: { invoice: true, packingSlip: true }, paper: 'a4', copies: 1 }, settings, 'the directory');
  const files = made.files.map((f) => f.path);
  if (files.length === 0) return;
  recordPapersMade(ledger, order.id, orderId, files);
  await ledger.written();
  ctx.io.err(`Wrote the customs papers of order ${orderId} to ${files.join(', ')} (again: shipbook documents ${orderId} --out ${dir}).\n`);
}
