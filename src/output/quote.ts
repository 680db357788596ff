/** How quote service entries are shown: one row per service, cheapest first. */
import type { IOStreams } from '../io.js';
import type { QuoteServiceEntry } from '../schema/quote.js';
import { oneLine } from '../schema/shipment.js';
import { printTable } from './table.js';

/** Sorts services by total price (cheapest first), then by code. */
export function sortServices(services: QuoteServiceEntry[]): QuoteServiceEntry[] {
  return [...services].sort((a, b) => a.price.total.cents - b.price.total.cents || a.code.localeCompare(b.code));
}

/** Prints the quote table: code, carrier, service, global mail, amount, insurance, GST, total (AUD). */
export function printQuote(io: IOStreams, services: QuoteServiceEntry[]): void {
  printTable(
    io,
    [
      { header: 'code' },
      { header: 'carrier' },
      { header: 'service' },
      { header: 'global mail' },
      { header: 'amount', align: 'right' },
      { header: 'insurance', align: 'right' },
      { header: 'GST', align: 'right' },
      { header: 'total AUD', align: 'right' },
    ],
    sortServices(services).map((s) => [
      s.code,
      s.carrier,
      oneLine(s.name),
      s.global_mail ? 'yes' : 'no',
      s.price.amount.toString(),
      s.price.insurance.toString(),
      s.price.gst.toString(),
      s.price.total.toString(),
    ]),
  );
}
