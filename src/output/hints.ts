/**
 * Hints that name a command to run next, rendered from data:
 * every id and path is quoted for a POSIX shell where the shell needs it, so every hint can be
 * pasted as it is printed. The "how far a booking got" hint is rendered from the flow's
 * {@link BookingProgress} record, never written as prose by the flow.
 */
import type { BookingProgress } from '../booking/progress.js';
import type { Hint, NextCommand } from '../errors.js';
import { shellArg, shellCommand, unsetVariablesCommand, type HintStyle } from '../shell.js';
import { MAIL_FIX, resolveCommand, unknownCreateHint } from './ledger.js';

/**
 * A command of a hint as the user pastes it: `shipbook`, the run's `--profile` (or the command's
 * own profile), then each argument quoted for the hints' shell; a placeholder is written `<name>`.
 */
function commandText(c: NextCommand, hints: HintStyle): string {
  const head = c.profile !== undefined ? `shipbook --profile ${shellArg(c.profile, hints.shell)}` : shellCommand(hints);
  return [head, ...c.argv.map((a) => (typeof a === 'string' ? shellArg(a, hints.shell) : `<${a.placeholder}>`))].join(' ');
}

/** A {@link Hint} in words (prose as it is, each command as {@link commandText} writes it); plain prose is returned as it is. */
export function hintText(hint: string | Hint, hints: HintStyle): string;
export function hintText(hint: string | Hint | undefined, hints: HintStyle): string | undefined;
export function hintText(hint: string | Hint | undefined, hints: HintStyle): string | undefined {
  if (hint === undefined || typeof hint === 'string') return hint;
  return hint
    .map((part) =>
      typeof part === 'string'
        ? part
        : 'arg' in part
          ? shellArg(part.arg, hints.shell)
          : 'unset' in part
            ? unsetVariablesCommand(part.unset, hints.shell)
            : commandText(part, hints),
    )
    .join('');
}

/**
 * The command that combines `ids`, for hints: `shipbook shipment combine SHP-A SHP-B --main <file>`.
 * `more` adds a placeholder for shipments still to be created; the booking file gives the main
 * shipment (a placeholder when it was read from standard input).
 */
export function combineHint(hints: HintStyle, ids: readonly string[], file: string, withMain: boolean, more = false): string {
  const main = !withMain ? '' : file === '-' ? ' --main <file with the main shipment>' : ` --main ${shellArg(file, hints.shell)}`;
  return `${shellCommand(hints, 'shipment', 'combine', ...ids)}${more ? ' <ids of the other shipments>' : ''}${main}`;
}

/**
 * What exists after a booking stopped part-way, and the command that continues it; `undefined`
 * when nothing was left behind (nothing created yet) or the order is already accepted (then the
 * wait's own error says how to see the result).
 */
export function progressHint(p: BookingProgress, hints: HintStyle, stepOutcomeUnknown = false): string | undefined {
  const ids = p.shipmentIds;
  const n = ids.length;
  if (p.stage === 'shipments_created' && n > 0) {
    const withMain = p.withMain === true;
    const file = p.file ?? '-';
    const were = n === 1 ? 'was' : 'were';
    if (p.shipmentCount !== undefined && n < p.shipmentCount) {
      return (
        `Shipment${n === 1 ? '' : 's'} ${ids.join(', ')} (${n} of ${p.shipmentCount}) ${were} created and ${n === 1 ? 'is' : 'are'} not combined yet (shipments[${n}] failed). ` +
        `Create the rest with "${shellCommand(hints, 'shipment', 'create')} <file>", then combine them all: ${combineHint(hints, ids, file, withMain, true)}`
      );
    }
    if (p.mailIdentity !== undefined) {
      return (
        `Shipment${n === 1 ? '' : 's'} ${ids.join(', ')} ${were} created but not combined (nothing is paid for ${n === 1 ? 'it' : 'them'}). ${MAIL_FIX}; ` +
        `then record that no order was made with "${resolveCommand(hints, p.mailIdentity, undefined, ['--not-created'])}" and run the same command again (its shipments are created anew).`
      );
    }
    return `Shipment${n === 1 ? '' : 's'} ${ids.join(', ')} ${were} created but not combined. After fixing the problem, combine them with: ${combineHint(hints, ids, file, withMain)}`;
  }
  if (p.stage === 'order_created' && p.orderId !== undefined) {
    const what = p.kind === 'consolidated' ? `Parent order ${p.orderId} (shipments ${ids.join(', ')})` : `Order ${p.orderId}`;
    if (stepOutcomeUnknown) {
      // The accept request went out and its answer never came (lost, timed out, interrupted): the
      // order may be accepted already, so accepting again is not the next step; looking is.
      return `${what} was created and the accept request was sent, but its outcome is unknown: the order may be accepted. Find out with "${shellCommand(hints, 'order', 'get', p.orderId)}" before accepting it again.`;
    }
    return `${what} was created and is still pending: accept it with "${shellCommand(hints, 'order', 'accept', p.orderId)}" or cancel it with "${shellCommand(hints, 'order', 'cancel', p.orderId)}".`;
  }
  return undefined;
}

/**
 * After an interruption between the accept and the wait: the order is known to be accepted; how
 * to see it, and (for a file) how to wait for its result without booking it twice.
 */
function acceptedHint(p: BookingProgress, hints: HintStyle): string {
  const again =
    p.kind !== 'pending' && p.file !== undefined && p.file !== '-' && p.file !== '(prompts)'
      ? `, or wait for its result with "${shellCommand(hints, 'book', p.file)}" (nothing is booked twice)`
      : '';
  return `Order ${p.orderId} is accepted and its booking runs at the service: see it with "${shellCommand(hints, 'order', 'get', p.orderId ?? '')}"${again}.`;
}

/**
 * The suggestion of a stopped booking: the progress hint first, then the step error's own suggestion.
 * `stepOutcomeUnknown`: the failed step's request was sent and its answer never came.
 * `betweenSteps`: an interruption stopped it between two steps (nothing was in flight).
 */
export function stoppedSuggestion(
  p: BookingProgress,
  ownHint: Hint | undefined,
  hints: HintStyle,
  stepOutcomeUnknown = false,
  betweenSteps = false,
): string | undefined {
  // A create whose answer never came: how to find out and settle it, not "create it again".
  const u = p.unknownCreate;
  if (u !== undefined) {
    const file = p.file !== undefined && p.file !== '-' && p.file !== '(prompts)' ? [p.file] : undefined;
    const again = file === undefined ? undefined : shellCommand(hints, ...u.command.split(' '), ...file, '--again');
    const steps = unknownCreateHint(
      {
        identity: u.identity,
        references: u.references,
        day: u.day,
        verb: u.command === 'order create' ? 'create' : 'book',
        ...(again !== undefined ? { again } : {}),
      },
      hints,
    );
    // An answer that named an order unlike the one asked for: the order to look at comes first.
    const own = hintText(ownHint, hints);
    return own ? `${own}\n${steps}` : steps;
  }
  const own = hintText(ownHint, hints);
  const hint = betweenSteps && p.stage === 'accepted' && p.orderId !== undefined ? acceptedHint(p, hints) : progressHint(p, hints, stepOutcomeUnknown);
  if (hint === undefined) return own;
  return own ? `${hint}\n${own}` : hint;
}

/**
 * The note after an interruption (Ctrl-C, SIGTERM) before the wait: what exists and the command
 * that continues it; `undefined` when nothing was created or the order is already accepted (the
 * wait prints `stillRunningNote` of src/next-steps.ts then).
 */
export function interruptedHint(p: BookingProgress, hints: HintStyle): string | undefined {
  const ids = p.shipmentIds;
  if (p.stage === 'shipments_created' && ids.length > 0) {
    const n = ids.length;
    const more = p.shipmentCount !== undefined && n < p.shipmentCount;
    return `Shipment${n === 1 ? '' : 's'} ${ids.join(', ')} ${n === 1 ? 'was' : 'were'} created and ${n === 1 ? 'is' : 'are'} not combined: combine ${more ? 'them with the rest' : 'them'} with ${combineHint(hints, ids, p.file ?? '-', p.withMain === true, more)}`;
  }
  return p.stage === 'order_created' ? progressHint(p, hints) : undefined;
}
