/**
 * What a run needs to send consolidated mail that rules chose (`prefer: {global_mail: true}`): the
 * profile's `mail.main-shipment` file read and checked once (its pickup date may be `next`), or
 * `mail.free-pickup`, and each consolidated-mail service's collection data from fetch-service-data
 * (fetched once per service code). Without either setting, consolidated mail is not applicable and
 * the rules' next choice applies (src/booking/mail/member.ts `mailPath`).
 */
import { fetchServiceData } from '../../api/services.js';
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import { ValidationError } from '../../errors.js';
import { loadDocument } from '../../input/load.js';
import { settlePickups } from '../../input/pickup.js';
import { validateDocument } from '../../input/problems.js';
import { isObject } from '../../schema/object.js';
import { shipmentDocument } from '../../schema/consolidated.js';
import type { ShipmentRequest } from '../../schema/shipment.js';
import { mailPath, type CollectionFields, type MailPath } from '../../booking/index.js';

/** Consolidated mail as this run sends it. */
export interface MailSetup {
  path: MailPath;
  /** The collection data of a consolidated-mail service (fetch-service-data), by code; fetched once each. */
  collection(code: string): Promise<CollectionFields>;
  /** The saved main shipment: as written (for a single booking's document) and as checked (for a batch's groups). */
  main?: { data: unknown; request: ShipmentRequest };
}

/**
 * The mail setup of this run, from the profile's `mail` settings; the service data is read through
 * `api` when given (the cost preview's client, which sends reads in a dry run too), else the run's.
 * @throws ValidationError (exit 2) for a main-shipment file with problems, at file:line:col
 */
export async function runMail(ctx: Context, api?: ApiClient): Promise<MailSetup> {
  const profile = await ctx.profile();
  const path = mailPath(profile.mail);
  const cache = new Map<string, Promise<CollectionFields>>();
  const collection = (code: string) => {
    if (!cache.has(code))
      cache.set(
        code,
        (async () => {
          const data = (await fetchServiceData(api ?? (await ctx.api()), code, profile.paths)).collection_data;
          if (!data)
            throw new ValidationError([], `service ${code} is marked global_mail but prescribes no collection data: it cannot be sent by shipment create`);
          return JSON.parse(JSON.stringify(data)) as CollectionFields;
        })(),
      );
    return cache.get(code)!;
  };
  const file = profile.mail?.mainShipment;
  if (file === undefined) return { path, collection };
  const settled = settlePickups(await loadDocument(file, ctx.io.stdin), await ctx.usePickupRule({}));
  const request = validateDocument(settled.doc, shipmentDocument(settled.doc.data));
  const raw = settled.doc.data;
  const data = isObject(raw) && 'shipment' in raw ? raw.shipment : isObject(raw) && 'main_shipment' in raw ? raw.main_shipment : raw;
  return { path, collection, main: { data, request } };
}
