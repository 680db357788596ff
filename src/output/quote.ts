/** How quote service entries are shown: one row per service, cheapest first. */
import type { IOStreams } from '../io.js';
import type { OutputFormat } from './format.js';
import type { QuoteServiceEntry } from '../schema/quote.js';
import { oneLine } from '../schema/shipment.js';
import { printTable } from './table.js';

/** Sorts services by total price (cheapest first), then by code. */
export function sortServices(services: QuoteServiceEntry[]): QuoteServiceEntry[] {
  return [...services].sort((a, b) => a.price.total.cents - b.price.total.cents || a.code.localeCompare(b.code));
}

/** Prints the quote table: code, carrier, service, global mail, amount, insurance, GST, total (AUD). */
export function printQuote(io: IOStreams, format: OutputFormat, services: QuoteServiceEntry[]): void {
  printTable(
    io,
    format,
    [
      // Narrow terminals lose global mail, then insurance and GST, then amount, then carrier.
      { header: 'code', atomic: true },
      { header: 'carrier', dropPriority: 4, minWidth: 8 },
      { header: 'service', minWidth: 12 },
      { header: 'global mail', dropPriority: 1 },
      { header: 'amount', align: 'right', atomic: true, dropPriority: 3 },
      { header: 'insurance', align: 'right', atomic: true, dropPriority: 2 },
      { header: 'GST', align: 'right', atomic: true, dropPriority: 2 },
      { header: 'total AUD', align: 'right', atomic: true },
    ],
    sortServices(services).map((s) => [
      s.code,
      s.carrier,
      // A multi-line name stays multi-line inside its cell (tab-separated output joins the lines).
      format === 'table' ? s.name.trim() : oneLine(s.name),
      s.global_mail ? 'yes' : 'no',
      s.price.amount.toString(),
      s.price.insurance.toString(),
      s.price.gst.toString(),
      s.price.total.toString(),
    ]),
  );
}
