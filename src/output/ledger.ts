/**
 * The words about the ledger and the booking engine's decisions: the hint of an order a batch left
 * unbooked (from its `next` step, data the runner returns), what a dry run would do with each
 * input, and the command that settles an unknown order. Every command printed here can be pasted
 * as it is: ids and paths are quoted for a POSIX shell (src/shell.ts).
 */
import type { BatchResult, NextStep, PlannedAction } from '../booking/batch/results.js';
import { shellCommand, type HintStyle } from '../shell.js';
import { aud } from '../schema/money.js';

/**
 * The `journal resolve` command line for `identity`, with `--journal` when the run kept an explicit
 * journal copy (so the copy is brought up to date too) and `answer` (`--order ORD-…` or
 * `--not-created`) placeholders as the user fills them in.
 */
export function resolveCommand(hints: HintStyle, identity: string, journal: string | undefined, answer: string[] = []): string {
  return shellCommand(hints, 'journal', 'resolve', identity, ...(journal === undefined ? [] : ['--journal', journal]), ...answer);
}

/**
 * What to fix before booking again a document whose shipments were created and whose combine the
 * service refused: the usual cause is consolidated mail under free pickup on an account without it.
 */
export const MAIL_FIX =
  "Fix the cause first (when the service requires a main shipment, the account has no free-pickup option: unset SHIPBOOK_MAIL_FREE_PICKUP or the profile's mail.free-pickup, " +
  "and give the main shipment's file as SHIPBOOK_MAIL_MAIN_SHIPMENT or the profile's mail.main-shipment, e.g. fixtures/shipments/main-to-hub.yaml)";

/** A create whose answer never came, as its hint needs it. */
interface UnknownCreate {
  /** The document's identity in the ledger. */
  identity: string;
  /** Its shipments' transient ids, as the create sent them. */
  references: readonly string[];
  /** The day the create was sent, YYYY-MM-DD (for finding an order without a reference). */
  day?: string;
  /** The run's explicit journal copy, if any (the resolve commands then keep it up to date). */
  journal?: string;
  /** The command that sends it again regardless (`shipbook book order.yaml --again`), if there is one. */
  again?: string;
  /** What sending it again would do: `book` (the default) or `create`. */
  verb?: 'book' | 'create';
}

/**
 * The hint of a create whose answer never came, one step a line, the safe path first: how to find
 * out whether the order exists (a sandbox's own list of orders by reference; a real service has
 * none), the `journal resolve` that records either answer, and last, with its risk, `--again`.
 */
export function unknownCreateHint(u: UnknownCreate, hints: HintStyle): string {
  const find =
    u.references.length > 0
      ? shellCommand(hints, 'order', 'list', '--from-service', '--reference', u.references[0]!)
      : shellCommand(hints, 'order', 'list', '--from-service', ...(u.day !== undefined ? ['--day', u.day] : []));
  const lines = [
    `Do not ${u.verb ?? 'book'} it again yet: the order may exist. Find out whether it does:`,
    `  ${find}    (a shipbook sandbox; for a real service, look in its own records or ask its operator)`,
    'Then record what you found, and the next run continues from there:',
    `  ${resolveCommand(hints, u.identity, u.journal, ['--order'])} <order-id>    (it exists: the next run accepts it)`,
    `  ${resolveCommand(hints, u.identity, u.journal, ['--not-created'])}    (it does not: the next run creates it)`,
  ];
  if (u.again !== undefined) lines.push(`Only if a second order, paid twice, is acceptable: ${u.again}`);
  return lines.join('\n');
}

/**
 * The hint of an order that is not booked, in words, from its next step.
 * `rerun` is the command to run again (as the user typed it).
 */
export function nextStepHint(next: NextStep, o: { rerun: string; journal?: string; file: string }, hints: HintStyle): string {
  switch (next.action) {
    case 'rerun':
      return `Run the same command again to continue it (nothing is booked twice)${next.order_id ? `, or see it with "${shellCommand(hints, 'order', 'get', next.order_id)}"` : ''}: ${o.rerun}`;
    case 'fix_and_rerun':
      return `Nothing was created: fix the cause and run the same command again: ${o.rerun}`;
    case 'resolve':
      return (
        `Do not book it again yet: find out whether the order exists ("${shellCommand(hints, 'order', 'list', '--from-service')}" on a shipbook sandbox), ` +
        `then "${resolveCommand(hints, next.identity, o.journal, ['--order'])} <order-id>" or "${resolveCommand(hints, next.identity, o.journal, ['--not-created'])}"`
      );
    case 'combine':
      return `Combine them with "${shellCommand(hints, 'shipment', 'combine', ...next.shipment_ids, '--main', o.file)}", then "${resolveCommand(hints, next.identity, o.journal, ['--order'])} <parent order id>"`;
    case 'fix_mail':
      return (
        `Its shipments ${next.shipment_ids.join(', ')} stay uncombined (nothing is paid for them). ${MAIL_FIX}; ` +
        `then record that no order was made with "${resolveCommand(hints, next.identity, o.journal, ['--not-created'])}" ` +
        `and run the same command again (its shipments are created anew): ${o.rerun}`
      );
    case 'see':
      return `Its booking ended; see it with "${shellCommand(hints, 'order', 'get', next.order_id)}". To book the document again, book its file alone with --again.`;
    case 'raise_limit':
      if (next.rule !== undefined)
        return `Its exact total is ${aud(next.total)}, above the max_total of rule "${next.rule}": raise that rule's max_total to ${next.total} or more, then run the same command again: ${o.rerun}`;
      return `Its exact total is ${aud(next.total)}: run again with --max-total ${next.total} or more to book it.`;
    case 'link_or_again':
      return (
        `Nothing was sent for it. If that key is the same account as this one, link them and run again: ${shellCommand(hints, 'ledger', 'link', next.account)}; ` +
        `if they are two accounts: ${shellCommand(hints, 'ledger', 'separate', next.account)}; to book it anyway, book its file alone with --again.`
      );
    case 'raise_budget':
      return `Nothing was accepted for it${next.total ? ` (its exact total is ${aud(next.total)})` : ''}: run the same command again with a --budget that has room for it: ${o.rerun}`;
  }
}

/** What a dry run would do with one input, in a few words (`book`, `already booked as ORD-…` …). */
export function plannedWords(plan: PlannedAction | undefined): string {
  switch (plan?.action) {
    case undefined:
    case 'book':
      return 'book';
    case 'already_booked':
      return `already booked as ${plan.order_id}`;
    case 'continue':
      return plan.stage === 'accepted' ? `continue ${plan.order_id} (wait for its result)` : `continue ${plan.order_id} (accept it)`;
    case 'unknown':
      return 'unknown: resolve first';
    case 'combine':
      return `combine shipments ${plan.shipment_ids.join(', ')} first`;
    case 'ended':
      return `its booking ended (${plan.order_id}): nothing`;
    case 'over_limit':
      return `refused by --max-total before (${plan.order_id}): nothing unless the limit allows it`;
    case 'invalid':
      return 'invalid';
  }
}

/** One tab-separated line of a dry run: `file:line  identity  what this run would do`. */
export function plannedLine(r: BatchResult, hints: HintStyle): string {
  return [`${r.file}:${r.line}`, r.id, r.status === 'invalid' ? invalidWords(r, hints) : plannedWords(r.plan)].join('\t');
}

/**
 * Why an input is invalid, in a few words: its first error (`invalid: order.shipments: at least 1
 * shipment`) and how many more, with the command that lists them all.
 */
function invalidWords(r: BatchResult, hints: HintStyle): string {
  const errors = (r.issues ?? []).filter((i) => i.severity === 'error');
  const first = errors[0];
  if (first === undefined) return 'invalid';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more: ${shellCommand(hints, 'validate', r.file)})` : '';
  return `invalid: ${first.path === '' ? '' : `${first.path}: `}${first.message}${more}`;
}
