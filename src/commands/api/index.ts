/**
 * `shipbook api <METHOD> <path>`: one request typed by hand, sent through the same client as every
 * command (the profile and its key, the pacer, retries as the endpoint allows, redaction, `--debug`,
 * the target banner, `--dry-run`), as `gh api` does. The path is relative to the base URL, so the
 * operations the interface does not show (fetch-order-data, cancel-order, fetch-credit-card,
 * fetch-service-data, at the profile's paths) can be tried. The body comes from `--input` or from
 * fields (`./fields.ts`), wrapped in `request`. A create order or an accept goes through the
 * ledger first, as `order create` and `order accept` do, and is recorded under the operation
 * `api (by hand)`; every other change is recorded as a change typed by hand.
 */
import { hintText } from '../../output/hints.js';
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { ShipbookError, UsageError, cmd } from '../../errors.js';
import { endpointOfRequest } from '../../api/by-hand.js';
import type { AnswerEnvelope } from '../../api/answer.js';
import type { Method } from '../../api/endpoints.js';
import type { ApiClient } from '../../api/client.js';
import { readInput } from '../../input/read.js';
import { identityOf } from '../../ledger/index.js';
import type { CreateOrderRequest } from '../../schema/order.js';
import type { HintStyle } from '../../shell.js';
import {
  claimDocument,
  claimFreshOccurrence,
  createEntry,
  DEFAULT_WAIT_TIMEOUT_MS,
  changeIdentity,
  identityOfOrder,
  recordedRequest,
} from '../../booking/index.js';
import { claimRun, openLedgerFor } from '../common/record.js';
import { bodyOfFields, queryOfFields, type Field } from './fields.js';

/** The methods `api` sends. */
const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

/** The operation `history` shows for what `api` changed. */
const BY_HAND = 'api (by hand)';

/** Options of `api`. */
interface ApiOptions {
  method: Method;
  /** Relative to the base URL (a leading `/` is allowed), with a query if any. */
  path: string;
  /** `--input <file|->`: the body as JSON (with or without its `request` wrapper). */
  input?: string;
  /** `-f`/`-F` fields, in the order given. */
  fields: Field[];
  /** `--again`: a create order of a document created before, once more. */
  again?: boolean;
}

/**
 * The body of the request: `--input` (JSON; a lone `request` member is unwrapped, as the client
 * wraps it again) or the fields; for a GET the fields are the query.
 * @throws UsageError (exit 2) for both, for a body on a GET, or a file that is not JSON
 */
async function bodyOf(o: ApiOptions, ctx: Context): Promise<{ body?: unknown; query?: Record<string, string> }> {
  const readFile = async (name: string) => (await readInput(name, ctx.io.stdin)).toString('utf8');
  if (o.input !== undefined && o.fields.length > 0) throw new UsageError('--input and -f/-F both give the body', { suggestion: 'Give one of them.' });
  if (o.method === 'GET') {
    if (o.input !== undefined) throw new UsageError('a GET sends no body: give its parameters as -f key=value (query parameters)');
    return o.fields.length > 0 ? { query: await queryOfFields(o.fields, readFile) } : {};
  }
  if (o.input !== undefined) {
    const text = await readFile(o.input);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new UsageError(`${o.input === '-' ? 'standard input' : o.input}: not JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    const wrapped = typeof json === 'object' && json !== null && !Array.isArray(json) && Object.keys(json).length === 1 && 'request' in json;
    return { body: wrapped ? (json as { request: unknown }).request : json };
  }
  return { body: o.fields.length > 0 ? await bodyOfFields(o.fields, readFile) : {} };
}

/**
 * Sends the request and prints the service's envelope (`message`, `code`, `result`) as it came,
 * secrets redacted: JSON in every format, the run's `target` added in a machine format.
 * @throws UsageError (exit 2) for a method or path `api` does not send, or a repeat the ledger refuses;
 *   what the client throws (ApiError 3/4, transport errors 5, DryRunHalt for --dry-run)
 */
async function runApi(o: ApiOptions, ctx: Context): Promise<void> {
  if (/^[a-z][a-z0-9+.-]*:/i.test(o.path) || o.path.startsWith('//')) {
    throw new UsageError(`${o.path}: the path is relative to the base URL of the profile`, {
      suggestion: 'For example: shipbook api GET orders/ORD-1A2B3C4D/',
    });
  }
  const { body, query } = await bodyOf(o, ctx);
  const profile = await ctx.profile();
  const endpoint = endpointOfRequest(o.method, o.path, profile.paths);
  let envelope: AnswerEnvelope | undefined;
  const api = (await ctx.api()).withOptions({ onEnvelope: (e) => (envelope = e) });
  const args = { path: o.path.replace(/^\/+/, ''), method: o.method, ...(body !== undefined ? { body } : {}), ...(query ? { query } : {}) };
  const send = () => api.call(endpoint.name, args);
  if (ctx.globals.dryRun || ENDPOINT_SAFE.has(endpoint.name)) await send();
  else if (endpoint.name === 'createOrder') await createByHand(o, body, api, ctx);
  else if (endpoint.name === 'acceptOrder') await acceptByHand(o, endpoint.params.order_id ?? '', body, send, ctx);
  else {
    const ledger = await openLedgerFor(ctx, { op: BY_HAND, command: commandLine(o, ctx.settings.hints) });
    const orderId = endpoint.params.order_id;
    const cancel = endpoint.name === 'cancelOrder' && orderId !== undefined;
    await recordedRequest(
      ledger,
      { id: orderId !== undefined ? identityOfOrder(ledger, orderId) : changeIdentity() },
      cancel
        ? { step: 'cancel', orderId }
        : { step: 'change', what: STEPS[endpoint.name] ?? `${o.method} ${args.path}`, ...(orderId !== undefined ? { orderId } : {}) },
      send,
      () => (cancel ? { kind: 'cancelled', orderId } : { kind: 'changed', ...(orderId !== undefined ? { orderId } : {}) }),
    );
  }
  const answer = envelope ?? { message: '', code: 0, result: null };
  ctx.output.data(answer);
}

/** The endpoints `api` sends without the ledger: they change nothing. */
const ENDPOINT_SAFE = new Set(['quote', 'quoteSinglePackage', 'fetchOrder', 'fetchCreditCards', 'fetchServiceData', 'byHandRead', 'sandboxOrders']);

/** The step `history` shows for a change typed by hand, by endpoint. */
const STEPS: Record<string, string> = { cancelOrder: 'cancel', createShipment: 'create_shipment', combineShipments: 'combine' };

/** The command line as the ledger records it (fields and the input named, never their values). */
function commandLine(o: ApiOptions, hints: HintStyle): string {
  return hintText([cmd('api', o.method, o.path, ...(o.input !== undefined ? ['--input', o.input] : []), ...(o.again ? ['--again'] : []))], hints);
}

/**
 * A create order typed by hand, as `order create` creates one: the document (the body's `order`)
 * claimed in the ledger under the identity `order create` gives the same content, created and
 * recorded by the booking engine. A document created before is not sent again without `--again`.
 * @throws UsageError (exit 2) for a body without `order.shipments`; ShipbookError `already_created`
 *   (exit 2) for a document the ledger knows as created, `booking_unknown` (exit 5) for one whose
 *   create was sent and never answered
 */
async function createByHand(o: ApiOptions, body: unknown, api: ApiClient, ctx: Context): Promise<void> {
  const order = (body as { order?: { shipments?: unknown } } | undefined)?.order;
  if (typeof order !== 'object' || order === null || !Array.isArray(order.shipments) || !order.shipments.every((s) => typeof s === 'object' && s !== null)) {
    throw new UsageError('a create order sends order.shipments (a list of shipments): nothing was sent', {
      suggestion: 'For example: shipbook api POST orders/ --input order.json (the body of POST /orders/, with or without "request").',
    });
  }
  const ledger = await openLedgerFor(ctx, { op: BY_HAND, command: commandLine(o, ctx.settings.hints) });
  const identity = identityOf(ledger, { order }, { again: o.again === true });
  if (o.again) await claimFreshOccurrence(ledger, identity, claimRun(ctx));
  else {
    const claimed = await claimDocument(ledger, identity.id, { createOnly: true, timeoutMs: DEFAULT_WAIT_TIMEOUT_MS }, claimRun(ctx));
    if (claimed.kind !== 'go') {
      const r = claimed.resume;
      const again = `${commandLine(o, ctx.settings.hints)} --again`;
      if (r.action === 'unknown' || r.action === 'combine') {
        throw new ShipbookError(
          'booking_unknown',
          'not sent: a create of this order was sent before and its answer never came: the order may exist',
          'network',
          {
            suggestion: `Look for it with shipbook order list --from-service, then record what you found with shipbook journal resolve ${identity.id}.`,
          },
        );
      }
      const orderId = r.action === 'book' ? undefined : r.orderId;
      throw new ShipbookError(
        'already_created',
        `not sent: this order was created before${orderId ? ` (order ${orderId})` : ''}; a second create would make a second order`,
        'input',
        {
          suggestion: `${orderId ? `See it with ${hintText([cmd('order', 'get', orderId)], ctx.settings.hints)}. ` : ''}To create it once more anyway: ${again}`,
        },
      );
    }
  }
  await createEntry({ id: identity.id, order: { order } as unknown as CreateOrderRequest }, { api, ledger, paths: (await ctx.profile()).paths });
}

/**
 * An accept typed by hand, under the ledger as `order accept` sends one: the order claimed (a run
 * booking it right now is waited for), the intent on disk before it leaves, the acknowledgement
 * recorded. An order the ledger knows as accepted or processed is not accepted again: a second
 * accept could pay twice.
 * @throws ShipbookError `already_accepted` (exit 2) for such an order; what `send` throws
 */
async function acceptByHand(o: ApiOptions, orderId: string, body: unknown, send: () => Promise<unknown>, ctx: Context): Promise<void> {
  const ledger = await openLedgerFor(ctx, { op: BY_HAND, command: commandLine(o, ctx.settings.hints) });
  const id = identityOfOrder(ledger, orderId);
  await claimDocument(ledger, id, { again: true, timeoutMs: DEFAULT_WAIT_TIMEOUT_MS, what: `order ${orderId}` }, claimRun(ctx));
  const stage = ledger.get(id)?.stage;
  if (stage === 'accepted' || stage === 'processed') {
    throw new ShipbookError(
      'already_accepted',
      `not sent: order ${orderId} was accepted before (${stage}, as the ledger says); a second accept could pay twice`,
      'input',
      {
        suggestion: ['See it with ', cmd('order', 'get', orderId), '.'],
      },
    );
  }
  const payment = (body as { order?: { payment?: { type?: unknown } } } | undefined)?.order?.payment?.type;
  await recordedRequest(ledger, { id }, { step: 'accept', orderId, ...(typeof payment === 'string' ? { payment } : {}) }, send, () => ({
    kind: 'accepted',
    orderId,
  }));
}

/** The `api` command. */
export function apiCommand(ctx: Context): Command {
  // -f and -F kept in the order given: a later field of the same key wins.
  const fields: Field[] = [];
  const collect = (typed: boolean) => (text: string) => {
    fields.push({ text, typed });
    return text;
  };
  return new Command('api')
    .summary('send one request to the service by hand, through the profile and the ledger')
    .description(
      'Send one request to the booking service, as every command sends them: the profile and its key,\n' +
        'the pace, retries where safe, secrets redacted, --debug and --dry-run. The path is relative to\n' +
        "the profile's base URL (fetch-order-data, cancel-order, cards and service data at the profile's\n" +
        'paths can be tried too). The body is --input (JSON, "request" wrapper optional) or fields:\n' +
        '-f key=value (a string), -F key=value (true, false, null, a number, @file), nested with\n' +
        'brackets (order[shipments][0][description]=Books), wrapped in "request"; for a GET the\n' +
        'fields are query parameters. Prints the answer (message, code, result) as JSON; --jq picks\n' +
        'from it. A create order or an accept goes through the ledger first, as order create and\n' +
        'order accept do: a repeat is refused, and history shows it as "api (by hand)".',
    )
    .argument('<method>', `HTTP method: ${METHODS.join(', ')}`)
    .argument('<path>', 'path relative to the base URL, e.g. quote/ or orders/ORD-1A2B3C4D/')
    .option('--input <file>', 'the body: a JSON file ("-" for standard input), with or without its "request" wrapper')
    .option('-f, --raw-field <key=value>', 'a body field, as a string (repeatable)', collect(false))
    .option('-F, --field <key=value>', 'a body field, typed: true, false, null, a number, or @file for its text (repeatable)', collect(true))
    .option('--again', 'a create order of a document created before: send it once more (a second order)')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        "  shipbook api POST quote/ --input fixtures/api/quote.json --jq '.result.services[].code'\n" +
        '  shipbook api GET quote/ -f collection_country=AU -f collection_postcode=2000 -f collection_city=Sydney -f delivery_country=AU -f delivery_postcode=3000 -f delivery_city=Melbourne -F length=20 -F width=10 -F height=5 -F weight=1 -f unit=cm -f currency=AUD\n' +
        '  ORDER=$(shipbook api POST orders/ --input fixtures/api/order.json --jq .result.order.id)\n' +
        '  shipbook api PUT "orders/$ORDER/accept/" -f order[payment][type]=credit\n' +
        '  shipbook api GET "orders/$ORDER/" --jq .result.order.status\n' +
        '  shipbook api GET credit-cards/ --debug\n',
    )
    .action(async (method: string, path: string, flags: { input?: string; again?: boolean }) => {
      const upper = method.toUpperCase() as Method;
      if (!METHODS.includes(upper)) throw new UsageError(`${method}: the method is one of ${METHODS.join(', ')}`);
      await runApi({ method: upper, path, fields, ...(flags.input !== undefined ? { input: flags.input } : {}), ...(flags.again ? { again: true } : {}) }, ctx);
    });
}
