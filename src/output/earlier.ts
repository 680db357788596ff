/**
 * What an earlier booking of the same document means, in words: the notes `book` and `order
 * create` print about it and the errors they end with, from the decision of
 * src/booking/earlier.ts.
 */
import type { EarlierBooking } from '../booking/earlier.js';
import { cmd, LimitRefusedError, ShipbookError } from '../errors.js';
import type { IOStreams } from '../io.js';
import { aud, formatCents } from '../schema/money.js';
import type { HintStyle } from '../shell.js';
import { hintText } from './hints.js';
import { MAIL_FIX, unknownCreateHint } from './ledger.js';
import { paint } from './style.js';

/** Who made it: ` (by another run just now: pid 4242, shipbook book a.yaml)` (`book`), ` by another run just now (pid …)` (`order create`), or ` (a.yaml)`. */
function when(e: EarlierBooking): string {
  if (e.by !== undefined)
    return e.command === 'book'
      ? ` (by another run just now: pid ${e.by.pid}, ${e.by.command})`
      : ` by another run just now (pid ${e.by.pid}, ${e.by.command})`;
  return e.file === undefined ? '' : ` (${e.file})`;
}

/** What `book` says of the earlier booking before it asks, refuses or shows it: `this document was booked before (a.yaml): order ORD-1, processed, tracking …`. */
export function earlierAbout(e: EarlierBooking): string {
  const w = when(e);
  switch (e.earlier) {
    case 'unknown':
      return `a ${e.unknownStep ?? 'create'} request for this document was sent by an earlier run${w} and its answer never came: the order may exist`;
    case 'combine':
      if (e.error !== undefined)
        return `an earlier run${w} created shipments ${e.shipmentIds.join(', ')} for this document and the service then refused to go on (no order was made): ${e.error.message}`;
      return `an earlier run${w} created shipments ${e.shipmentIds.join(', ')} for this document and did not combine them`;
    case 'already_booked':
      return `this document was booked before${w}: order ${e.orderId}, processed${e.trackingNumbers.length ? `, tracking ${e.trackingNumbers.join(', ')}` : ''}`;
    case 'over_limit':
      return `order ${e.orderId} of this document${w} cost ${formatCents(e.totalCents ?? 0)} AUD and was refused by --max-total ${e.limit ?? '?'} (cancelled); this run's --max-total ${formatCents(e.maxTotalCents ?? 0)} is still below it`;
    default:
      return `the last booking of this document${w}, order ${e.orderId}, ended failed${e.error ? `: ${e.error.message}` : ''}`;
  }
}

/**
 * The note on stderr of an earlier booking this run goes on from (`resume`) or shows as its result
 * (`already_booked`, `already_created`, with `stage`, the order's stage to name); undefined for
 * the other actions.
 */
export function earlierNote(io: Pick<IOStreams, 'color'>, e: EarlierBooking, hints: HintStyle, stage?: string): string | undefined {
  const again = hintText([e.next.again], hints);
  if (e.action === 'resume')
    return `${paint(io, 'cyan', 'note:')} this document was booked before${when(e)} and became order ${e.orderId}, ${e.earlier === 'wait' ? 'accepted' : 'not accepted'}: continuing that order, not creating another\n`;
  if (e.action === 'already_booked') return `${paint(io, 'yellow', 'note:')} ${earlierAbout(e)}; nothing was sent. To book it a second time: ${again}\n`;
  if (e.action === 'already_created')
    return `${paint(io, 'yellow', 'note:')} this document was created before${when(e)}: order ${e.orderId}, ${stage}; nothing was sent. To create another: ${again}\n`;
  return undefined;
}

/**
 * The error of a document whose shipments were created and whose booking the service then refused
 * (a combine refused, e.g. consolidated mail under `mail.free-pickup` on an account without the
 * option), with the exit code recorded then: the shipments stay uncombined, unpaid; fix the cause,
 * record that no order was made (`journal resolve … --not-created`), and run the same command again.
 */
function refusedAfterShipments(e: EarlierBooking, identity: string): ShipbookError {
  const message = `not ${e.command === 'book' ? 'booked' : 'created'} again: ${earlierAbout(e)}`;
  return new ShipbookError('previous_booking_failed', message, e.kind ?? 'booking_failed', {
    suggestion: [
      `Shipments ${e.shipmentIds.join(', ')} stay uncombined (nothing is paid for them). ${MAIL_FIX}; then record that no order was made with "`,
      cmd('journal', 'resolve', identity, '--not-created'),
      '" and run the same command again: its shipments are created anew.',
    ],
  });
}

/**
 * The error a refused earlier booking ends with (`unknown`, `over_limit`, `ended`, `claim_lost`),
 * with its next steps; `ledger` names the ledger and the document's identity. Undefined for the
 * other actions.
 */
export function earlierRefusal(e: EarlierBooking, ledger: { identity: string; label: string; location: string }, hints: HintStyle): ShipbookError | undefined {
  const book = e.command === 'book';
  const ledgerNote = `The ledger of ${ledger.label}: ${ledger.location} (identity ${ledger.identity}).`;
  switch (e.action) {
    case 'claim_lost':
      return new ShipbookError('claim_lost', 'another run took this document in hand meanwhile; nothing was sent', 'lock_lost');
    case 'unknown': {
      const message = book
        ? `not booked: ${earlierAbout(e)}`
        : `not created: a create request for this document was sent${when(e)} and its answer never came: the order may exist`;
      const steps = unknownCreateHint(
        { identity: ledger.identity, references: e.references, again: hintText([e.next.again], hints), ...(book ? {} : { verb: 'create' }) },
        hints,
      );
      return new ShipbookError('booking_unknown', message, 'network', { suggestion: `${steps}\n${ledgerNote}` });
    }
    case 'over_limit': {
      const total = e.totalCents ?? 0;
      const message = book
        ? `not booked: ${earlierAbout(e)}; nothing was sent`
        : `not created: order ${e.orderId} of this document cost ${aud(total)} and was refused by --max-total (cancelled); nothing was sent`;
      return new LimitRefusedError(e.orderId, total, e.maxTotalCents ?? 0, message, {
        suggestion: `Run it again with --max-total ${formatCents(total)} or more to ${book ? 'book' : 'create'} it.`,
      });
    }
    case 'ended': {
      if (e.earlier === 'combine') return refusedAfterShipments(e, ledger.identity);
      const message = book
        ? `not booked again: ${earlierAbout(e)}`
        : `not created again: this document became order ${e.orderId}${when(e)}, whose booking ended failed`;
      const see = e.next.see ?? e.next.again;
      return new ShipbookError('previous_booking_failed', message, e.kind ?? 'booking_failed', {
        suggestion: ['See it with "', see, `"; ${book ? 'book' : 'create'} the document again with "`, e.next.again, '".'],
      });
    }
    default:
      return undefined;
  }
}
