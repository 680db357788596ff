/**
 * Building the accept-order request from the payment flags, a payment file and the profile's
 * default payment (interface document, "Accept order"; layout as docs/assumptions.md decides). No flag
 * takes a card number or CVV, since flags show in the process list: card details come only from
 * `--payment-file`, in the accept request's wire form (`request` wrapper optional).
 */
import type { Readable } from 'node:stream';
import { UsageError, ValidationError, cmd, type InputIssue } from '../errors.js';
import { loadDocument } from '../input/load.js';
import type { LoadedDocument } from '../input/loaded.js';
import { schemaProblems } from '../schema/issues.js';
import { acceptRequest, PAYMENT_TYPES, type AcceptRequest, type PaymentType } from '../schema/payment.js';
import type { DefaultPayment } from '../config/profile.js';
import { registerSecret } from '../api/redact.js';
import { isObject } from '../schema/object.js';
import { PAYMENT_SHORTHAND } from '../input/shorthand.js';

/**
 * The order id that stands for an order not created yet, when book checks its payment before
 * anything is sent: a payment file that names an order.id of its own is refused against it.
 */
export const NEW_ORDER = 'ORD-CHECK';

/** Payment flags shared by `order accept` and `book`. */
export interface PaymentFlags {
  /** `--payment credit|stored_card|credit_card`. */
  payment?: string;
  /** `--card <stored-card-id>` for `stored_card`. */
  card?: string;
  /** `--payment-file <file>`: the accept request in wire form, with card details for `credit_card`. */
  paymentFile?: string;
  /** `--callback <url>`: sent as `request.callback`. */
  callback?: string;
  /** `--send-documents`: `request.options.send_documents`. */
  sendDocuments?: boolean;
  /** `--account-number <n>`: `request.options.account_number`. */
  accountNumber?: string;
}

/**
 * Builds and validates the accept request for `orderId`.
 * Precedence: `--payment`/`--card` over the payment file over the profile's default payment.
 * @throws UsageError (exit 2) for inconsistent flags; ValidationError (exit 2) for a bad payment file.
 */
export async function buildAcceptRequest(
  orderId: string,
  flags: PaymentFlags,
  defaults: DefaultPayment,
  options: { now?: () => Date; stdin?: Readable } = {},
): Promise<AcceptRequest> {
  if (flags.payment !== undefined && !(PAYMENT_TYPES as readonly string[]).includes(flags.payment)) {
    throw new UsageError(`--payment must be one of ${PAYMENT_TYPES.join(', ')} (got "${flags.payment}")`);
  }
  let doc: LoadedDocument | undefined;
  let body: Record<string, unknown> = {};
  if (flags.paymentFile) {
    doc = await loadDocument(flags.paymentFile, options.stdin);
    body = structuredClone(doc.data as Record<string, unknown>);
    // A file holding just `payment:` (and `options:`) at the top is the short form of `order.payment`.
    if (PAYMENT_SHORTHAND.matches(body)) body = PAYMENT_SHORTHAND.expand(body);
  }
  const order = isObject(body.order) ? body.order : (body.order = {});
  order.id ??= orderId;
  if (String(order.id) !== orderId) {
    // The service refuses an accept body whose order.id is not the order in its path (docs/assumptions.md).
    if (orderId === NEW_ORDER) {
      throw new UsageError(`${flags.paymentFile}: order.id is ${String(order.id)}, but book creates a new order whose id is not known yet; nothing was sent`, {
        suggestion: 'Remove order.id from the payment file: it is only for order accept of that order.',
      });
    }
    throw new UsageError(`${flags.paymentFile}: order.id is ${String(order.id)} but the order being accepted is ${orderId}; nothing was sent`, {
      suggestion: 'Remove order.id from the payment file, or accept the order it names.',
    });
  }
  const fromFile = isObject(order.payment) ? (order.payment as Record<string, unknown>) : undefined;
  // Flags and a file that disagree are a usage error: nothing of either is dropped silently.
  if (fromFile?.type !== undefined && flags.payment !== undefined && fromFile.type !== flags.payment) {
    throw new UsageError(`--payment ${flags.payment} and ${flags.paymentFile} (payment type ${String(fromFile.type)}) disagree`, {
      suggestion: 'Give the payment once: either the flags or the file.',
    });
  }
  if (flags.card !== undefined && fromFile?.credit_card !== undefined && fromFile.credit_card !== flags.card) {
    throw new UsageError(`--card and the card in ${flags.paymentFile} disagree`, { suggestion: 'Give the card once: either --card or the file.' });
  }
  const type: PaymentType = (flags.payment as PaymentType | undefined) ?? (fromFile?.type as PaymentType | undefined) ?? defaults.type;
  if (type === 'credit_card' && !fromFile?.credit_card) {
    throw new UsageError('--payment credit_card needs the card details in --payment-file <file> (never as flags)', {
      suggestion: 'See fixtures/payments/credit-card.yaml for the form of the file.',
    });
  }
  if (flags.card !== undefined && type !== 'stored_card') throw new UsageError('--card goes with --payment stored_card');
  if (type === 'stored_card') {
    const card = flags.card ?? (fromFile?.type === 'stored_card' ? fromFile.credit_card : undefined) ?? (flags.payment ? undefined : defaults.storedCard);
    if (card === undefined) {
      throw new UsageError('--payment stored_card needs --card <stored-card-id>', {
        suggestion: ['List the stored cards and their ids with: ', cmd('card', 'list')],
      });
    }
    order.payment = { type, credit_card: card };
  } else if (type === 'credit') {
    order.payment = { type };
  } else {
    order.payment = { ...fromFile, type };
  }
  if (flags.callback !== undefined) body.callback = flags.callback;
  if (flags.sendDocuments !== undefined || flags.accountNumber !== undefined) {
    const opts = isObject(body.options) ? body.options : (body.options = {});
    if (flags.sendDocuments !== undefined) opts.send_documents = flags.sendDocuments;
    if (flags.accountNumber !== undefined) opts.account_number = flags.accountNumber;
  }
  // Card details read from the file are secrets of this run: masked by value wherever they would
  // be printed, e.g. in a service error that echoes the request.
  const card = (order.payment as { credit_card?: unknown } | undefined)?.credit_card;
  if (isObject(card)) {
    registerSecret(card.number as string | number | undefined);
    registerSecret(card.cvv as string | number | undefined);
  }
  const parsed = acceptRequest(options.now).safeParse(body);
  if (parsed.success) return parsed.data;
  const issues: InputIssue[] = schemaProblems(parsed.error).map((p) => {
    const inFile = doc !== undefined && (p.segments[0] !== 'callback' || flags.callback === undefined);
    return {
      ...(inFile ? { file: doc!.file, ...doc!.locate(p.segments) } : {}),
      path: p.path,
      message: p.message,
      severity: 'error' as const,
    };
  });
  throw new ValidationError(issues, `the payment is not valid; nothing was sent`);
}
