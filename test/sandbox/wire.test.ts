/**
 * The quote answer is written as JSON text directly (the sandbox's most frequent answer): it must
 * be, byte for byte, what `JSON.stringify` writes for the entry objects the interface document
 * describes, in the same member order.
 */
import { describe, expect, it } from 'vitest';
import { ratesFor, type RatedService, type ShippingRoute } from '../../src/sandbox/rates.js';
import { quoteServicesJson } from '../../src/sandbox/wire.js';

/** The entries as objects, written the plain way: `{code, name, carrier, global_mail, price}`. */
function viaStringify(rated: readonly RatedService[]): string {
  return JSON.stringify({
    services: rated.map(({ service, price }) => ({
      code: service.code,
      name: service.name,
      carrier: service.carrier,
      global_mail: service.globalMail,
      price: { currency: 'AUD', amount: price.amount / 100, insurance: price.insurance / 100, gst: price.gst / 100, total: price.total / 100 },
    })),
  });
}

const route = (to: string, toPostcode: string): ShippingRoute => ({
  collectionCountry: 'AU',
  collectionPostcode: '2000',
  deliveryCountry: to,
  deliveryPostcode: toPostcode,
});
const pkg = { length: 30, width: 20, height: 15, weight: 2.5, unit: 'cm' };

describe('quoteServicesJson', () => {
  it.each([
    ['domestic, not insured', route('AU', '3000'), [pkg], undefined],
    ['domestic, insured (GST on the fee too)', route('AU', '0800'), [pkg, { ...pkg, weight: 7.3 }], 33_333],
    ['international, line breaks in service names', route('NZ', '1010'), [pkg], 100_000],
    ['to Japan, global mail offered', route('JP', '100-0001'), [{ ...pkg, unit: 'in', weight: 0.1 }], 1],
  ])('%s: the text JSON.stringify writes', (_name, r, packages, insured) => {
    const rated = ratesFor(r, packages, insured);
    expect(rated.length).toBeGreaterThan(0);
    const text = quoteServicesJson(rated);
    expect(text).toBe(viaStringify(rated));
    expect(JSON.stringify(JSON.parse(text))).toBe(text);
  });

  it('an empty list of services', () => {
    expect(quoteServicesJson([])).toBe('{"services":[]}');
  });
});
