/**
 * Completing a document by prompts: a shipment (create order or create shipment form)
 * that lacks a part — the collection, the delivery, the pickup window, the packages, the customs,
 * the description or the service — gets only that part asked; what a file or a flag gives is
 * never asked again. Without prompts (no terminal, `CI`, `--no-input`) every missing part is
 * listed with the flag or file field that supplies it (exit 2), and the service may still be
 * chosen from a live quote by `--service cheapest|<code>`.
 */
import { ValidationError, cmd, type InputIssue } from '../errors.js';
import type { ShipmentFormKind } from '../schema/common.js';
import { formatPath } from '../schema/issues.js';
import { PLAIN_HINTS, type HintStyle } from '../shell.js';
import { hintText } from '../output/hints.js';
import type { QuoteRequest, QuoteServiceEntry } from '../schema/quote.js';
import { askAddress } from './address.js';
import type { PromptIO } from './ask.js';
import { askCollectionType, askPickup, askSender, type SavedSenders } from './collection.js';
import { askCustoms, askDescription, askReference } from './customs.js';
import { askPackages } from './packages.js';
import { askService, pickService, quoteRequestFor, type ServiceChoice } from './service.js';
import { isObject } from '../schema/object.js';

type Obj = Record<string, unknown>;

/** A part of a shipment that can be missing, in the order the wizard asks for them. */
export type ShipmentPart = 'collection' | 'delivery' | 'collection_type' | 'pickup' | 'packages' | 'customs_information' | 'description' | 'service';

/** One missing part: where it belongs in the file and what supplies it. */
export interface MissingPart {
  part: ShipmentPart;
  /** Path of the part in the document, e.g. `['order', 'shipments', 0, 'service', 'code']`. */
  path: PropertyKey[];
  /** What supplies it, e.g. `give --service cheapest|<code>, or service.code in the file …`. */
  supply: string;
}

/** What supplies each part (besides a terminal to be asked on), after `required: `. */
function supplyOf(part: ShipmentPart, hints: HintStyle): string {
  switch (part) {
    case 'collection':
      return `an address, or "@<name>" for a sender saved with "${hintText([cmd('config', 'sender', 'set')], hints)}"`;
    case 'delivery':
      return "the recipient's address";
    case 'collection_type':
      return 'pickup or dropoff';
    case 'pickup':
      return '{date, time_earliest, time_latest}, or collection_type: dropoff when leaving Australia';
    case 'packages':
      return 'at least one package {length, width, height, weight, unit}';
    case 'customs_information':
      return '{reason, tax_status, lithium, items}';
    case 'description':
      return 'a brief description of the goods';
    case 'service':
      return `give --service cheapest|<code>, or service.code in the file (codes from "${hintText([cmd('quote')], hints)}")`;
  }
}

/**
 * The parts a shipment (as a file holds it) lacks. A part is missing when absent (or an empty
 * list); a part that is present but wrong is for the schema to report. `at` is the shipment's
 * path in the document; `serviceGiven` is true when `--service` will choose the service; `hints` is how
 * the commands named in `supply` are written (a POSIX shell, no `--profile`, when not given).
 */
export function missingParts(shipment: Obj, at: ReadonlyArray<PropertyKey>, o: { serviceGiven?: boolean; hints?: HintStyle } = {}): MissingPart[] {
  const out: MissingPart[] = [];
  const add = (part: ShipmentPart, rel: PropertyKey[]) => {
    const path = [...at, ...rel];
    out.push({ part, path, supply: supplyOf(part, o.hints ?? PLAIN_HINTS) });
  };
  const dropoff = shipment.collection_type === 'dropoff';
  if (shipment.collection == null && !dropoff) add('collection', ['collection']);
  if (shipment.delivery == null) add('delivery', ['delivery']);
  if (shipment.collection_type == null) add('collection_type', ['collection_type']);
  if (!dropoff && (shipment.collection == null || (isObject(shipment.collection) && shipment.collection.pickup == null)))
    add('pickup', ['collection', 'pickup']);
  if (shipment.packages == null || (Array.isArray(shipment.packages) && shipment.packages.length === 0)) add('packages', ['packages']);
  if (shipment.customs_information == null) add('customs_information', ['customs_information']);
  if (shipment.description == null) add('description', ['description']);
  const service = shipment.service;
  if (!o.serviceGiven && (service == null || (isObject(service) && service.code == null))) add('service', ['service', 'code']);
  return out;
}

/** Where a file name and positions come from, to report missing parts at their place. */
interface MissingReportSource {
  file?: string;
  locate?(path: ReadonlyArray<PropertyKey>): { line: number; column: number } | undefined;
}

/**
 * The error for missing parts without a terminal: every part at its field path with what
 * supplies it (`required: …`), together with any other problem of the file (exit 2).
 */
export function missingInputError(
  parts: ReadonlyArray<MissingPart>,
  source: MissingReportSource = {},
  what = 'the document',
  others: ReadonlyArray<InputIssue> = [],
): ValidationError {
  const missing: InputIssue[] = parts.map((p) => {
    // The part is absent: point at the nearest thing that is there (the shipment).
    const parent = p.part === 'service' || p.part === 'pickup' ? p.path.slice(0, -2) : p.path.slice(0, -1);
    const position = source.file !== undefined && source.locate ? source.locate(parent) : undefined;
    return {
      ...(source.file !== undefined ? { file: source.file, ...position } : {}),
      path: formatPath(p.path),
      message: `required: ${p.supply}`,
      severity: 'error' as const,
    };
  });
  const issues = [...others, ...missing].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  const count = `${parts.length} part${parts.length === 1 ? '' : 's'}`;
  return new ValidationError(
    issues,
    `${what} is missing ${count}${others.length > 0 ? ` and has ${others.length} other problem${others.length === 1 ? '' : 's'}` : ''}, and there is no terminal to ask on; nothing was sent`,
    { suggestion: 'Supply each part as listed, or run on a terminal (without CI or --no-input) to be asked for them.' },
  );
}

/** What {@link completeShipment} uses. */
interface CompleteDeps {
  /** Prompts, or undefined when none are allowed (then missing parts are an error). */
  io?: PromptIO;
  /** The profile's saved senders, offered first for the collection. */
  senders: SavedSenders;
  /** Asks the service for prices (`POST /quote/`). */
  quote(request: QuoteRequest): Promise<QuoteServiceEntry[]>;
  /** `--service cheapest|<code>`: chooses the service without asking when the file has none. */
  service?: ServiceChoice;
  /**
   * Chooses the service from the quote without asking, before `service` (service-selection rules):
   * given every entry of the quote and the shipment as answered so far.
   * @throws what refuses the shipment (the rules leave it no service)
   */
  choose?: (services: QuoteServiceEntry[], shipment: Obj, where: string) => QuoteServiceEntry;
  /** Ask for the shipment's reference (`transient_id`) when it has none: a booking guided from scratch. */
  askReference?: boolean;
  /** The shipment as it was before a part was taken out to be changed: its answers are the defaults. */
  previous?: Obj;
}

/** What {@link completeShipment} did. */
interface Completed {
  /** Parts asked at the prompt (empty when the file and flags gave everything). */
  asked: ShipmentPart[];
  /** True when the reference was asked. */
  askedReference: boolean;
  /** The service chosen from a live quote, when one was. */
  chosen?: QuoteServiceEntry;
}

/**
 * A reference for a shipment, proposed at its question: `shipbook-20261125-k3f9` (the local date
 * and four random letters or digits; 22 characters, within the 35 of create order).
 */
function generatedReference(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const random = Array.from({ length: 4 }, () => '0123456789abcdefghjkmnpqrstuvwxyz'[Math.floor(Math.random() * 33)]).join('');
  return `shipbook-${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${random}`;
}

/**
 * Fills the missing parts of `shipment` in place, asking only for those (or choosing the
 * service by `--service`). Call {@link missingParts} first when there are no prompts: this
 * function asks for what is missing and cannot ask without `deps.io`. Each part is written into
 * `shipment` as soon as it is answered, so an interrupted run leaves every finished part in place.
 * @throws PromptInterruptedError (130) on Ctrl-C; UsageError (2) when no service fits
 */
export async function completeShipment(shipment: Obj, kind: ShipmentFormKind, deps: CompleteDeps, where = 'the shipment'): Promise<Completed> {
  const asked: ShipmentPart[] = [];
  const io = deps.io;
  const prev = deps.previous ?? {};
  const prevObj = (v: unknown): Obj | undefined => (isObject(v) ? v : undefined);
  // What is missing is read again before each part: answering the sender may bring a kept pickup.
  const need = (part: ShipmentPart): PromptIO | undefined => {
    if (!io || !missingParts(shipment, [], { serviceGiven: true }).some((p) => p.part === part)) return undefined;
    asked.push(part);
    return io;
  };
  let q: PromptIO | undefined;
  if ((q = need('collection'))) {
    const address = (await askSender(q, deps.senders, kind, prevObj(prev.collection))).address;
    const keptPickup = prevObj(prev.collection)?.pickup;
    shipment.collection = { ...address, ...(keptPickup !== undefined && shipment.collection_type !== 'dropoff' ? { pickup: keptPickup } : {}) };
  }
  if ((q = need('delivery'))) shipment.delivery = await askAddress(q, { who: 'Recipient', kind, previous: prevObj(prev.delivery) });
  const from = (shipment.collection as Obj | undefined)?.country as string | undefined;
  const to = (shipment.delivery as Obj | undefined)?.country as string | undefined;
  if ((q = need('collection_type'))) shipment.collection_type = await askCollectionType(q, from, to, prev.collection_type as string | undefined);
  if (shipment.collection_type !== 'dropoff' && (q = need('pickup'))) {
    if (isObject(shipment.collection)) {
      const c = shipment.collection;
      const place =
        typeof c.country === 'string'
          ? { country: c.country, ...(typeof c.postcode === 'string' ? { postcode: c.postcode } : {}), ...(typeof c.city === 'string' ? { city: c.city } : {}) }
          : undefined;
      c.pickup = await askPickup(q, prevObj(prevObj(prev.collection)?.pickup), place);
    }
  }
  if ((q = need('packages'))) shipment.packages = await askPackages(q, { previous: Array.isArray(prev.packages) ? (prev.packages as Obj[]) : undefined });
  if ((q = need('customs_information'))) shipment.customs_information = await askCustoms(q, { kind, from, to, previous: prevObj(prev.customs_information) });
  if ((q = need('description'))) {
    const first = ((shipment.customs_information as Obj | undefined)?.items as Obj[] | undefined)?.[0]?.description;
    const earlier = typeof prev.description === 'string' ? prev.description : typeof first === 'string' ? first : undefined;
    shipment.description = await askDescription(q, kind, earlier);
  }
  let askedReference = false;
  if (io && deps.askReference && shipment.transient_id == null) {
    askedReference = true;
    shipment.transient_id = await askReference(io, kind, typeof prev.transient_id === 'string' ? prev.transient_id : generatedReference(io.now()));
  }
  let chosen: QuoteServiceEntry | undefined;
  const serviceMissing = shipment.service == null || (isObject(shipment.service) && shipment.service.code == null);
  if (serviceMissing && (deps.service || deps.choose || io)) {
    const services = await deps.quote(quoteRequestFor(shipment, where));
    if (deps.choose) chosen = deps.choose(services, shipment, where);
    else if (deps.service) chosen = pickService(services, deps.service, kind, where);
    else {
      asked.push('service');
      const earlier = prevObj(prev.service)?.code;
      chosen = await askService(io!, services, kind, where, typeof earlier === 'string' ? earlier : undefined);
    }
    shipment.service = { ...(isObject(shipment.service) ? shipment.service : {}), code: chosen.code };
  }
  return { asked, askedReference, ...(chosen ? { chosen } : {}) };
}
