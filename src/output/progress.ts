/**
 * Booking progress as lines on stderr: turns the flows' {@link BookingEvent}s
 * into the step lines of `book` (`✔ accepted  order ORD-… accepted; …`), the wait's spinner, and
 * `warning:`/`note:` lines, which go above the spinner while it runs, for a single `book` and
 * `order accept --wait`. The flows never draw; a batch shows one line per order instead
 * (src/output/batch.ts).
 */
import { printable } from './printable.js';
import type { BookingEvent, BookingEventHandler, BookingProgress } from '../booking/progress.js';
import { interruptedHint } from './hints.js';
import { stillRunningNote } from '../next-steps.js';
import type { IOStreams } from '../io.js';
import type { HintStyle } from '../shell.js';
import { splitParent, withoutTrackingNumber } from '../schema/parent.js';
import { orderStatusWord } from '../schema/status.js';
import { orderState, shipmentState, stateShown } from './state.js';
import { startSpinner, type Spinner } from './spinner.js';
import { paint } from './style.js';
import { polledText, waitingText, waitNoticeLines } from './wait-notice.js';
import { aud } from '../schema/money.js';

type ErrIO = Pick<IOStreams, 'err' | 'color' | 'stderrIsTTY'>;

/** One step of a booking on stderr: `✔ accepted  order ORD-… accepted`. */
function stepLine(io: Pick<IOStreams, 'color'>, word: string, text: string): string {
  return `${paint(io, 'green', '✔')} ${paint(io, 'bold', word.padEnd(9))} ${text}\n`;
}

/** A progress printer: the event handler, and `close()` to stop a spinner still running. */
export interface ProgressPrinter {
  onEvent: BookingEventHandler;
  /** How far the booking got, as seen from its events. */
  readonly progress: BookingProgress;
  /** Every warning printed so far (e.g. a callback the service did not bear out), for `warnings` in a machine format. */
  readonly warnings: readonly string[];
  /**
   * The run was interrupted (Ctrl-C, SIGTERM) before the wait: prints what exists and the command
   * that continues it (nothing when nothing was created; a running wait prints its own note).
   */
  interrupted(): void;
  /**
   * The booking ended, by its result or by an error the command reports itself: notes of an
   * interruption printed later (when closing) would repeat what that report said, so none are.
   */
  settle(): void;
  /** Stops a spinner still running (its line erased on a terminal). Safe to call twice. */
  close(): void;
}

/**
 * Prints booking events on stderr for people. Step lines for created/combined/accepted/processed,
 * a spinner (a plain `… waiting` line without a terminal) from `waiting` to `wait_ended`, and
 * `warning:` / dim notes, above the spinner while it runs. Consolidated mail also gets, after
 * processing, the shipments still without a tracking number as warnings.
 */
export function progressPrinter(io: IOStreams | ErrIO, hints: HintStyle): ProgressPrinter {
  let spinner: Spinner | undefined;
  let settled = false;
  const say = (line: string) => (spinner ? spinner.note(line) : io.err(`${line}\n`));
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    say(`${paint(io, 'yellow', 'warning:')} ${printable(message, 'lines')}`);
  };
  // Ids and words from the service: shown, never obeyed (control characters as escapes).
  const step = (word: string, text: string) => io.err(stepLine(io, printable(word), printable(text)));
  let childIds: readonly string[] | undefined;
  const progress: BookingProgress = { kind: 'regular', stage: 'started', shipmentIds: [] };
  const track = (e: BookingEvent): void => {
    if (e.type === 'order_created') Object.assign(progress, { stage: 'order_created', orderId: e.order.id });
    else if (e.type === 'shipment_created') {
      progress.kind = 'consolidated';
      progress.stage = 'shipments_created';
      progress.shipmentCount = e.count;
      progress.shipmentIds.push(e.shipment.id);
    } else if (e.type === 'combined') Object.assign(progress, { kind: 'consolidated', stage: 'order_created', orderId: e.parent.id, parentId: e.parent.id });
    else if (e.type === 'accepted' || e.type === 'accepted_before') Object.assign(progress, { stage: 'accepted', orderId: e.order.id });
    else if (e.type === 'processed') progress.stage = 'processed';
  };
  const onEvent = (e: BookingEvent): void => {
    track(e);
    switch (e.type) {
      case 'order_created':
        return step(stateShown(orderState(e.order.status), e.order.status), `order ${e.order.id} created, ${e.order.shipments.length} shipment(s)`);
      case 'shipment_created': {
        const s = e.shipment;
        const to = [s.delivery?.city, s.delivery?.country].filter(Boolean).join(', ');
        const price = s.service?.price ? `, ${aud(s.service.price.total)}` : '';
        return step(stateShown(shipmentState(s.status), s.status), `shipment ${s.id} created (${e.index + 1}/${e.count})${to ? ` to ${to}` : ''}${price}`);
      }
      case 'combined': {
        childIds = e.childIds;
        const { main } = splitParent(e.parent, e.childIds);
        const n = e.childIds.length;
        step(
          stateShown(orderState(e.parent.status), e.parent.status),
          `parent order ${e.parent.id} combined: ${n} shipment(s)${main ? ` + main shipment ${main.id}` : ' (free pickup, no main shipment)'}`,
        );
        // The parent's prices get their second look in bookDocument (warnings at the end, said once).
        return;
      }
      case 'accepted':
        return step(orderStatusWord(e.order.status), `order ${e.order.id} accepted; booking runs asynchronously`);
      case 'accepted_before':
        return step(
          orderStatusWord(e.order.status),
          orderStatusWord(e.order.status) === 'processed'
            ? `order ${e.order.id} was already processed; nothing was accepted (nothing was paid now)`
            : `order ${e.order.id} was already accepted before this command; nothing was accepted (nothing was paid now)`,
        );
      case 'waiting':
        spinner?.stop();
        spinner = startSpinner(io as IOStreams, printable(waitingText(e)));
        return;
      case 'polled':
        return spinner?.update(printable(polledText(e)));
      case 'wait_ended':
        spinner?.stop();
        spinner = undefined;
        return;
      case 'callback_ignored':
        return warn(`ignored a callback for order ${e.otherOrderId} (waiting for ${e.orderId})`);
      case 'processed': {
        step(orderStatusWord(e.order.status), `order ${e.order.id} booked in ${(e.elapsedMs / 1000).toFixed(1)} s`);
        if (childIds !== undefined) {
          const untracked = withoutTrackingNumber(e.order);
          if (untracked.length > 0) warn(`no tracking number yet for ${untracked.join(', ')}`);
        }
        return;
      }
      case 'wait_notice':
        for (const { level, text } of waitNoticeLines(e.notice)) {
          if (level === 'warning') warn(text);
          else say(level === 'note' ? `${paint(io, 'yellow', 'note:')} ${printable(text, 'lines')}` : paint(io, 'dim', printable(text, 'lines')));
        }
        return;
      case 'stopping':
        return io.err(
          `${paint(io, 'yellow', 'note:')} no new request is sent; a request already sent is given its deadline to answer (Ctrl-C again stops at once)\n`,
        );
      case 'interrupted':
        if (settled) return; // the command's own error already said it
        return io.err(`${printable(stillRunningNote(e.orderId, hints), 'lines')}\n`);
    }
  };
  return {
    onEvent,
    progress,
    warnings,
    settle() {
      settled = true;
    },
    interrupted() {
      if (settled) return;
      const hint = interruptedHint(progress, hints);
      if (hint !== undefined) io.err(`${printable(hint, 'lines')}\n`);
    },
    close() {
      spinner?.stop();
      spinner = undefined;
    },
  };
}
