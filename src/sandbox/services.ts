/**
 * The sandbox's service data (interface document, "Create shipment": the collection
 * data of consolidated mail "is obtained from a fetch-service-data operation"). The one source of
 * the consolidation hub: fetch-service-data serves it, and the sandbox's own messages about the
 * hub (combine, main shipment) quote it from here.
 */
import type { SandboxService } from './rates.js';

/**
 * What every `SB-GLOBAL-MAIL` shipment carries, keyed by the shipment fields it fills: the parcels
 * are dropped off at the consolidation hub in Mascot (Sydney), where the main shipment delivers
 * them and where they are split.
 */
export const GLOBAL_MAIL_COLLECTION_DATA = Object.freeze({
  collection_type: 'dropoff',
  collection: Object.freeze({
    first_name: 'Receiving',
    last_name: 'Desk',
    company: 'ShipBook Global Mail Hub',
    email: 'hub.mascot@example.com.au',
    phone: '+61 2 9555 0100',
    country: 'AU',
    postcode: '2020',
    city: 'Mascot',
    address_lines: Object.freeze(['190 Coward Street']),
  }),
});

/** The hub in one line, for messages: `ShipBook Global Mail Hub, 190 Coward Street, Mascot 2020`. */
export const SANDBOX_HUB = (() => {
  const c = GLOBAL_MAIL_COLLECTION_DATA.collection;
  return `${c.company}, ${c.address_lines.join(', ')}, ${c.city} ${c.postcode}`;
})();

/** A service in the wire form of fetch-service-data: `{code, name, carrier, global_mail, collection_data}`. */
export function serviceDataWire(service: SandboxService) {
  return {
    code: service.code,
    name: service.name,
    carrier: service.carrier,
    global_mail: service.globalMail,
    collection_data: service.globalMail ? GLOBAL_MAIL_COLLECTION_DATA : null,
  };
}
