/**
 * Service data: the answer of fetch-service-data (referenced by the interface document, "Create
 * shipment": for consolidated mail "the collection data must be the specific data for that
 * service, which is obtained from a fetch-service-data operation"; path assumed
 * `GET /services/{service_code}/`, a setting of the profile).
 *
 * Wire form (snake_case like the interface document):
 * `{service: {code, name, carrier, global_mail, collection_data}}` where `collection_data` is, for
 * a consolidated-mail service, what each of its shipments is to carry, keyed by the shipment
 * fields it fills: `{collection_type, collection}` (the consolidation hub where the main shipment
 * delivers the parcels and where they are split); `null` for any other service.
 */
import * as z from 'zod';
import { lazySchema } from './lazy.js';
import { addressResponse } from './address.js';
import { textOrEmpty } from './common.js';

/** The shipment fields a consolidated-mail service prescribes: `collection_type` and `collection`. */
const collectionData = lazySchema(() =>
  z.looseObject({
    collection_type: z.string().min(1),
    collection: addressResponse,
  }),
);
/** The collection fields a consolidated-mail service prescribes (`collection_type`, `collection`). */
export type CollectionData = z.output<typeof collectionData>;

/** The data of one service in a response. */
const serviceData = lazySchema(() =>
  z.looseObject({
    code: z.string().min(1),
    name: textOrEmpty,
    carrier: textOrEmpty,
    global_mail: z
      .boolean()
      .optional()
      .transform((g) => g ?? false),
    collection_data: collectionData.nullish().transform((c) => c ?? null),
  }),
);
/** The data of one service in a fetch-service-data answer: code, name, carrier, `global_mail`, `collection_data`. */
export type ServiceData = z.output<typeof serviceData>;

/** `result` of fetch-service-data: `{service: …}`. */
export const serviceDataResult = lazySchema(() => z.looseObject({ service: serviceData }));
