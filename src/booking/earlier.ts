/**
 * What an earlier booking of the same document means for this run of `book` or `order create`:
 * one decision, as data, from the engine's resume table (engine.ts). The command does the talking
 * (a prompt, a note, the order printed); src/output/earlier.ts words it.
 */
import { cmd, kindOfExitCode, type ErrorKind, type NextCommand } from '../errors.js';
import type { Resume } from './engine.js';

/** The command that meets the earlier booking: `book` (create, accept, wait) or `order create`. */
type EarlierCommand = 'book' | 'order create';

/**
 * What this run does about the earlier booking:
 * - `book`: nothing stands in the way; book (or create) the document;
 * - `resume`: `book` continues the order created (or accepted) before instead of creating another;
 * - `already_booked`: processed before; that order, read again from the service, is the result (exit 0);
 * - `already_created`: `order create` prints the order created before as its result (exit 0);
 * - `unknown`: a create was sent and never answered, or shipments were left uncombined with no
 *   answer saying why: refused (exit 5);
 * - `over_limit`: refused by a `--max-total` this run still keeps: refused (exit 9);
 * - `ended`: its booking ended failed (an order that failed, or shipments created and then a
 *   refusal by the service, e.g. of their combine): refused, with the exit code recorded then;
 * - `claim_lost`: `order create` found the document taken in hand by another run meanwhile (exit 11).
 */
type EarlierAction = 'book' | 'resume' | 'already_booked' | 'already_created' | 'unknown' | 'over_limit' | 'ended' | 'claim_lost';

/** What an earlier booking means, as data (see {@link earlierBooking}). */
export interface EarlierBooking {
  readonly action: EarlierAction;
  /** The command that met it. */
  readonly command: EarlierCommand;
  /** What the ledger holds of it (the engine's resume action): `accept`, `wait`, `already_booked`, `unknown`, `combine`, `ended`, `over_limit`, `book`. */
  readonly earlier: Resume['action'];
  /** The order of the earlier booking, when one was created. */
  readonly orderId?: string;
  /** Who made it: another run that held it just now (its pid and command line), else the file recorded with it. */
  readonly by?: { readonly pid: number; readonly command: string };
  readonly file?: string;
  /**
   * On a terminal, ask first whether to book it again (a second order, paid again); a yes books it
   * anew under the document's next occurrence. Only `book` asks, never about a limit's refusal nor
   * about a document another run holds.
   */
  readonly ask: boolean;
  /** The kind of failure a refusal (`unknown`, `over_limit`, `ended`, `claim_lost`) ends with. */
  readonly kind?: ErrorKind;
  /** The request whose answer never came (`unknown`), e.g. `create`. */
  readonly unknownStep?: string;
  /** The shipments created and not combined (`combine`), or the parent's shipments. */
  readonly shipmentIds: readonly string[];
  /** The transient ids its create recorded (to find an order of an unanswered create by reference). */
  readonly references: readonly string[];
  readonly trackingNumbers: readonly string[];
  /** Over a limit: the order's exact total (cents) and the limit that refused it then (AUD, as recorded). */
  readonly totalCents?: number;
  readonly limit?: string;
  /** This run's `--max-total`, AUD cents, when it has one. */
  readonly maxTotalCents?: number;
  /** Why its booking ended (`ended`): the recorded error's message (for shipments created, the service's refusal after them). */
  readonly error?: { readonly message: string };
  /** The next steps, as commands: see the order, and the same command for the same file with `--again`. */
  readonly next: { readonly see?: NextCommand; readonly again: NextCommand };
}

/**
 * Decides what the ledger's record of the same document means for this run.
 * `options.canAsk`: this run may ask (both stdin and stdout are terminals).
 * `options.file`: the file this run was given (none: the prompts), for the `--again` command;
 * `options.byOther`: the run that held the document until just now; `options.maxTotalCents`:
 * this run's `--max-total` (cents). Pure: no ledger, no service, no terminal.
 */
export function earlierBooking(
  r: Resume,
  options: {
    command: EarlierCommand;
    file?: string | undefined;
    byOther?: { pid: number; command: string } | undefined;
    maxTotalCents?: number | undefined;
    canAsk: boolean;
  },
): EarlierBooking {
  const { command } = options;
  const again = cmd(...command.split(' '), ...(options.file === undefined ? [] : [options.file]), '--again');
  const by = options.byOther === undefined ? {} : { by: { pid: options.byOther.pid, command: options.byOther.command } };
  if (r.action === 'book') {
    const action = command === 'book' ? 'book' : 'claim_lost';
    return {
      action,
      command,
      earlier: 'book',
      ask: false,
      ...by,
      shipmentIds: [],
      references: [],
      trackingNumbers: [],
      next: { again },
      ...(action === 'claim_lost' ? { kind: 'lock_lost' as const } : {}),
    };
  }
  const s = r.state;
  const orderId = 'orderId' in r ? r.orderId : undefined;
  const base = {
    command,
    earlier: r.action,
    ...(orderId !== undefined ? { orderId } : {}),
    ...by,
    ...(s.file !== undefined ? { file: s.file } : {}),
    shipmentIds: s.shipmentIds,
    references: s.transientIds ?? [],
    trackingNumbers: s.trackingNumbers ?? [],
    ...(s.unknownStep !== undefined ? { unknownStep: s.unknownStep } : {}),
    ...(s.limit !== undefined ? { limit: s.limit } : {}),
    ...(s.error !== undefined ? { error: { message: s.error.message } } : {}),
    ...(options.maxTotalCents !== undefined ? { maxTotalCents: options.maxTotalCents } : {}),
    next: { again, ...(orderId !== undefined ? { see: cmd('order', 'get', orderId) } : {}) },
  };
  // `book` asks on a terminal before refusing or showing what stands, unless a limit refused it or another run holds it.
  const ask =
    command === 'book' && options.canAsk && options.byOther === undefined && r.action !== 'over_limit' && r.action !== 'accept' && r.action !== 'wait';
  switch (r.action) {
    case 'accept':
    case 'wait':
      return { ...base, action: command === 'book' ? 'resume' : 'already_created', ask: false };
    case 'already_booked':
      return { ...base, action: command === 'book' ? 'already_booked' : 'already_created', ask };
    case 'combine': {
      // Shipments created, then the service refused (a create, the combine): answered, so failed, not unknown.
      const code = s.error?.exit_code;
      if (s.error !== undefined) return { ...base, action: 'ended', ask, kind: code === undefined ? 'booking_failed' : kindOfExitCode(code) };
      return { ...base, action: 'unknown', ask, kind: 'network' };
    }
    case 'unknown':
      return { ...base, action: 'unknown', ask, kind: 'network' };
    case 'over_limit':
      return { ...base, action: 'over_limit', ask: false, kind: 'limit_refused', totalCents: r.totalCents };
    case 'ended': {
      const code = s.error?.exit_code;
      return { ...base, action: 'ended', ask, kind: code === undefined ? 'booking_failed' : kindOfExitCode(code) };
    }
  }
}

/**
 * The stage to name of an order created before, and whether it is still pending: the service's
 * status word when it was read (`orderStatusWord`; `unknown` or undefined when it was not), which
 * is the newer word since an `order accept` without --wait records no acceptance; else what the
 * ledger knows.
 */
export function createdStage(e: EarlierBooking, status: string | undefined): { stage: string; pending: boolean } {
  if (status !== undefined && status !== 'unknown') return { stage: status, pending: status === 'pending' };
  return {
    stage: e.earlier === 'accept' ? 'not accepted' : e.earlier === 'wait' ? 'accepted' : 'booked',
    pending: e.earlier === 'accept',
  };
}
