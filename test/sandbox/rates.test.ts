/**
 * The sandbox rate engine, checked against figures worked out by hand.
 * Tariffs (AUD cents, base + per 0.5 kg): SB-DOM-ROAD z1 900+120, z2 1100+160, z3 1400+220;
 * SB-DOM-EXP z1 1300+200, z2 1600+260, z3 1900+340; SB-INTL-EXP z1..4 3000+650, 3800+800,
 * 4800+1000, 5800+1250; SB-INTL-ECO 2000+400, 2500+500, 3200+650, 3900+800;
 * SB-GLOBAL-MAIL 1200+300, 1500+350, 1900+450, 2400+550.
 */
import { describe, expect, it } from 'vitest';
import {
  chargeableHalfKgSteps,
  chargeableKg,
  countryZone,
  domesticZone,
  insuranceFee,
  priceShipment,
  ratesFor,
  routeZone,
  servicesFor,
  stateOfPostcode,
  type ShippingRoute,
} from '../../src/sandbox/rates.js';

const SYD_MEL: ShippingRoute = { collectionCountry: 'AU', collectionPostcode: '2000', deliveryCountry: 'AU', deliveryPostcode: '3000' };
const big = { length: 40, width: 30, height: 20, weight: 4.2, unit: 'cm' }; // 24 000 cm³
const small = { length: 30, width: 20, height: 10, weight: 1.5, unit: 'cm' }; // 6 000 cm³

function route(from: string, to: string, fromPostcode = '2000', toPostcode = '1010'): ShippingRoute {
  return { collectionCountry: from, collectionPostcode: fromPostcode, deliveryCountry: to, deliveryPostcode: toPostcode };
}

describe('zones', () => {
  it('reads the state from the first digit of an Australian postcode', () => {
    expect(stateOfPostcode('2000')).toBe('NSW');
    expect(stateOfPostcode('2600')).toBe('NSW'); // ACT shares 2
    expect(stateOfPostcode('3000')).toBe('VIC');
    expect(stateOfPostcode('0800')).toBe('NT');
    expect(stateOfPostcode('7000')).toBe('TAS');
    expect(stateOfPostcode('ABCD')).toBeUndefined();
  });

  it('puts the same state in zone 1, neighbouring states in zone 2, the rest in zone 3', () => {
    expect(domesticZone('2000', '2600')).toBe(1); // Sydney → Canberra
    expect(domesticZone('2000', '3000')).toBe(2); // NSW → VIC
    expect(domesticZone('7000', '3000')).toBe(2); // TAS → VIC
    expect(domesticZone('0800', '6000')).toBe(2); // NT → WA
    expect(domesticZone('2000', '6000')).toBe(3); // NSW → WA
    expect(domesticZone('7000', '4000')).toBe(3); // TAS → QLD
    expect(domesticZone('2000', 'ABCD')).toBe(3); // unreadable postcode
  });

  it('zones countries: NZ 1, Asia-Pacific 2, US/CA/GB/EU 3, the rest 4', () => {
    expect(countryZone('NZ')).toBe(1);
    expect(countryZone('JP')).toBe(2);
    expect(countryZone('SG')).toBe(2);
    expect(countryZone('US')).toBe(3);
    expect(countryZone('GB')).toBe(3);
    expect(countryZone('DE')).toBe(3);
    expect(countryZone('BR')).toBe(4);
    expect(countryZone('ZA')).toBe(4);
  });

  it('zones an inbound route by its origin', () => {
    expect(routeZone(route('AU', 'US'))).toBe(3);
    expect(routeZone(route('US', 'AU'))).toBe(3);
    expect(routeZone(route('NZ', 'AU'))).toBe(1);
  });
});

describe('chargeable weight', () => {
  it('charges the cubic weight when it is larger: 40×30×20 cm = 6 kg by road (/4000), 4.8 kg otherwise (/5000)', () => {
    expect(chargeableHalfKgSteps(big, 4000)).toBe(12); // 6.0 kg
    expect(chargeableHalfKgSteps(big, 5000)).toBe(10); // 4.8 → 5.0 kg
  });

  it('charges the actual weight when it is larger: 30×20×10 cm 1.5 kg (cubic 1.5 / 1.2)', () => {
    expect(chargeableKg(small, 4000)).toBe(1.5);
    expect(chargeableKg(small, 5000)).toBe(1.5);
  });

  it('rounds up to the next 0.5 kg, but keeps 2.5 kg at 2.5', () => {
    const tiny = { length: 10, width: 10, height: 10, unit: 'cm' }; // 0.2 kg cubic
    expect(chargeableKg({ ...tiny, weight: 2.5 }, 5000)).toBe(2.5);
    expect(chargeableKg({ ...tiny, weight: 2.51 }, 5000)).toBe(3);
    expect(chargeableKg({ ...tiny, weight: 0.1 + 0.2 + 0.2 }, 5000)).toBe(0.5); // 0.5000000000000001
    expect(chargeableKg({ ...tiny, weight: 0.1 }, 5000)).toBe(0.5);
  });

  it('converts inches and pounds (2.54 cm, 0.45359237 kg)', () => {
    // 10×10×10 in = 16 387.064 cm³ → 3.277 kg (/5000) or 4.097 kg (/4000); 5 lb = 2.268 kg.
    const cube = { length: 10, width: 10, height: 10, weight: 5, unit: 'in' };
    expect(chargeableKg(cube, 5000)).toBe(3.5);
    expect(chargeableKg(cube, 4000)).toBe(4.5);
    // 4×4×4 in, 11 lb = 4.9895 kg → 5.0 kg (the cubic 0.21 kg is smaller).
    expect(chargeableKg({ length: 4, width: 4, height: 4, weight: 11, unit: 'in' }, 5000)).toBe(5);
  });
});

describe('insurance', () => {
  it('is 1.5 % of the insured value, at least 5.00 AUD, rounded half up', () => {
    expect(insuranceFee(undefined)).toBe(0);
    expect(insuranceFee(0)).toBe(500);
    expect(insuranceFee(20_000)).toBe(500); // 3.00 → minimum 5.00
    expect(insuranceFee(100_000)).toBe(1500); // 1000.00 → 15.00
    expect(insuranceFee(123_457)).toBe(1852); // 18.51855 → 18.52
    expect(insuranceFee(33_700)).toBe(506); // 5.055 → 5.06
  });
});

describe('prices', () => {
  it('prices Sydney → Melbourne (zone 2) by road and express, GST included', () => {
    const rates = ratesFor(SYD_MEL, [big, small]);
    expect(rates.map((r) => r.service.code)).toEqual(['SB-DOM-ROAD', 'SB-DOM-EXP', 'SB-AX-ROAD', 'SB-CP-STD', 'SB-AP-PARCEL', 'SB-ST-PREM']);
    // Road: 12 + 3 = 15 steps → 1100 + 160 × 15 = 3500; GST 350.
    expect(rates[0]!.price).toEqual({ amount: 3500, insurance: 0, gst: 350, total: 3850 });
    // Express: 10 + 3 = 13 steps → 1600 + 260 × 13 = 4980; GST 498.
    expect(rates[1]!.price).toEqual({ amount: 4980, insurance: 0, gst: 498, total: 5478 });
  });

  it('adds GST on insurance too, rounding half up in cents', () => {
    // Road zone 1, 10×10×10 cm 1 kg = 2 steps → 900 + 240 = 1140; insurance on 337.00 → 5.055 → 506;
    // GST 10 % of 16.46 = 1.646 → 1.65; total 11.40 + 5.06 + 1.65 = 18.11.
    const r = route('AU', 'AU', '2000', '2600');
    const pkg = { length: 10, width: 10, height: 10, weight: 1, unit: 'cm' };
    const [road] = ratesFor(r, [pkg], 33_700);
    expect(road!.price).toEqual({ amount: 1140, insurance: 506, gst: 165, total: 1811 });
  });

  it('charges no GST on international services', () => {
    // 40×30×20 cm 4.2 kg → 5 kg = 10 steps. DHL to NZ (zone 1): 3000 + 650 × 10 = 9500.
    const nz = ratesFor(route('AU', 'NZ'), [big]);
    expect(nz.map((s) => [s.service.code, s.price.total, s.price.gst])).toEqual([
      ['SB-INTL-EXP', 9500, 0],
      ['SB-INTL-ECO', 6000, 0], // 2000 + 400 × 10
      ['SB-GLOBAL-MAIL', 4200, 0], // 1200 + 300 × 10
      ['SB-AP-INTL', 6400, 0], // 2200 + 420 × 10
    ]);
    // To Brazil (zone 4), insured 1000.00 → 15.00: 5800 + 1250 × 10 + 1500 = 19 800.
    const br = priceShipment('SB-INTL-EXP', {
      collection: { country: 'AU', postcode: '2000' },
      delivery: { country: 'BR', postcode: '01000-000' },
      packages: [big],
      insuredCents: 100_000,
    });
    expect(br).toMatchObject({ price: { amount: 18_300, insurance: 1500, gst: 0, total: 19_800 } });
  });

  it('offers consolidated mail only from Australia to another country', () => {
    expect(servicesFor(route('AU', 'JP')).map((s) => s.code)).toContain('SB-GLOBAL-MAIL');
    expect(servicesFor(route('JP', 'AU')).map((s) => s.code)).toEqual(['SB-INTL-EXP', 'SB-INTL-ECO']);
    expect(servicesFor(SYD_MEL).map((s) => s.code)).not.toContain('SB-GLOBAL-MAIL');
    const mail = ratesFor(route('AU', 'JP'), [big]).find((s) => s.service.code === 'SB-GLOBAL-MAIL');
    expect(mail?.service.globalMail).toBe(true);
    expect(mail?.price.total).toBe(5000); // zone 2: 1500 + 350 × 10
  });

  it('refuses a service not offered on the route, and an unknown one', () => {
    const shipment = { collection: { country: 'AU', postcode: '2000' }, delivery: { country: 'AU', postcode: '3000' }, packages: [big] };
    expect(priceShipment('SB-INTL-EXP', shipment)).toEqual({ problem: 'service SB-INTL-EXP is not offered from AU to AU' });
    expect(priceShipment('SB-GLOBAL-MAIL', { ...shipment, collection: { country: 'NZ', postcode: '1010' } })).toEqual({
      problem: 'service SB-GLOBAL-MAIL is not offered from NZ to AU',
    });
    expect(priceShipment('SB-NOPE', shipment)).toEqual({
      problem: 'unknown service SB-NOPE; offered from AU to AU: SB-DOM-ROAD, SB-DOM-EXP, SB-AX-ROAD, SB-CP-STD, SB-AP-PARCEL, SB-ST-PREM',
    });
  });

  it('treats a shipment without collection (dropoff) as leaving Australia', () => {
    const r = priceShipment('SB-GLOBAL-MAIL', { delivery: { country: 'GB', postcode: 'SW1A 1AA' }, packages: [small] });
    expect(r).toMatchObject({ price: { amount: 1900 + 450 * 3, total: 3250 } });
  });
});

describe('a catalogue where rules matter', () => {
  /** The cheapest regular service for one package of `kg` (10 cm cube) on a route. */
  const cheapest = (r: ReturnType<typeof route>, kg: number) =>
    ratesFor(r, [{ length: 10, width: 10, height: 10, weight: kg, unit: 'cm' }])
      .filter((x) => !x.service.globalMail)
      .sort((a, b) => a.price.total - b.price.total || a.service.code.localeCompare(b.service.code))[0]!.service.code;

  it('offers six domestic services across four carriers and four international ones, consolidated mail among them', () => {
    const domestic = servicesFor(SYD_MEL);
    expect(domestic).toHaveLength(6);
    expect(new Set(domestic.map((s) => s.carrier))).toEqual(new Set(['StarTrack', 'Australia Post', 'Aramex', 'Couriers Please']));
    const abroad = servicesFor(route('AU', 'JP'));
    expect(abroad.map((s) => s.code)).toEqual(['SB-INTL-EXP', 'SB-INTL-ECO', 'SB-GLOBAL-MAIL', 'SB-AP-INTL']);
    expect(abroad.filter((s) => s.globalMail)).toHaveLength(1);
  });

  it('makes the cheapest depend on weight: StarTrack up to 15 kg, Couriers Please above, Aramex from 30 kg', () => {
    for (const r of [route('AU', 'AU', '2000', '2600'), SYD_MEL, route('AU', 'AU', '2000', '6000')]) {
      expect(cheapest(r, 10)).toBe('SB-DOM-ROAD');
      expect(cheapest(r, 14.5)).toBe('SB-DOM-ROAD');
      expect(cheapest(r, 25)).toBe('SB-CP-STD');
      expect(cheapest(r, 40)).toBe('SB-AX-ROAD');
    }
    // Zone 3 (Sydney → Perth) at 16 kg is still StarTrack's: Couriers Please's higher base tells.
    expect(cheapest(route('AU', 'AU', '2000', '6000'), 16)).toBe('SB-DOM-ROAD');
    expect(cheapest(route('AU', 'NZ'), 5)).toBe('SB-INTL-ECO');
  });

  it('prices the same request the same every time', () => {
    const pkg = [{ length: 50, width: 40, height: 30, weight: 22, unit: 'cm' }];
    expect(ratesFor(route('AU', 'AU', '2000', '6000'), pkg)).toEqual(ratesFor(route('AU', 'AU', '2000', '6000'), pkg));
  });
});
