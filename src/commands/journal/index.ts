/**
 * `shipbook journal show` and `shipbook journal resolve`: where every document stands according to
 * the ledger of the target (or a journal file, the portable copy a batch keeps), and the way to
 * settle an **unknown** one (a create whose answer never came) once the user has found out what
 * became of it.
 */
import { hintText } from '../../output/hints.js';
import { existsSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { storageCode, storageHint } from '../../storage.js';
import { Command } from 'commander';
import { JournalLockedError, journalTarget, readJournal, type EntryState, ledgerPath, isSharedLedger, type LedgerStore } from '../../ledger/index.js';
import { fetchOrder, listSandboxOrders, type SandboxOrderSummary } from '../../api/orders.js';
import { paint } from '../../output/style.js';
import { resumeFrom, recordResolved } from '../../booking/index.js';
import { targetLabel } from '../../config/target.js';
import type { Context } from '../../context.js';
import { ApiError, ProtocolError, ShipbookError, UsageError, cmd } from '../../errors.js';
import { resolveCommand } from '../../output/ledger.js';
import { journalRow, printJournal } from '../../output/journal.js';

/** The entry whose identity is `id` or starts with it (unambiguous). @throws UsageError */
function findEntry(states: readonly EntryState[], id: string, where: string): EntryState {
  const exact = states.find((s) => s.id === id);
  if (exact) return exact;
  const matches = states.filter((s) => s.id.startsWith(id));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) throw new UsageError(`"${id}" names ${matches.length} documents of ${where}; give more of the identity`);
  throw new UsageError(`no document "${id}" in ${where}`, { suggestion: ['See them with "', cmd('journal', 'show'), '".'] });
}

/** How far along a state is, to take the latest truth of the ledger and a journal file. */
const further = (a: EntryState | undefined, b: EntryState | undefined): EntryState | undefined => {
  const order = ['new', 'unknown', 'failed', 'created', 'accepted', 'processed'];
  if (a === undefined) return b;
  if (b === undefined) return a;
  return order.indexOf(b.stage) > order.indexOf(a.stage) ? b : a;
};

/**
 * Prints every document and where it stands: the ledger of this run's target, or with `journal`
 * the documents of that file, each at the latest truth the file and its target's ledger know.
 */
async function runJournalShow(o: { journal?: string }, ctx: Context): Promise<void> {
  let states: EntryState[];
  let where: string;
  try {
    if (o.journal === undefined && isSharedLedger((await ctx.profile()).ledger)) {
      const ledger = await ctx.ledger('write', { command: hintText([cmd('journal', 'show')], ctx.settings.hints) });
      where = ledger.location;
      states = ledger.entries();
      await ledger.close();
    } else if (o.journal === undefined) {
      const target = await ctx.targetId();
      where = ledgerPath(ctx.stateDir(), target);
      states = [...readJournal(where).values()];
    } else {
      where = o.journal;
      // A journal named on the command line that does not exist is a mistake (a typo, another
      // directory), not an empty journal: said, with exit 2.
      if (!existsSync(o.journal)) {
        throw new ShipbookError('journal_not_found', `${o.journal}: no such file`, 'input', {
          suggestion: [
            `Give the file a batch wrote with --journal (its default is .shipbook/journal-<target>.ndjson in the directory it ran in), or leave --journal out to see this target's ledger: `,
            cmd('journal', 'show'),
          ],
        });
      }
      const own = readJournal(o.journal);
      const target = journalTarget(o.journal);
      const ledger = target === undefined ? new Map<string, EntryState>() : readJournal(ledgerPath(ctx.stateDir(), target));
      states = [...own.values()].map((s) => further(s, ledger.get(s.id))!);
    }
  } catch (err) {
    if (err instanceof ShipbookError) throw err;
    throw new ShipbookError('journal_unreadable', (err as Error).message, 'input', {
      suggestion: 'The journal is NDJSON written by shipbook book; do not edit it by hand.',
    });
  }
  // A claim let go before anything was sent leaves nothing to show.
  const orders = states.filter((s) => s.records > 0 || s.claim !== undefined).map((s) => journalRow(s, resumeFrom(s), o.journal, ctx.settings.hints));
  ctx.output.write({ journal: where, orders }, () => printJournal(ctx.io, ctx.output.format, where, orders));
}

/**
 * Records what became of a document: created as `order` (checked at the service: the order exists
 * and carries the document's transient ids), or not created. Refuses to contradict an earlier
 * answer (or an order the ledger knows) without `force`.
 */
async function runJournalResolve(
  o: { journal?: string; entry: string; order?: string; notCreated: boolean; force: boolean; yes?: boolean },
  ctx: Context,
): Promise<void> {
  if ((o.order === undefined) === !o.notCreated) throw new UsageError('give either --order <order id> or --not-created');
  const target = await ctx.targetId();
  let ledger: LedgerStore;
  try {
    ledger = await ctx.ledger('write', {
      ...(o.journal !== undefined ? { copy: { path: o.journal, lock: true } } : {}),
      command: 'shipbook journal resolve',
    });
  } catch (err) {
    if (err instanceof JournalLockedError)
      throw new ShipbookError('journal_locked', err.message, 'input', { suggestion: 'Resolve it once that batch has finished.' });
    throw err;
  }
  try {
    const entry = findEntry(ledger.entries(), o.entry, `the ledger of ${targetLabel(target)}`);
    if (entry.stage === 'processed') throw new UsageError(`${entry.id} is already booked (${entry.orderId}); nothing to resolve`);
    const answer = o.order ?? 'not_created';
    const earlier = entry.resolvedAs ?? (entry.orderId !== undefined ? entry.orderId : undefined);
    if (earlier !== undefined && earlier !== answer && !o.force) {
      const said = earlier === 'not_created' ? 'not created' : `order ${earlier}`;
      throw new UsageError(
        `${entry.id} is already recorded as ${said}${entry.resolvedAs !== undefined ? ' (an earlier journal resolve)' : ''}; recording ${answer === 'not_created' ? 'not created' : `order ${answer}`} would contradict it`,
        {
          suggestion: ['Check with "', cmd('order', 'get', earlier === 'not_created' ? answer : earlier), '"; if the earlier answer was wrong, give --force.'],
        },
      );
    }
    if (o.order !== undefined) await checkOrder(ctx, o.order, entry, target, o.force);
    else if (!(await checkNotCreated(ctx, entry, target, o))) return;
    const state = recordResolved(ledger, entry.id, { ...(o.order ? { orderId: o.order } : {}), forced: o.force === true && earlier !== undefined });
    try {
      await ledger.durable();
    } catch (err) {
      // A disk that cannot take the record: said with what to do, and that nothing was recorded.
      const code = storageCode(err);
      if (code === undefined || !(err instanceof Error)) throw err;
      throw new ShipbookError('storage', `${err.message.replace(/; not recorded: .*$/, '')}; nothing was recorded`, 'storage', {
        suggestion: storageHint(code, dirname(ledger.location), `run the same "${hintText([cmd('journal', 'resolve')], ctx.settings.hints)}" again`),
        cause: err,
      });
    }
    ctx.output.write({ resolved: journalRow(state, resumeFrom(state), o.journal, ctx.settings.hints) }, () => {
      ctx.io.err(
        o.order
          ? `Recorded: ${entry.id} is order ${o.order}. The next book of its input accepts and waits for it instead of creating it.\n`
          : `Recorded: ${entry.id} was not created. The next book of its input creates it.\n`,
      );
    });
  } finally {
    await ledger.close();
  }
}

/**
 * Checks at the service that `orderId` exists and (unless `force`) carries the document's transient ids.
 * @throws UsageError (exit 2) when it does not exist or is another document's
 */
async function checkOrder(ctx: Context, orderId: string, entry: EntryState, target: string, force: boolean): Promise<void> {
  const profile = await ctx.profile();
  let order;
  try {
    order = await fetchOrder(await ctx.api(), orderId, profile.paths);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      throw new UsageError(`order ${orderId} does not exist at ${targetLabel(target)}; nothing was recorded`, {
        suggestion: 'Give the id of the order the service has for this document, or --not-created.',
      });
    }
    throw err;
  }
  const want = entry.transientIds ?? [];
  const have = new Set(order.shipments.map((s) => s.transient_id).filter((t): t is string => typeof t === 'string'));
  const missing = want.filter((t) => !have.has(t));
  if (missing.length > 0 && !force) {
    throw new UsageError(`order ${orderId} is not this document's: its shipments do not carry the transient ids ${missing.join(', ')}; nothing was recorded`, {
      suggestion: "Find the order whose shipments carry them in the service's list of orders, or give --force if you are sure.",
    });
  }
}

/**
 * Checks a claim that the document was not created, before it is recorded: a wrong one makes the
 * next book create a second order, paid twice. A shipbook sandbox lists its orders
 * (`GET /_sandbox/orders/`): the claim is refused when one of them carries a transient id the
 * document's create sent. A real service has no search by reference: that is said, with the cost
 * of a wrong claim, and the claim is asked for again on a terminal (default no) or needs `--yes`.
 * @returns false when the person answered no (nothing is recorded)
 * @throws UsageError (exit 2) when the sandbox holds such an order (unless `force`), or when it
 *   cannot be checked and there is neither a terminal nor `--yes`
 */
async function checkNotCreated(ctx: Context, entry: EntryState, target: string, o: { journal?: string; force: boolean; yes?: boolean }): Promise<boolean> {
  const { io } = ctx;
  const refs = entry.transientIds ?? [];
  const label = targetLabel(target);
  let unchecked: string;
  if (refs.length === 0) {
    unchecked = `its shipments carry no reference (transient_id), so the orders at ${label} cannot be matched to it`;
  } else {
    let orders: SandboxOrderSummary[] | undefined;
    let unreadable: string | undefined;
    try {
      orders = await listSandboxOrders(await ctx.api(), { retry: 'safe' });
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      const why = err instanceof Error ? err.message : String(err);
      ctx.debugLog(`the list of orders (GET /_sandbox/orders/) could not be read: ${why}`);
      // A service without the list answers 404 (or something that is not a list); anything else is a list that could not be read now.
      if (!(err instanceof ProtocolError) && !(err instanceof ApiError && (err.status === 404 || err.status === 405))) unreadable = why;
    }
    if (orders !== undefined) {
      const carrying = orders.filter((order) => order.shipments.some((sh) => typeof sh.transient_id === 'string' && refs.includes(sh.transient_id)));
      if (carrying.length > 0 && !o.force) {
        const first = carrying[0]!;
        const which = carrying.map((order) => `${order.id} (${order.status})`).join(', ');
        throw new UsageError(
          `not recorded: ${entry.id} was created: ${label} holds order${carrying.length === 1 ? '' : 's'} ${which} carrying its reference${refs.length === 1 ? '' : 's'} ${refs.join(', ')}`,
          { suggestion: `Record that order with: ${resolveCommand(ctx.settings.hints, entry.id, o.journal, ['--order', first.id])}` },
        );
      }
      if (carrying.length === 0) io.err(`Checked: no order at ${label} carries the reference${refs.length === 1 ? '' : 's'} ${refs.join(', ')}.\n`);
      return true;
    }
    unchecked =
      unreadable !== undefined
        ? `the list of orders at ${label} could not be read (${unreadable})`
        : `${label} has no list of orders to look the reference${refs.length === 1 ? '' : 's'} ${refs.join(', ')} up in (the booking interface has no search by reference)`;
  }
  if (o.yes || o.force) return true;
  const cost = `if an order was created after all, the next book of its input creates a second one, paid twice`;
  if (!io.canPrompt) {
    throw new UsageError(`not recorded: "not created" cannot be checked: ${unchecked}; ${cost}`, {
      suggestion: `Check the service's own records (its orders of that time${refs.length > 0 ? `, references ${refs.join(', ')}` : ''}), then confirm with: ${resolveCommand(ctx.settings.hints, entry.id, o.journal, ['--not-created', '--yes'])}`,
    });
  }
  io.err(`${paint(io, 'yellow', 'note:')} "not created" cannot be checked: ${unchecked}. ${cost[0]!.toUpperCase()}${cost.slice(1)}.\n`);
  const yes = await ctx.prompter().confirm({ message: `Record ${entry.id} as not created?`, default: false });
  if (!yes) io.err('Nothing was recorded.\n');
  return yes;
}

/** The `journal` command group. */
export function journalCommand(ctx: Context): Command {
  const journalOption = ['--journal <file>', 'a journal file a batch kept (--journal of book); default the ledger of the target'] as const;
  return new Command('journal')
    .summary('show and settle what the ledger says about each document')
    .description(
      'Every document booked against a target service is recorded in its ledger (in the state directory), whichever way it was booked. Show where each document stands and the next step, and settle unknown ones.',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  shipbook journal show\n  shipbook journal show --journal ci/journal.ndjson --json\n  shipbook journal resolve 3f9c2a1b --order ORD-1A2B3C4D\n',
    )
    .addCommand(
      new Command('show')
        .summary('every document and where it stands')
        .description(
          'Every document: its identity, input file and line, stage (new, unknown, created, accepted, processed, failed), order id, what is known, and the exact next step.',
        )
        .option(...journalOption)
        .addHelpText('after', '\nExamples:\n  shipbook journal show\n  shipbook journal show --journal ci/journal.ndjson --json\n')
        .action((flags: { journal?: string }) => runJournalShow({ ...(flags.journal !== undefined ? { journal: resolvePath(flags.journal) } : {}) }, ctx)),
    )
    .addCommand(
      new Command('resolve')
        .summary('settle an unknown document: it was created as --order, or --not-created')
        .description(
          "A create whose answer never came is unknown: no book sends it again by itself. Once you know what became of it, record it here (an --order is checked at the service: it must exist and carry the document's transient ids); the next book continues from there. --not-created is checked against a sandbox's list of orders (refused when one carries the document's transient ids); a real service cannot be searched by reference, so it is asked for again on a terminal, or needs --yes. An earlier, different answer is kept unless --force.",
        )
        .argument('<entry>', 'the document\'s identity (or its first characters), from "shipbook journal show"')
        .option('--order <order-id>', 'it was created: the id of the order the service has')
        .option('--not-created', 'it was not created: the next book creates it', false)
        .option('--force', 'record the answer even though it contradicts an earlier one, or an order the sandbox holds', false)
        .option('-y, --yes', 'confirm --not-created where it cannot be checked (a real service has no search by reference); asked on a terminal', false)
        .option(...journalOption)
        .addHelpText(
          'after',
          '\nExamples:\n  shipbook journal resolve 3f9c2a1b7d4e5f60-1 --order ORD-1A2B3C4D\n  shipbook journal resolve 3f9c2a1b --not-created\n  shipbook journal resolve 3f9c2a1b --not-created --yes   # a real service: checked by hand\n',
        )
        .action((entry: string, flags: { journal?: string; order?: string; notCreated: boolean; force: boolean; yes: boolean }) =>
          runJournalResolve(
            {
              ...(flags.journal !== undefined ? { journal: resolvePath(flags.journal) } : {}),
              entry,
              order: flags.order,
              notCreated: flags.notCreated,
              force: flags.force,
              yes: flags.yes,
            },
            ctx,
          ),
        ),
    );
}
