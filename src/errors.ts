/**
 * Typed errors of shipbook. Every failure a user can meet is one of these classes, of one
 * {@link ErrorKind}; one switch, {@link exitCodeOf}, turns a kind into its exit code (see
 * {@link EXIT}), and `src/main.ts` exits with it. Nothing else decides an exit code: a flow or a
 * command says what kind of outcome it had (data), never which number.
 *
 * Each error has a stable string `code` (for `--json` and for tests) and an optional
 * `suggestion`: the next thing the user can do.
 */

/**
 * Exit codes, documented in docs/exit-codes.md. Only {@link exitCodeOf} picks one, and only
 * `src/main.ts` exits.
 */
export const EXIT = {
  /** Everything worked. */
  OK: 0,
  /** An unexpected internal error (a bug in shipbook). */
  INTERNAL: 1,
  /** Usage error or invalid input: nothing was sent to the service. */
  INPUT: 2,
  /** The service answered with an error envelope (400, 404, 409, 5xx …). */
  API: 3,
  /** Missing or refused credentials (401/403), or a refused base URL. */
  AUTH: 4,
  /** The service could not be reached, timed out, or answered something that is not the envelope. */
  NETWORK: 5,
  /** The booking result reports a failure (an error callback or a non-processed status). */
  BOOKING_FAILED: 6,
  /**
   * Done, results pending: the order is accepted (paid) and its booking result was not read yet
   * (the wait timed out, or the service would not show it); for a batch, every order is booked or
   * accepted. Reading the result later never books again.
   */
  WAIT_TIMEOUT: 7,
  /** A batch finished with some orders failed or unknown; the report names each (docs/batch.md). */
  BATCH_INCOMPLETE: 8,
  /** A limit the user set refused the booking (`--max-total`, `--budget`); the pending order was cancelled. */
  LIMIT_REFUSED: 9,
  /**
   * A file shipbook must write could not be written (no space left, disk quota, I/O error,
   * read-only): the message names the file and what was not recorded; nothing that depended on it
   * was sent.
   */
  STORAGE: 10,
  /** A batch's journal lock was removed or taken by another process while it ran: it sent nothing new and stopped. */
  LOCK_LOST: 11,
  /**
   * The service's callback reported that the booking failed, but fetch-order-data does not show
   * the order failed (still accepted, a status shipbook does not know, or unreadable): not booked
   * as far as shipbook can tell, and not known to have failed either.
   */
  BOOKING_ERROR_REPORTED: 12,
  /** Interrupted by the user (Ctrl-C, SIGINT): 128 + 2. */
  INTERRUPTED: 130,
  /** Terminated (SIGTERM: `timeout`, a cancelled CI job): 128 + 15. */
  TERMINATED: 143,
  /**
   * Standard output was closed by its reader (`shipbook book orders/ | head -1`) while a batch had
   * orders left: 128 + SIGPIPE, as a shell reports a process that a closed pipe ended.
   */
  STDOUT_CLOSED: 141,
} as const;

/** One of the exit codes of {@link EXIT}. */
type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * What kind of outcome an error (or a whole run: a batch, a doctor run) is: the one thing its exit
 * code is decided from, by {@link exitCodeOf}. `ok` is an outcome that is no failure (a dry run, a
 * stop the person chose); `pending` is "done, results pending" (accepted, result not read yet).
 */
export type ErrorKind =
  | 'ok'
  | 'internal'
  | 'input'
  | 'api'
  | 'auth'
  | 'network'
  | 'booking_failed'
  | 'pending'
  | 'incomplete'
  | 'limit_refused'
  | 'storage'
  | 'lock_lost'
  | 'booking_error_reported'
  | 'interrupted'
  | 'terminated'
  | 'stdout_closed';

/** The exit code of an outcome of kind `kind` (docs/exit-codes.md): the one place that decides it. */
export function exitCodeOf(kind: ErrorKind): ExitCode {
  switch (kind) {
    case 'ok':
      return EXIT.OK;
    case 'internal':
      return EXIT.INTERNAL;
    case 'input':
      return EXIT.INPUT;
    case 'api':
      return EXIT.API;
    case 'auth':
      return EXIT.AUTH;
    case 'network':
      return EXIT.NETWORK;
    case 'booking_failed':
      return EXIT.BOOKING_FAILED;
    case 'pending':
      return EXIT.WAIT_TIMEOUT;
    case 'incomplete':
      return EXIT.BATCH_INCOMPLETE;
    case 'limit_refused':
      return EXIT.LIMIT_REFUSED;
    case 'storage':
      return EXIT.STORAGE;
    case 'lock_lost':
      return EXIT.LOCK_LOST;
    case 'booking_error_reported':
      return EXIT.BOOKING_ERROR_REPORTED;
    case 'interrupted':
      return EXIT.INTERRUPTED;
    case 'terminated':
      return EXIT.TERMINATED;
    case 'stdout_closed':
      return EXIT.STDOUT_CLOSED;
  }
}

/** Every kind, in the order of their exit codes. */
const ERROR_KINDS: readonly ErrorKind[] = [
  'ok',
  'internal',
  'input',
  'api',
  'auth',
  'network',
  'booking_failed',
  'pending',
  'incomplete',
  'limit_refused',
  'storage',
  'lock_lost',
  'booking_error_reported',
  'interrupted',
  'stdout_closed',
  'terminated',
];

/**
 * The kind whose exit code is `code` (an exit code recorded earlier, in a journal): the inverse of
 * {@link exitCodeOf}; `internal` for a code shipbook does not use.
 */
export function kindOfExitCode(code: number): ErrorKind {
  return ERROR_KINDS.find((k) => exitCodeOf(k) === code) ?? 'internal';
}

/**
 * A command a hint names, as data: the arguments after `shipbook`, with `<placeholder>`s the user
 * replaces (written as they are, never quoted). src/output/hints.ts words it through shellCommand,
 * with the run's `--profile` unless `profile` names the profile the command is for.
 */
export interface NextCommand {
  readonly argv: readonly (string | { readonly placeholder: string })[];
  /** The profile this command is for, over the run's `--profile` (a hint that creates a profile). */
  readonly profile?: string;
}

/**
 * What the user can do next, as data: prose and the commands it names, in order, e.g.
 * `['Log in with: ', cmd('auth', 'login'), ', or set SHIPBOOK_API_KEY.']`. Only src/output/ turns
 * it into text (hintText in src/output/hints.ts); a flow never writes a `shipbook …` command.
 */
export type Hint = readonly (string | NextCommand | ShellWord)[];

/**
 * A part of a {@link Hint} that is shell, not shipbook: an argument of another program quoted for
 * the user's shell (`{ arg: 'my dir' }`: `'my dir'` in a POSIX shell), or the command that unsets
 * environment variables in that shell (`{ unset: ['A'] }`: `unset A`, `Remove-Item Env:A`).
 */
type ShellWord = { readonly arg: string } | { readonly unset: readonly string[] };

/** The command `shipbook <argv…>` of a {@link Hint}: `cmd('order', 'get', id)`; a placeholder is given with {@link placeholder}. */
export function cmd(...argv: (string | { readonly placeholder: string })[]): NextCommand {
  return { argv };
}

/** An argument of another program in a {@link Hint}, quoted for the user's shell when printed: `['see "df -h ', shellWord(path), '"']`. */
export function shellWord(arg: string): ShellWord {
  return { arg };
}

/** A placeholder argument of a {@link NextCommand}: `placeholder('file')` is printed `<file>`. */
export function placeholder(name: string): { readonly placeholder: string } {
  return { placeholder: name };
}

/** Options shared by every shipbook error. */
interface ShipbookErrorOptions {
  /** What the user can do next, shown under the message: prose, or a {@link Hint} naming commands. */
  suggestion?: string | Hint;
  /** The underlying error, shown only with `--debug`. */
  cause?: unknown;
  /**
   * The command already printed what went wrong as its output (e.g. `validate --json` printed its
   * report): main then only sets the exit code and says it on stderr, without a JSON error on stdout.
   */
  reported?: boolean;
}

/** Base class: a message for people, a stable `code`, a {@link ErrorKind} and a suggestion. */
export class ShipbookError extends Error {
  readonly code: string;
  readonly kind: ErrorKind;
  /** What the user can do next, as data (src/output/hints.ts words it). */
  readonly suggestion?: Hint;
  readonly reported: boolean;

  constructor(code: string, message: string, kind: ErrorKind, options: ShipbookErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.kind = kind;
    this.suggestion = typeof options.suggestion === 'string' ? [options.suggestion] : options.suggestion;
    this.reported = options.reported === true;
  }

  /** The exit code of this error's {@link kind} ({@link exitCodeOf}). */
  get exitCode(): ExitCode {
    return exitCodeOf(this.kind);
  }
}

/**
 * The code of a batch stopped because the ledger's claims lock stayed held by another run (a paused
 * or hung process) for the whole wait: its inputs are reported where they stand, exit 8.
 */
export const CLAIMS_LOCK_WAIT = 'claims_lock_wait';

/** Wrong usage: a missing argument, a malformed flag value. Exit code 2. */
export class UsageError extends ShipbookError {
  constructor(message: string, options: ShipbookErrorOptions = {}) {
    super('usage', message, 'input', options);
  }
}

/** One problem found in an input document, located as precisely as we can. */
export interface InputIssue {
  /** The file name as the user gave it (`-` for standard input), when there is a file. */
  file?: string;
  /** 1-based line and column in the file, when known. */
  line?: number;
  column?: number;
  /** The column's header in a spreadsheet (CSV) input, shown instead of the column number. */
  column_name?: string;
  /** Field path in dotted/bracket form, e.g. `shipments[0].delivery.address_lines[1]`; empty for the document. */
  path: string;
  /** What is wrong, e.g. `at most 35 characters (got 41)`. */
  message: string;
  /**
   * What to do about it, as data, said right after `message`: `['; see "', cmd('schema', 'csv'), '"']`.
   * Only src/output/ words it (wordIssues in src/output/issues.ts), with the run's hint style, into
   * `message`: a problem printed or written to a report never carries it.
   */
  next?: Hint;
  /** `error` blocks sending; `warning` is shown but allowed. */
  severity: 'error' | 'warning';
}

/** Input that failed validation; carries every issue found, not just the first. Exit code 2. */
export class ValidationError extends ShipbookError {
  readonly issues: InputIssue[];

  constructor(issues: InputIssue[], message?: string, options: ShipbookErrorOptions = {}) {
    const errors = issues.filter((i) => i.severity === 'error');
    super('invalid_input', message ?? `${errors.length} problem${errors.length === 1 ? '' : 's'} found; nothing was sent`, 'input', options);
    this.issues = issues;
  }
}

/** A field error from an error envelope's `result.errors` (docs/assumptions.md, "error codes and bodies"). */
interface ApiFieldError {
  field: string;
  message: string;
}

/**
 * The service answered with an error envelope (or a non-2xx status).
 * `status` is the HTTP status, `envelopeCode` the envelope's `code`, `fieldErrors` any `result.errors`.
 * 401/403 (status or envelope code) map to exit code 4 (code `unauthorized`), everything else to 3
 * (code `insufficient_storage` for a 507, else `api_error`).
 */
export class ApiError extends ShipbookError {
  readonly status: number;
  readonly envelopeCode: number | undefined;
  readonly fieldErrors: ApiFieldError[];
  readonly method: string;
  readonly url: string;
  /** A 429/503's `Retry-After` in ms, when the service sent one (used by the client's retries). */
  readonly retryAfterMs?: number;
  /**
   * How many attempts the call made, this answer's included (set by the API client when the call
   * ends): a 409 to the first attempt of an accept says the order was accepted before the call.
   */
  attempts = 1;

  constructor(args: {
    status: number;
    envelopeCode?: number;
    message: string;
    fieldErrors?: ApiFieldError[];
    method: string;
    url: string;
    suggestion?: string | Hint;
    /** A 429/503's `Retry-After`, in ms, when the service sent one. */
    retryAfterMs?: number;
  }) {
    const auth = args.status === 401 || args.status === 403 || args.envelopeCode === 401 || args.envelopeCode === 403;
    // 507: the service cannot store anything (its disk is full); a batch stops on it.
    super(auth ? 'unauthorized' : args.status === 507 ? 'insufficient_storage' : 'api_error', args.message, auth ? 'auth' : 'api', {
      suggestion: args.suggestion ?? (auth ? ['Check the API key: run "', cmd('auth', 'status'), '", or set SHIPBOOK_API_KEY.'] : undefined),
    });
    this.status = args.status;
    this.envelopeCode = args.envelopeCode;
    this.fieldErrors = args.fieldErrors ?? [];
    this.method = args.method;
    this.url = args.url;
    this.retryAfterMs = args.retryAfterMs;
  }
}

/**
 * Which call a transport failure belongs to, and whether its request reached the wire: the fields
 * a batch runner reads to decide "provably never reached → may retry a create" against "unknown".
 * See `src/api/endpoints.ts` for the table of endpoints.
 */
export interface RequestFate {
  /**
   * `false` only when the request provably never left this machine (connection refused, DNS,
   * TLS handshake, connect timeout, interrupted before the headers were written); `true` when it
   * was written, or when that cannot be told (so a create is never repeated on a guess).
   */
  sent: boolean;
  /** The endpoint called: its name in the endpoint table, method, path and whether it is safe to repeat. */
  endpoint: { name: string; method: string; path: string; safe: boolean };
}

/** Options of the transport errors: the shared ones plus the call's {@link RequestFate}. */
interface TransportErrorOptions extends ShipbookErrorOptions {
  fate?: RequestFate;
}

/**
 * Base of the errors of a call to the service that did not end in an answer the client could use:
 * the service could not be reached, did not answer in time, its answer was lost, too large or not
 * the envelope, or the call was interrupted. Each carries the {@link RequestFate} of its call, so
 * a caller tells "provably never reached the service" from "may have taken effect" with
 * `err instanceof ServiceCallError && !err.sent`. Not {@link ApiError}: a refusal is an answer.
 */
export abstract class ServiceCallError extends ShipbookError {
  /** See {@link RequestFate.sent}; `true` (unknown) when the error was built without a fate. */
  readonly sent: boolean;
  /** The endpoint called, when the API client built this error. */
  readonly endpoint?: RequestFate['endpoint'];
  protected constructor(code: string, message: string, kind: ErrorKind, options: TransportErrorOptions, sent = options.fate?.sent ?? true) {
    super(code, message, kind, options);
    this.sent = sent;
    // Only the four fields: a whole row of the endpoint table (schemas included) never reaches `--json`.
    const e = options.fate?.endpoint;
    if (e !== undefined) this.endpoint = { name: e.name, method: e.method, path: e.path, safe: e.safe };
  }
}

/**
 * The service could not be reached (refused, DNS, TLS): the request was not sent (`sent` false).
 * Never disguised as a server error. Exit 5. {@link AnswerLostError} is the subclass for an answer
 * lost after the request was sent.
 */
export class NetworkError extends ServiceCallError {
  constructor(message: string, options: TransportErrorOptions = {}, code = 'network_error') {
    super(code, message, 'network', options);
  }
}

/**
 * The request was sent but its answer was lost: the connection closed or was reset after the
 * request was written. For a mutating call its outcome is unknown (the order may exist). Exit 5.
 */
export class AnswerLostError extends NetworkError {
  constructor(message: string, options: TransportErrorOptions = {}) {
    super(message, options, 'answer_lost');
  }
}

/** The service did not answer in time (connect timeout, or the total deadline of a request). Exit 5. */
export class TimeoutError extends ServiceCallError {
  constructor(message: string, options: TransportErrorOptions = {}) {
    super('timeout', message, 'network', options);
  }
}

/**
 * The service's answer was larger than the client reads (`maxAnswerBytes`, 8 MiB by default);
 * reading stopped there. The request was sent and answered (`sent` is always true): for a
 * mutating call it may have taken effect. Exit 5.
 */
export class AnswerTooLargeError extends ServiceCallError {
  /** The cap that was exceeded, bytes. */
  readonly limitBytes: number;
  constructor(message: string, limitBytes: number, options: TransportErrorOptions = {}) {
    super('answer_too_large', message, 'network', options, true);
    this.limitBytes = limitBytes;
  }
}

/**
 * A request was interrupted through the client's AbortSignal (Ctrl-C, SIGTERM). `sent` says
 * whether it had been written; for a mutating call that was sent its outcome is unknown. Exit 130
 * (main may choose 143 for SIGTERM).
 */
export class RequestInterruptedError extends ServiceCallError {
  constructor(message: string, options: TransportErrorOptions = {}) {
    super('interrupted', message, 'interrupted', options);
  }
}

/**
 * The person chose to stop (at the guided booking's summary, "keep the answers for later and
 * stop"): not a failure. Nothing was sent; main says so with the hint to continue, and exits 0.
 */
export class StoppedByChoice extends ShipbookError {
  /** The file that keeps the answers, when it could be written. */
  readonly draft: string | undefined;
  constructor(message: string, options: { draft?: string | undefined; suggestion?: string | undefined } = {}) {
    super('stopped', message, 'ok', { reported: true, ...(options.suggestion === undefined ? {} : { suggestion: options.suggestion }) });
    this.draft = options.draft;
  }
}

/**
 * Thrown by a client in dry-run mode instead of sending: the request it would have sent, redacted,
 * has gone to the dry-run sink and is carried here too. Not a failure: exit 0 once the command has
 * printed what would be sent (`reported` is set so main prints no error body).
 */
export class DryRunHalt extends ShipbookError {
  /** The redacted request (see `PlannedRequest` in src/api/dry-run.ts). */
  readonly planned: unknown;
  constructor(message: string, planned: unknown) {
    super('dry_run', message, 'ok', { reported: true });
    this.planned = planned;
  }
}

/**
 * The service answered, but not with the `message`/`code`/`result` envelope, or its `result` does
 * not have the expected shape (e.g. a quote without `result.services`). Exit 5. When the API
 * client built it, `sent` is true and `endpoint` names the call (a mutating call may have taken
 * effect: its answer came but cannot be read).
 */
export class ProtocolError extends ServiceCallError {
  constructor(message: string, options: TransportErrorOptions = {}) {
    super('bad_response', message, 'network', options);
  }
}

/** Credentials or base URL are missing or not allowed (e.g. plain http:// to a remote host). Exit 4. */
export class ConfigError extends ShipbookError {
  constructor(message: string, options: ShipbookErrorOptions & { kind?: ErrorKind } = {}) {
    super('config_error', message, options.kind ?? 'auth', options);
  }
}

/** The booking result reported a failure. Exit 6. */
export class BookingFailedError extends ShipbookError {
  readonly orderId: string;
  constructor(orderId: string, message: string, options: ShipbookErrorOptions = {}) {
    super('booking_failed', message, 'booking_failed', options);
    this.orderId = orderId;
  }
}

/**
 * An error callback for this order (a `code` other than 2xx, or a status that says failed): the
 * service said the booking failed, while fetch-order-data shows the order in another state (`ACC`,
 * a status shipbook does not know such as `REJ`) or could not be read. Never "booked": a callback
 * alone never makes a success. Not "failed" either: the order may still be booked, so it is looked
 * at (`order get`) before being booked again. Exit 12.
 */
export class BookingErrorReportedError extends ShipbookError {
  readonly orderId: string;
  /** The callback's envelope `code` and `message` (interface document, "Events" and "Errors"). */
  readonly callbackCode: number;
  readonly callbackMessage: string;
  /** The order's status as fetch-order-data showed it (as sent, e.g. `ACC`), or undefined when it could not be read. */
  readonly orderStatus: string | undefined;
  constructor(
    args: { orderId: string; callbackCode: number; callbackMessage: string; orderStatus: string | undefined; message: string },
    options: ShipbookErrorOptions = {},
  ) {
    super('booking_error_reported', args.message, 'booking_error_reported', options);
    this.orderId = args.orderId;
    this.callbackCode = args.callbackCode;
    this.callbackMessage = args.callbackMessage;
    this.orderStatus = args.orderStatus;
  }
}

/**
 * While waiting by polling, fetch-order-data kept failing (a refusal, an answer that is not the
 * envelope or has the wrong shape, more than a few times in a row): the order is accepted, its
 * result unknown to shipbook. `lastState` is the order's last known state word (`accepted` when
 * no poll succeeded). Exit 7, as a wait that timed out: the order is accepted, its result pending.
 */
export class ResultUnreadableError extends ShipbookError {
  readonly orderId: string;
  readonly lastState: string;
  constructor(orderId: string, lastState: string, cause: ShipbookError, options: ShipbookErrorOptions = {}) {
    super('result_unreadable', `could not read the booking result of order ${orderId} (last seen ${lastState}): ${cause.message}`, 'pending', {
      ...options,
      cause,
    });
    this.orderId = orderId;
    this.lastState = lastState;
  }
}

/** Waiting for the booking result timed out; the order is accepted and the booking still running. Exit 7. */
export class WaitTimeoutError extends ShipbookError {
  readonly orderId: string;
  constructor(orderId: string, message: string, options: ShipbookErrorOptions = {}) {
    super('wait_timeout', message, 'pending', options);
    this.orderId = orderId;
  }
}

/**
 * A limit the user set refused the booking (src/booking/limits.ts): the order's exact price is above
 * `--max-total` (`limit` `max_total`, code `limit_refused`), or would pass the run's `--budget`
 * (`limit` `budget`, code `budget_refused`). The pending order has been cancelled (or the message
 * says why it could not be). Exit 9.
 */
export class LimitRefusedError extends ShipbookError {
  /** The refused order; undefined when the budget was used up before it was created. */
  readonly orderId: string | undefined;
  /** The order's exact total and the limit, in AUD cents (no total for an order never created). */
  readonly totalCents: number | undefined;
  readonly limitCents: number;
  /** Which limit refused it. */
  readonly limit: 'max_total' | 'budget';
  /** For the budget: what the run had spent when it refused the order, AUD cents. */
  readonly spentCents: number | undefined;
  /**
   * Where the order stands: `cancelled` (the refused order was cancelled, now or by an earlier
   * run), `order_created` when cancelling it failed and it is still pending, `not_created` when the
   * budget was used up before it was created.
   */
  readonly stage: 'cancelled' | 'order_created' | 'not_created';
  /** The order was left pending on purpose (an order the user named: `order accept`); nothing was sent for it. */
  readonly kept: boolean;
  /** The service-selection rule whose `max_total` refused it, when the cap was a rule's rather than `--max-total`. */
  readonly rule: string | undefined;
  constructor(
    orderId: string | undefined,
    totalCents: number | undefined,
    limitCents: number,
    message: string,
    options: ShipbookErrorOptions & {
      stage?: 'cancelled' | 'order_created' | 'not_created';
      limit?: 'max_total' | 'budget';
      spentCents?: number;
      kept?: boolean;
      rule?: string;
    } = {},
  ) {
    super(options.limit === 'budget' ? 'budget_refused' : 'limit_refused', message, 'limit_refused', options);
    this.orderId = orderId;
    this.totalCents = totalCents;
    this.limitCents = limitCents;
    this.limit = options.limit ?? 'max_total';
    this.spentCents = options.spentCents;
    this.stage = options.stage ?? 'cancelled';
    this.kept = options.kept ?? false;
    this.rule = options.rule;
  }
}
