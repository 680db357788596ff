/**
 * Shipment: interface document, "Shipment (request form …)" and "Shipment (response form)".
 * The request form is used in create order (`kind` `order`), create shipment and
 * `main_shipment` (`kind` `shipment`); see {@link ShipmentFormKind} for the differences.
 */
import { TEXT_LIMITS } from './limits.js';
import * as z from 'zod';
import { lazySchema } from './lazy.js';
import { collectionRequest, deliveryRequest, addressResponse } from './address.js';
import { choice, describe, looseText, optionalText, text, type ShipmentFormKind } from './common.js';
import { customsRequest, customsResponse } from './customs.js';
import { packageResponse, packagesRequest } from './package.js';
import { priceResponse } from './price.js';
import { isDigitalSignatureImage } from './signature.js';

/** Collection types: `pickup` (a collection with a pickup window) or `dropoff` (leaving Australia only). */
const COLLECTION_TYPES = ['pickup', 'dropoff'] as const;

/**
 * `service` of a shipment request: the `code` from a quote response and its options — a list of
 * strings in create order, an object `{insurance: boolean}` in create shipment (docs/assumptions.md). A
 * quote service entry pasted as it came (with `name`, `carrier`, `global_mail`, `price`) is
 * accepted; only `code` and `options` are kept ({@link QUOTE_ENTRY_EXTRAS}).
 */
function serviceRequest(kind: ShipmentFormKind) {
  const options =
    kind === 'order'
      ? z
          .array(z.string({ error: (iss) => `expected an option name (got ${describe(iss.input)})` }), {
            error: (iss) => `expected a list of option names, e.g. [insurance] (got ${describe(iss.input)})`,
          })
          .optional()
      : z
          .strictObject(
            { insurance: z.boolean({ error: (iss) => `expected true or false (got ${describe(iss.input)})` }).optional() },
            { error: (iss) => `expected an object such as {insurance: true} (got ${describe(iss.input)})` },
          )
          .optional();
  // A quote service entry pasted whole: its other members are read and dropped, never sent.
  const ignored = z.unknown().optional();
  return z
    .strictObject(
      { code: text(TEXT_LIMITS.code), options, name: ignored, carrier: ignored, global_mail: ignored, price: ignored },
      { error: (iss) => (iss.input === undefined ? 'required' : `expected a service with a code (got ${describe(iss.input)})`) },
    )
    .transform(({ code, options: chosen }) => (chosen === undefined ? { code } : { code, options: chosen }));
}

/**
 * Members of a quote service entry ("Quote service entry": `code`, `name`, `carrier`,
 * `global_mail`, `price`) that a shipment's `service` accepts and drops: the interface document
 * says only the code and options of a quote service object are used by create order.
 */
export const QUOTE_ENTRY_EXTRAS = ['name', 'carrier', 'global_mail', 'price'] as const;

/** `options.digital_signature`: a BASE64-encoded PNG or JPG image, checked by its bytes. */
export const digitalSignature = lazySchema(() =>
  z
    .string({ error: (iss) => `expected a BASE64-encoded PNG or JPG image (got ${describe(iss.input)})` })
    .refine(isDigitalSignatureImage, { error: 'must be a BASE64-encoded PNG or JPG image' }),
);

/**
 * A shipment in request form. Cross-field rules: `collection` with `pickup` is required for
 * `pickup`; `dropoff` only for shipments leaving Australia (collection, when given, in AU and
 * delivery outside AU).
 */
export function shipmentRequest(kind: ShipmentFormKind) {
  return z
    .strictObject(
      {
        transient_id: optionalText(kind === 'order' ? 35 : undefined),
        service: serviceRequest(kind),
        collection_type: choice(COLLECTION_TYPES, 'pickup or dropoff'),
        collection: collectionRequest(kind).optional(),
        delivery: deliveryRequest(kind),
        packages: packagesRequest,
        customs_information: customsRequest(kind),
        description: text(kind === 'order' ? 35 : TEXT_LIMITS.text),
        options: z
          .strictObject({ digital_signature: digitalSignature.optional() }, { error: (iss) => `expected an object (got ${describe(iss.input)})` })
          .optional(),
      },
      { error: (iss) => (iss.input === undefined ? 'required' : `expected a shipment (got ${describe(iss.input)})`) },
    )
    .superRefine((s, ctx) => {
      if (s.collection_type === 'pickup') {
        if (!s.collection) {
          ctx.addIssue({ code: 'custom', path: ['collection'], message: 'required when collection_type is pickup' });
        } else if (!s.collection.pickup) {
          ctx.addIssue({
            code: 'custom',
            path: ['collection', 'pickup'],
            message: 'required when collection_type is pickup (date, time_earliest, time_latest)',
          });
        }
      } else {
        const from = s.collection?.country;
        if (s.delivery.country === 'AU' || (from !== undefined && from !== 'AU')) {
          ctx.addIssue({
            code: 'custom',
            path: ['collection_type'],
            message: `dropoff is only for shipments leaving Australia (${from ?? '?'} → ${s.delivery.country}); use pickup`,
          });
        }
      }
    });
}
/** A shipment as {@link shipmentRequest} reads it (request form; amounts as exact Money, AUD). */
export type ShipmentRequest = z.output<ReturnType<typeof shipmentRequest>>;

/** The `service` object of a shipment response; `name` may contain line breaks. */
const serviceResponse = lazySchema(() =>
  z.looseObject({
    code: looseText.optional(),
    name: z.string().nullish(),
    price: priceResponse.optional(),
    options: z.unknown().optional(),
  }),
);

/** A shipment in response form (lenient). `tracking_number` is the literal `N/A` while none is assigned. */
export const shipmentResponse = lazySchema(() =>
  z.looseObject({
    id: looseText,
    status: z.string().optional(),
    transient_id: z.string().nullish(),
    tracking_number: z.string().nullish(),
    collection_type: z.string().optional(),
    description: z.string().nullish(),
    collection: addressResponse.nullish(),
    delivery: addressResponse.nullish(),
    packages: z.array(packageResponse).optional(),
    customs_information: customsResponse.nullish(),
    service: serviceResponse.optional(),
  }),
);
/** A shipment of a response as {@link shipmentResponse} reads it (`tracking_number` `N/A` while none is assigned). */
export type ShipmentResponse = z.output<typeof shipmentResponse>;

/** The tracking number of a shipment, or `undefined` while none is assigned (`N/A`, empty or missing). */
export function trackingNumberOf(s: { tracking_number?: string | null }): string | undefined {
  const t = (s.tracking_number ?? '').trim();
  return t === '' || t.toUpperCase() === 'N/A' ? undefined : t;
}

/** A service name on one line: the service may send names with line breaks. */
export function oneLine(name: string | null | undefined): string {
  return (name ?? '').replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
