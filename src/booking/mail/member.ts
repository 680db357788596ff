/**
 * An order that service-selection rules send by consolidated mail (a `prefer: {global_mail: true}`
 * that wins for every shipment of the order). The interface books such a service by shipment
 * create, combine into a parent order, and accept (interface document, "What the service does",
 * the alternative path); the sandbox refuses a plain order on it. This module turns the decided
 * order document into the consolidated form the existing path books (`{shipments: [...]}`, each
 * child collected with the service's own collection data), and says which collection address and
 * day the order belongs to, so that a batch combines the orders of one collection and day into one
 * parent. Pure: the service data is given.
 */
import { canonicalJson } from '../../ledger/index.js';
import { isObject } from '../../schema/object.js';
import { orderShipments } from '../rules/order.js';

/**
 * Whether consolidated mail can be booked at all in this run: the account combines under the
 * free-pickup option, or the profile saves the main shipment that carries the parcels to the hub
 * (settings `mail.free-pickup`, `mail.main-shipment`). When neither, why not, in words the rules'
 * reasons carry.
 */
export type MailPath = { usable: true } | { usable: false; why: string };

/** The reason consolidated mail is not applicable when the profile has neither a main shipment nor free pickup. */
const NO_MAIN_SHIPMENT = 'neither a main shipment to the hub (setting mail.main-shipment) nor free pickup (setting mail.free-pickup) is configured';

/** The reason consolidated mail is not applicable to one shipment of an order whose other shipments go by another service. */
export const MIXED_ORDER = 'the order has shipments that do not go by consolidated mail, and an order is booked by one path';

/** {@link MailPath} from the profile's `mail` settings. */
export function mailPath(settings: { mainShipment?: string; freePickup?: boolean } | undefined): MailPath {
  return settings?.mainShipment !== undefined || settings?.freePickup === true ? { usable: true } : { usable: false, why: NO_MAIN_SHIPMENT };
}

/**
 * The collection data of a consolidated-mail service, as fetch-service-data gives it: the shipment
 * fields it fills (`collection_type`, `collection`).
 */
export interface CollectionFields {
  collection_type: string;
  collection: unknown;
}

/** What {@link mailMember} makes of an order document. */
interface MailMember {
  /** The consolidated form: `{shipments: [child, …]}`, each child in the create-shipment form. */
  data: { shipments: unknown[] };
  /**
   * The collection address and day the order is collected on (its first shipment's collection
   * without the pickup window, and the pickup date; `dropoff` without one): the orders of one key
   * are combined into one parent order.
   */
  key: string;
}

/**
 * The consolidated form of an order document whose every shipment goes by consolidated mail: each
 * shipment becomes a child of create shipment — its collection replaced by the service's collection
 * data (`collection(code)`: the service requires it), its `service.options` list (`["insurance"]`,
 * the create-order form) made the create-shipment object (`{insurance: true}`).
 * @param document the decided order document (`{order: {shipments}}`), saved senders resolved
 */
export function mailMember(document: unknown, collection: (code: string) => CollectionFields): MailMember {
  const shipments = orderShipments(document);
  const first = shipments[0];
  const original = isObject(first) && isObject(first.collection) ? first.collection : undefined;
  const { pickup, ...address } = original ?? {};
  const day = isObject(pickup) && typeof pickup.date === 'string' ? pickup.date.slice(0, 10) : 'dropoff';
  const children = shipments.map((s) => {
    if (!isObject(s)) return s;
    const service = isObject(s.service) ? { ...s.service } : {};
    const code = typeof service.code === 'string' ? service.code : '';
    if (Array.isArray(service.options)) service.options = service.options.includes('insurance') ? { insurance: true } : {};
    const fields = collection(code);
    return { ...s, service, collection_type: fields.collection_type, collection: structuredClone(fields.collection) };
  });
  return { data: { shipments: children }, key: `${canonicalJson(address)}|${day}` };
}
