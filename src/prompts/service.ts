/**
 * Choosing the service from a live quote (interface document, "Get quote" and "Quote service
 * entry"): the route and packages of a shipment become a quote request; the services that fit
 * the request (regular ones for create order, consolidated-mail ones for create shipment) are
 * offered cheapest first and picked with the arrow keys — or, without prompts, chosen by
 * `--service cheapest|<code>`.
 */
import { UsageError, cmd } from '../errors.js';
import type { ShipmentFormKind } from '../schema/common.js';
import { quoteRequest, quoteRequestOf, type QuoteRequest, type QuoteServiceEntry } from '../schema/quote.js';
import { oneLine } from '../schema/shipment.js';
import type { PromptIO } from './ask.js';
import { itemsInputTotalCents, type ItemInput } from './customs.js';
import { aud, formatCents } from '../schema/money.js';

/** What `--service` asks for: the cheapest service of the quote, or one service code. */
export type ServiceChoice = { cheapest: true } | { code: string };

/** Reads `--service cheapest|<code>`. @throws UsageError (exit 2) for an empty value */
export function parseServiceFlag(raw: string): ServiceChoice {
  const v = raw.trim();
  if (v === '') throw new UsageError('--service needs "cheapest" or a service code, e.g. --service SB-DOM-ROAD');
  return v.toLowerCase() === 'cheapest' ? { cheapest: true } : { code: v };
}

/** The services a request of `kind` can use: regular ones for create order, consolidated mail for create shipment. */
function servicesFor(kind: ShipmentFormKind, services: ReadonlyArray<QuoteServiceEntry>): QuoteServiceEntry[] {
  return services.filter((s) => (kind === 'order' ? !s.global_mail : s.global_mail));
}

/** Services by total price, cheapest first (then by code). */
function cheapestFirst(services: ReadonlyArray<QuoteServiceEntry>): QuoteServiceEntry[] {
  return [...services].sort((a, b) => a.price.total.cents - b.price.total.cents || a.code.localeCompare(b.code));
}

/** What a shipment (as files write it) must hold for a quote. */
interface QuotableShipment {
  collection?: { country?: unknown; postcode?: unknown; city?: unknown } | unknown;
  delivery?: { country?: unknown; postcode?: unknown; city?: unknown } | unknown;
  packages?: unknown;
  customs_information?: { items?: ReadonlyArray<ItemInput> } | unknown;
}

/**
 * The quote request for a shipment's route and packages, with the customs total as the value of
 * the goods. Checked by the quote schema.
 * @throws UsageError (exit 2) when the collection address is missing (a drop-off without one)
 */
export function quoteRequestFor(shipment: QuotableShipment, where = 'the shipment'): QuoteRequest {
  const from = shipment.collection as Record<string, unknown> | undefined;
  const to = (shipment.delivery ?? {}) as Record<string, unknown>;
  if (!from || typeof from !== 'object') {
    throw new UsageError(`${where} has no collection address, which the quote needs (collection_country, postcode, city)`, {
      suggestion: 'Add a collection address to the file, or give the service code with --service <code>.',
    });
  }
  const items = (shipment.customs_information as { items?: ReadonlyArray<ItemInput> } | undefined)?.items;
  const value = Array.isArray(items) ? itemsInputTotalCents(items) : undefined;
  const parsed = quoteRequest.safeParse(
    quoteRequestOf({ from, to, packages: shipment.packages, ...(value !== undefined && value > 0 ? { value: formatCents(value) } : {}) }),
  );
  if (!parsed.success) {
    throw new UsageError(`${where} cannot be quoted: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}

/** Why no service can be chosen, as an error (exit 2). */
function noService(kind: ShipmentFormKind, where: string): UsageError {
  return new UsageError(`no ${kind === 'order' ? 'regular' : 'consolidated-mail'} service is offered for the route and packages of ${where}`, {
    suggestion: ['Check the addresses and package sizes with "', cmd('quote'), '", or book consolidated mail with "', cmd('shipment', 'create'), '".'],
  });
}

/**
 * Chooses without prompts: the cheapest offered service, or the one with `code`.
 * @throws UsageError (exit 2) when nothing is offered, or the code is not among the offers (the message lists them)
 */
export function pickService(
  services: ReadonlyArray<QuoteServiceEntry>,
  choice: ServiceChoice,
  kind: ShipmentFormKind,
  where = 'the shipment',
): QuoteServiceEntry {
  const offered = cheapestFirst(servicesFor(kind, services));
  if (offered.length === 0) throw noService(kind, where);
  if ('cheapest' in choice) return offered[0]!;
  const found = offered.find((s) => s.code.toLowerCase() === choice.code.toLowerCase());
  if (!found) {
    throw new UsageError(`service ${choice.code} is not offered for ${where}; offered: ${offered.map((s) => `${s.code} (${aud(s.price.total)})`).join(', ')}`);
  }
  return found;
}

/**
 * Offers the services of a live quote, cheapest first with carrier, name and total; the person
 * picks one with the arrow keys (the cheapest is highlighted, or `earlier` when it is still offered).
 * @throws UsageError (exit 2) when nothing is offered
 */
export async function askService(
  io: PromptIO,
  services: ReadonlyArray<QuoteServiceEntry>,
  kind: ShipmentFormKind,
  where = 'the shipment',
  earlier?: string,
): Promise<QuoteServiceEntry> {
  const offered = cheapestFirst(servicesFor(kind, services));
  if (offered.length === 0) throw noService(kind, where);
  const width = Math.max(...offered.map((s) => s.code.length));
  const label = (s: QuoteServiceEntry) => `${s.code.padEnd(width)}  ${[s.carrier, oneLine(s.name)].filter((p) => p !== '').join(' ')}  ${aud(s.price.total)}`;
  const code = await io.prompter.select<string>({
    message: 'Service (cheapest first)',
    choices: offered.map((s) => ({ name: label(s), value: s.code })),
    default: offered.find((s) => s.code === earlier)?.code ?? offered[0]!.code,
  });
  return offered.find((s) => s.code === code)!;
}
