/**
 * `--collection-from-service` on `shipment create` and on a consolidated `book`: the
 * collection of each consolidated-mail shipment is filled in from fetch-service-data (interface
 * document, "Create shipment": "the collection data must be the specific data for that service").
 * The service data names the shipment fields it fills (`collection_type`, `collection`); they are
 * written into the loaded document before it is validated, so every later check sees them.
 *
 * A shipment that already has a collection (or collection_type) is left alone when it is
 * identical to the service data, and refused otherwise (exit 2, naming file, line:col and the
 * field): shipbook never silently replaces what a file says.
 */
import { isDeepStrictEqual } from 'node:util';
import { fetchServiceData } from '../../api/services.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { LoadedDocument } from '../../input/loaded.js';
import type { CollectionData } from '../../schema/service-data.js';
import { formatPath } from '../../schema/issues.js';
import { isObject } from '../../schema/object.js';

/** The collection data as plain JSON (what a file would hold), for comparing and copying. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/**
 * Fills `collection_type` and `collection` of the shipment objects at `paths` (field paths inside
 * `doc.data`) from the service data of each one's `service.code` (`fallbackCode` when it has none).
 * Service data is fetched once per code.
 * @throws UsageError (exit 2) when a shipment names no service code, its service prescribes no
 *   collection data (not consolidated mail), or it already has a different collection
 */
export async function fillCollectionFromService(
  doc: LoadedDocument,
  paths: ReadonlyArray<ReadonlyArray<PropertyKey>>,
  ctx: Context,
  fallbackCode?: string,
): Promise<void> {
  const cache = new Map<string, Promise<CollectionData | null>>();
  const where = (path: ReadonlyArray<PropertyKey>) => {
    const pos = doc.locate(path);
    return `${doc.file}${pos ? `:${pos.line}:${pos.column}` : ''}`;
  };
  for (const at of paths) {
    let shipment: unknown = doc.data;
    for (const key of at) shipment = isObject(shipment) || Array.isArray(shipment) ? (shipment as Record<PropertyKey, unknown>)[key as string] : undefined;
    if (!isObject(shipment)) continue; // the validation that follows names it
    const service = shipment.service;
    const fileCode = isObject(service) && typeof service.code === 'string' ? service.code : undefined;
    const code = fileCode ?? fallbackCode;
    const label = formatPath([...at]) || 'the shipment';
    if (code === undefined) {
      throw new UsageError(`--collection-from-service: ${where(at)} ${label} names no service code, so there is no service data to take the collection from`, {
        suggestion: 'Give service.code (e.g. SB-GLOBAL-MAIL) in the file, or --service <code>.',
      });
    }
    if (!cache.has(code)) {
      cache.set(code, (async () => (await fetchServiceData(await ctx.api(), code, (await ctx.profile()).paths)).collection_data)());
    }
    const data = await cache.get(code)!;
    if (!data) {
      throw new UsageError(`--collection-from-service: service ${code} (${label}) prescribes no collection data: only consolidated-mail services do`, {
        suggestion: `See what it prescribes: shipbook service show ${code}`,
      });
    }
    const wanted = plain(data) as { collection_type: string; collection: unknown };
    const conflicts: string[] = [];
    if (shipment.collection !== undefined && !isDeepStrictEqual(plain(shipment.collection), wanted.collection)) conflicts.push('collection');
    if (shipment.collection_type !== undefined && shipment.collection_type !== wanted.collection_type) conflicts.push('collection_type');
    if (conflicts.length > 0) {
      const field = conflicts[0]!;
      throw new UsageError(
        `--collection-from-service: ${where([...at, field])} ${formatPath([...at, field])} already differs from the collection data of ${code} (${conflicts.join(' and ')}); shipbook does not replace what the file says`,
        {
          suggestion: `Remove ${conflicts.map((c) => formatPath([...at, c])).join(' and ')} from the file to take them from the service (see: shipbook service show ${code}), or leave out --collection-from-service.`,
        },
      );
    }
    shipment.collection_type = wanted.collection_type;
    shipment.collection = wanted.collection;
  }
}
