/**
 * `shipbook journal show` and `shipbook journal resolve` (issue 11): what a batch's journal says
 * about every order, and the way to settle an **unknown** order (a create whose answer never
 * came) once the user has found out what became of it.
 */
import { resolve as resolvePath } from 'node:path';
import { Command } from 'commander';
import { DEFAULT_JOURNAL, Journal, JournalLockedError, readJournal, type EntryState } from '../../batch/journal.js';
import type { Context } from '../../context.js';
import { EXIT, ShipbookError, UsageError } from '../../errors.js';
import { renderTable } from '../../output/table.js';

/** The entry whose identity is `id` or starts with it (unambiguous). @throws UsageError */
function findEntry(states: Map<string, EntryState>, id: string, journal: string): EntryState {
  const exact = states.get(id);
  if (exact) return exact;
  const matches = [...states.values()].filter((s) => s.id.startsWith(id));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) throw new UsageError(`"${id}" names ${matches.length} orders of ${journal}; give more of the identity`);
  throw new UsageError(`no order "${id}" in the journal ${journal}`, { suggestion: `See them with "shipbook journal show --journal ${journal}".` });
}

const row = (s: EntryState) => ({
  id: s.id,
  file: s.file ?? null,
  line: s.line ?? null,
  stage: s.stage,
  order_id: s.orderId ?? null,
  shipment_ids: s.shipmentIds,
  tracking_numbers: s.trackingNumbers ?? [],
  total: s.total ?? null,
  error: s.error ?? null,
});

/** Prints every order of the journal and where it stands. */
export function runJournalShow(o: { journal: string }, ctx: Context): void {
  let states: Map<string, EntryState>;
  try {
    states = readJournal(o.journal);
  } catch (err) {
    throw new ShipbookError('journal_unreadable', (err as Error).message, EXIT.INPUT, { suggestion: 'The journal is NDJSON written by shipbook book; do not edit it by hand.' });
  }
  const orders = [...states.values()].map(row);
  ctx.output.write({ journal: o.journal, orders }, () => {
    if (orders.length === 0) {
      ctx.io.err(`The journal ${o.journal} has no orders.\n`);
      return;
    }
    ctx.io.out(
      renderTable(
        ctx.io,
        [
          { header: 'identity', atomic: true },
          { header: 'input', dropPriority: 1 },
          { header: 'stage', atomic: true },
          { header: 'order', atomic: true },
          { header: 'tracking numbers / error' },
        ],
        orders.map((r) => [r.id, `${r.file ?? ''}:${r.line ?? ''}`, r.stage, r.order_id ?? '', r.error ? r.error.message : r.tracking_numbers.join(', ')]),
      ),
    );
  });
}

/** Records what became of an order: created as `order`, or not created. */
export async function runJournalResolve(o: { journal: string; entry: string; order?: string; notCreated: boolean }, ctx: Context): Promise<void> {
  if ((o.order === undefined) === !o.notCreated) throw new UsageError('give either --order <order id> or --not-created');
  let journal: Journal;
  try {
    journal = await Journal.open(o.journal, { lock: true, command: 'shipbook journal resolve' });
  } catch (err) {
    if (err instanceof JournalLockedError) throw new ShipbookError('journal_locked', err.message, EXIT.INPUT, { suggestion: 'Resolve it once that batch has finished.' });
    throw err;
  }
  try {
    const entry = findEntry(journal.states, o.entry, o.journal);
    if (entry.stage === 'processed') throw new UsageError(`order ${entry.id} is already booked (${entry.orderId}); nothing to resolve`);
    const state = journal.append({ id: entry.id, event: 'resolved', ...(o.order ? { order_id: o.order } : { not_created: true }) });
    ctx.output.write({ resolved: row(state) }, () => {
      ctx.io.err(
        o.order
          ? `Recorded: ${entry.id} is order ${o.order}. The next run of the batch accepts and waits for it instead of creating it.\n`
          : `Recorded: ${entry.id} was not created. The next run of the batch creates it.\n`,
      );
    });
  } finally {
    await journal.close();
  }
}

/** The `journal` command group. */
export function journalCommand(ctx: Context): Command {
  const journalOption = ['--journal <file>', `the journal (default ${DEFAULT_JOURNAL})`, DEFAULT_JOURNAL] as const;
  return new Command('journal')
    .summary("show and settle the orders of a batch's journal")
    .description('A batch (shipbook book with several inputs) records every order in a journal so that a killed run can go on. Show where each order stands, and settle unknown ones.')
    .addHelpText('after', '\nExamples:\n  shipbook journal show\n  shipbook journal show --journal ci/journal.ndjson --json\n  shipbook journal resolve 3f9c2a1b --order ORD-1A2B3C4D\n')
    .addCommand(
      new Command('show')
        .summary('every order of the journal and where it stands')
        .description('Every order of the journal: its identity, input file and line, stage (new, unknown, created, accepted, processed, failed), order id, and tracking numbers or error.')
        .option(...journalOption)
        .addHelpText('after', '\nExamples:\n  shipbook journal show\n  shipbook journal show --journal ci/journal.ndjson --json\n')
        .action((flags: { journal: string }) => runJournalShow({ journal: resolvePath(flags.journal) }, ctx)),
    )
    .addCommand(
      new Command('resolve')
        .summary('settle an unknown order: it was created as --order, or --not-created')
        .description('A create whose answer never came is unknown: the batch never sends it again by itself. Once you know what became of it, record it here; the next run continues from there.')
        .argument('<entry>', 'the order\'s identity (or its first characters), from "shipbook journal show"')
        .option('--order <order-id>', 'it was created: the id of the order the service has')
        .option('--not-created', 'it was not created: the next run creates it', false)
        .option(...journalOption)
        .addHelpText('after', '\nExamples:\n  shipbook journal resolve 3f9c2a1b7d4e5f60-1 --order ORD-1A2B3C4D\n  shipbook journal resolve 3f9c2a1b --not-created\n')
        .action((entry: string, flags: { journal: string; order?: string; notCreated: boolean }) =>
          runJournalResolve({ journal: resolvePath(flags.journal), entry, order: flags.order, notCreated: flags.notCreated }, ctx),
        ),
    );
}
