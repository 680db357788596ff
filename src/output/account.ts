/**
 * How the answers of fetch-credit-card and fetch-service-data are shown: the stored
 * cards one per row; the service data as field/value rows, the collection data under the
 * shipment field names it fills (`collection_type`, `collection.city`, …).
 */
import type { IOStreams } from '../io.js';
import type { OutputFormat } from './format.js';
import type { StoredCard } from '../schema/card.js';
import type { ServiceData } from '../schema/service-data.js';
import { oneLine } from '../schema/shipment.js';
import { printTable } from './table.js';

/** Prints the stored cards: id, brand, last four digits, expiry (MM/YY), holder, and `expired` for a card past its expiry. */
export function printStoredCards(io: IOStreams, format: OutputFormat, cards: StoredCard[]): void {
  printTable(
    io,
    format,
    [
      { header: 'id', atomic: true },
      { header: 'brand', dropPriority: 2, minWidth: 6 },
      { header: 'last four', atomic: true },
      { header: 'expiry', atomic: true },
      { header: 'holder', dropPriority: 1, minWidth: 8 },
      { header: 'state', dropPriority: 3 },
    ],
    cards.map((c) => [c.id, c.brand, c.last_four, c.expire, c.holder_name, c.expired ? 'expired' : 'usable']),
  );
}

/**
 * The service data as `[field, value]` rows: code, name, carrier, global_mail, then each field of
 * `collection_data` under its shipment field path (`collection_type`, `collection.company`, …).
 */
function serviceDataRows(service: ServiceData): string[][] {
  const rows: string[][] = [
    ['code', service.code],
    ['name', oneLine(service.name)],
    ['carrier', service.carrier],
    ['global_mail', service.global_mail ? 'true' : 'false'],
  ];
  const data = service.collection_data;
  if (data) {
    rows.push(['collection_type', data.collection_type]);
    for (const [key, value] of Object.entries(data.collection)) {
      if (value === undefined || value === null) continue;
      rows.push([`collection.${key}`, Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value)]);
    }
  }
  return rows;
}

/** Prints the service data (see {@link serviceDataRows}). */
export function printServiceData(io: IOStreams, format: OutputFormat, service: ServiceData): void {
  printTable(
    io,
    format,
    [
      { header: 'field', atomic: true },
      { header: 'value', breakAfter: ' ,' },
    ],
    serviceDataRows(service),
  );
}
