/**
 * The sandbox's rate engine: which services a route is offered, and what a shipment costs.
 * Deterministic pure functions over integer AUD cents (never a binary float for money).
 *
 * Implements the prices behind interface document "Get quote: POST /quote/" ("Quote service
 * entry") and "Create order: POST /orders/" (the exact price of each shipment and the "Order"
 * price object). The figures are the sandbox's own; the real service's tariffs are not shown.
 *
 * Price of one shipment on one service:
 *
 *   amount    = base[zone] + step[zone] × Σ half-kilogram steps of each package's chargeable weight
 *   insurance = 0, or when insured max(5.00, 1.5 % of the insured value), rounded half up in cents
 *   gst       = 10 % of (amount + insurance) on domestic services only, rounded half up in cents
 *   total     = amount + insurance + gst
 *
 * Chargeable weight of a package = max(actual kg, cubic kg), rounded up to the next 0.5 kg;
 * cubic kg = length × width × height (cm) / 4000 for road, / 5000 for every other service.
 */
import { percentOf, type Cents } from '../schema/money.js';
import { toMetric } from '../schema/package.js';
import { SANDBOX_MAX_CHARGEABLE_KG, limitChargeableKg } from '../schema/limits.js';

/** Codes of the services the sandbox offers. */
const SERVICE_CODES = {
  domesticRoad: 'SB-DOM-ROAD',
  domesticExpress: 'SB-DOM-EXP',
  internationalExpress: 'SB-INTL-EXP',
  internationalEconomy: 'SB-INTL-ECO',
  globalMail: 'SB-GLOBAL-MAIL',
  aramexRoad: 'SB-AX-ROAD',
  couriersPlease: 'SB-CP-STD',
  parcelPost: 'SB-AP-PARCEL',
  startrackPremium: 'SB-ST-PREM',
  postInternational: 'SB-AP-INTL',
} as const;
type ServiceCode = (typeof SERVICE_CODES)[keyof typeof SERVICE_CODES];

/** Where a service may be used: within Australia, between countries, or Australia → elsewhere only. */
type ServiceScope = 'domestic' | 'international' | 'from-australia';

/** A service of the sandbox's catalogue. Tariffs are AUD cents per zone (index 0 = zone 1). */
export interface SandboxService {
  code: ServiceCode;
  /** Display name; may contain a line break, as the interface document warns. */
  name: string;
  carrier: string;
  /** True for the consolidated-mail service (interface document, "Quote service entry"). */
  globalMail: boolean;
  scope: ServiceScope;
  /** Cubic divisor in cm³ per kg: 4000 for road, 5000 otherwise. */
  cubicDivisor: number;
  /** Base price per shipment by zone, AUD cents. */
  base: readonly Cents[];
  /** Price per 0.5 kg of chargeable weight by zone, AUD cents. */
  perHalfKg: readonly Cents[];
}

/**
 * The catalogue, in the order quotes list it. Domestic tariffs have zones 1–3, international 1–4.
 *
 * Six domestic services across four carriers, priced so that the choice depends on the weight and
 * the zone: StarTrack Road Express is the cheapest up to 15 kg of chargeable weight; Couriers
 * Please Standard (a lower rate per kilogram) from about 15 kg (17 kg in zone 3); Aramex Road
 * Saver (the lowest rate per kilogram) from 30 kg; Australia Post Parcel Post, Express Post and
 * StarTrack Premium are always dearer than StarTrack Road Express. Abroad: DHL Express, Aramex
 * International Economy (the cheapest regular service), Australia Post International Standard
 * (from Australia) and the consolidated-mail service.
 */
export const SERVICES: readonly SandboxService[] = [
  {
    code: 'SB-DOM-ROAD',
    name: 'Road Express',
    carrier: 'StarTrack',
    globalMail: false,
    scope: 'domestic',
    cubicDivisor: 4000,
    base: [900, 1100, 1400],
    perHalfKg: [120, 160, 220],
  },
  {
    code: 'SB-DOM-EXP',
    name: 'Express Post\nParcel',
    carrier: 'Australia Post',
    globalMail: false,
    scope: 'domestic',
    cubicDivisor: 5000,
    base: [1300, 1600, 1900],
    perHalfKg: [200, 260, 340],
  },
  {
    code: 'SB-INTL-EXP',
    name: 'Express Worldwide\n(Time Definite)',
    carrier: 'DHL Express',
    globalMail: false,
    scope: 'international',
    cubicDivisor: 5000,
    base: [3000, 3800, 4800, 5800],
    perHalfKg: [650, 800, 1000, 1250],
  },
  {
    code: 'SB-INTL-ECO',
    name: 'International Economy',
    carrier: 'Aramex',
    globalMail: false,
    scope: 'international',
    cubicDivisor: 5000,
    base: [2000, 2500, 3200, 3900],
    perHalfKg: [400, 500, 650, 800],
  },
  {
    code: 'SB-GLOBAL-MAIL',
    name: 'Global Mail Consolidated',
    carrier: 'ShipBook Global Mail',
    globalMail: true,
    scope: 'from-australia',
    cubicDivisor: 5000,
    base: [1200, 1500, 1900, 2400],
    perHalfKg: [300, 350, 450, 550],
  },
  {
    code: 'SB-AX-ROAD',
    name: 'Road Saver',
    carrier: 'Aramex',
    globalMail: false,
    scope: 'domestic',
    cubicDivisor: 4000,
    base: [2100, 2750, 3700],
    perHalfKg: [95, 125, 175],
  },
  {
    code: 'SB-CP-STD',
    name: 'Standard',
    carrier: 'Couriers Please',
    globalMail: false,
    scope: 'domestic',
    cubicDivisor: 4000,
    base: [1200, 1550, 1900],
    perHalfKg: [110, 145, 205],
  },
  {
    code: 'SB-AP-PARCEL',
    name: 'Parcel Post',
    carrier: 'Australia Post',
    globalMail: false,
    scope: 'domestic',
    cubicDivisor: 4000,
    base: [1000, 1250, 1600],
    perHalfKg: [130, 170, 230],
  },
  {
    code: 'SB-ST-PREM',
    name: 'Premium',
    carrier: 'StarTrack',
    globalMail: false,
    scope: 'domestic',
    cubicDivisor: 5000,
    base: [1600, 2000, 2500],
    perHalfKg: [160, 210, 280],
  },
  {
    code: 'SB-AP-INTL',
    name: 'International Standard',
    carrier: 'Australia Post',
    globalMail: false,
    scope: 'from-australia',
    cubicDivisor: 5000,
    base: [2200, 2800, 3500, 4300],
    perHalfKg: [420, 520, 680, 850],
  },
];

/** The service with this code (exact, case-sensitive), or `undefined`. */
export function serviceByCode(code: string): SandboxService | undefined {
  return SERVICES.find((s) => s.code === code);
}

/** A route: two-letter upper-case country codes and postcodes as sent. */
export interface ShippingRoute {
  collectionCountry: string;
  collectionPostcode: string;
  deliveryCountry: string;
  deliveryPostcode: string;
}

/** A package as the schemas give it: dimensions and weight in cm/kg (`cm`) or in/lb (`in`). */
interface RatedPackage {
  length: number;
  width: number;
  height: number;
  weight: number;
  unit: string;
}

// ---------------------------------------------------------------------------------------------
// Zones

/** Australian states and territories, keyed as the sandbox reads postcodes. */
type AustralianState = 'NSW' | 'VIC' | 'QLD' | 'SA' | 'WA' | 'TAS' | 'NT';

/**
 * The state of an Australian postcode, by its first digit: 2 NSW/ACT, 3 VIC, 4 QLD, 5 SA, 6 WA,
 * 7 TAS, 0 NT; the large-volume-receiver ranges 1 (NSW), 8 (VIC) and 9 (QLD) follow their state.
 * `undefined` when the postcode is not four digits.
 */
export function stateOfPostcode(postcode: string): AustralianState | undefined {
  const p = postcode.trim();
  if (!/^\d{4}$/.test(p)) return undefined;
  return STATE_BY_FIRST_DIGIT[p[0]!];
}

/** The state of a four-digit postcode by its first digit (see {@link stateOfPostcode}). */
const STATE_BY_FIRST_DIGIT: Readonly<Record<string, AustralianState>> = {
  '0': 'NT',
  '1': 'NSW',
  '2': 'NSW',
  '3': 'VIC',
  '4': 'QLD',
  '5': 'SA',
  '6': 'WA',
  '7': 'TAS',
  '8': 'VIC',
  '9': 'QLD',
};

/** States that share a border (TAS–VIC across Bass Strait). Symmetric. */
const NEIGHBOURING_STATES: Readonly<Record<AustralianState, readonly AustralianState[]>> = {
  NSW: ['VIC', 'QLD', 'SA'],
  VIC: ['NSW', 'SA', 'TAS'],
  QLD: ['NSW', 'SA', 'NT'],
  SA: ['NSW', 'VIC', 'QLD', 'WA', 'NT'],
  WA: ['SA', 'NT'],
  TAS: ['VIC'],
  NT: ['QLD', 'SA', 'WA'],
};

/**
 * Domestic zone between two Australian postcodes: 1 same state, 2 neighbouring states, 3
 * otherwise (also when a postcode is not four digits).
 */
export function domesticZone(fromPostcode: string, toPostcode: string): 1 | 2 | 3 {
  const from = stateOfPostcode(fromPostcode);
  const to = stateOfPostcode(toPostcode);
  if (from === undefined || to === undefined) return 3;
  if (from === to) return 1;
  return NEIGHBOURING_STATES[from].includes(to) ? 2 : 3;
}

/** Asia-Pacific countries (international zone 2). */
const ASIA_PACIFIC: ReadonlySet<string> = new Set([
  'JP',
  'SG',
  'HK',
  'CN',
  'ID',
  'MY',
  'TH',
  'PH',
  'KR',
  'TW',
  'VN',
  'KH',
  'LA',
  'MM',
  'BN',
  'MO',
  'TL',
  'IN',
  'LK',
  'BD',
  'NP',
  'FJ',
  'PG',
  'NC',
  'VU',
  'WS',
  'TO',
  'SB',
  'PF',
  'KI',
  'NR',
  'TV',
  'CK',
  'NU',
]);

/** United States, Canada, United Kingdom and the European Union (international zone 3). */
const US_CA_GB_EU: ReadonlySet<string> = new Set([
  'US',
  'CA',
  'GB',
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
]);

/** International zone of a country: NZ 1, Asia-Pacific 2, US/CA/GB/EU 3, anywhere else 4. */
export function countryZone(country: string): 1 | 2 | 3 | 4 {
  const c = country.toUpperCase();
  if (c === 'NZ') return 1;
  if (ASIA_PACIFIC.has(c)) return 2;
  if (US_CA_GB_EU.has(c)) return 3;
  return 4;
}

/** True when both ends of the route are in Australia. */
function isDomestic(route: ShippingRoute): boolean {
  return route.collectionCountry === 'AU' && route.deliveryCountry === 'AU';
}

/**
 * Zone of a route: domestic by postcodes ({@link domesticZone}); international by the country
 * that is not Australia (the destination, or the origin when inbound; the destination when neither
 * end is Australia).
 */
export function routeZone(route: ShippingRoute): number {
  if (isDomestic(route)) return domesticZone(route.collectionPostcode, route.deliveryPostcode);
  const foreign = route.deliveryCountry === 'AU' ? route.collectionCountry : route.deliveryCountry;
  return countryZone(foreign);
}

// ---------------------------------------------------------------------------------------------
// Weight

/** Subtracted before rounding up, so that 2.5 kg stays 2.5 kg despite float noise. */
const EPSILON = 1e-9;

/**
 * Chargeable weight of one package in half-kilogram steps: max(actual kg, cubic kg) rounded up to
 * the next 0.5 kg, at least one step. Cubic kg = L × W × H (cm) / `cubicDivisor`. Packages in
 * `in` (inches and pounds) are converted with 2.54 cm/in and 0.45359237 kg/lb.
 *
 * @example chargeableHalfKgSteps({length: 40, width: 30, height: 20, weight: 4.2, unit: 'cm'}, 4000) === 12 // 6 kg cubic
 */
export function chargeableHalfKgSteps(pkg: RatedPackage, cubicDivisor: number): number {
  const m = toMetric(pkg);
  const cubicKg = (m.lengthCm * m.widthCm * m.heightCm) / cubicDivisor;
  const kg = Math.max(m.weightKg, cubicKg);
  return Math.max(1, Math.ceil(kg * 2 - EPSILON));
}

/** Largest chargeable weight of one package the sandbox prices: 1000 kg (shared with validation, src/schema/limits.ts). */
const MAX_CHARGEABLE_KG = SANDBOX_MAX_CHARGEABLE_KG;

/**
 * Packages over {@link MAX_CHARGEABLE_KG}, as `{index, message}` (index into `packages`).
 * Checked before pricing; the routes report them as field errors.
 */
export function packageLimitProblems(packages: readonly RatedPackage[]): Array<{ index: number; message: string }> {
  const out: Array<{ index: number; message: string }> = [];
  packages.forEach((p, index) => {
    const kg = limitChargeableKg(p);
    if (!(kg <= MAX_CHARGEABLE_KG)) {
      const shown = Number.isFinite(kg) && kg < 1e9 ? `${Math.ceil(kg)} kg` : 'more';
      out.push({ index, message: `too heavy or too large: at most ${MAX_CHARGEABLE_KG} kg chargeable weight per package in the sandbox (got ${shown})` });
    }
  });
  return out;
}

/** Chargeable weight of a package in kg (a multiple of 0.5), for display and tests. */
export function chargeableKg(pkg: RatedPackage, cubicDivisor: number): number {
  return chargeableHalfKgSteps(pkg, cubicDivisor) / 2;
}

// ---------------------------------------------------------------------------------------------
// Price

/** Insurance rate: 1.5 % in basis points. */
const INSURANCE_RATE_BP = 150;
/** Insurance minimum when insured: 5.00 AUD in cents. */
const INSURANCE_MINIMUM_CENTS = 500;
/** GST rate on domestic services: 10 % in basis points. */
const GST_RATE_BP = 1000;

/** A price in AUD cents (every member an integer). */
export interface PriceCents {
  amount: Cents;
  insurance: Cents;
  gst: Cents;
  total: Cents;
}

/** The insurance fee for an insured value in cents: max(5.00, 1.5 %), half up; 0 when `insuredCents` is `undefined`. */
export function insuranceFee(insuredCents: Cents | undefined): Cents {
  if (insuredCents === undefined) return 0;
  return Math.max(INSURANCE_MINIMUM_CENTS, percentOf(insuredCents, INSURANCE_RATE_BP));
}

/**
 * The price of one shipment on one service in a zone (the route's, {@link routeZone}), in AUD cents.
 * @param insuredCents the insured value in cents, or `undefined` when not insured
 */
function priceOn(service: SandboxService, zone: number, packages: readonly RatedPackage[], insuredCents?: Cents): PriceCents {
  const base = service.base[zone - 1] ?? service.base[service.base.length - 1]!;
  const step = service.perHalfKg[zone - 1] ?? service.perHalfKg[service.perHalfKg.length - 1]!;
  const steps = packages.reduce((sum, p) => sum + chargeableHalfKgSteps(p, service.cubicDivisor), 0);
  const amount = base + step * steps;
  const insurance = insuranceFee(insuredCents);
  const gst = service.scope === 'domestic' ? percentOf(amount + insurance, GST_RATE_BP) : 0;
  return { amount, insurance, gst, total: amount + insurance + gst };
}

/** True when `service` may be used on `route`. Global mail: only from Australia to another country. */
function isOffered(service: SandboxService, route: ShippingRoute): boolean {
  switch (service.scope) {
    case 'domestic':
      return isDomestic(route);
    case 'international':
      return route.collectionCountry !== route.deliveryCountry;
    case 'from-australia':
      return route.collectionCountry === 'AU' && route.deliveryCountry !== 'AU';
  }
}

/** The services offered on a route, in catalogue order. */
export function servicesFor(route: ShippingRoute): SandboxService[] {
  return SERVICES.filter((s) => isOffered(s, route));
}

/** A service offered on a route with its price. */
export interface RatedService {
  service: SandboxService;
  price: PriceCents;
}

/**
 * Every service offered on `route` with its price for `packages` (interface document, "Get quote").
 * @param insuredCents the insured value in AUD cents, or `undefined` when not insured
 */
export function ratesFor(route: ShippingRoute, packages: readonly RatedPackage[], insuredCents?: Cents): RatedService[] {
  const zone = routeZone(route);
  return servicesFor(route).map((service) => ({ service, price: priceOn(service, zone, packages, insuredCents) }));
}

/** A shipment as far as pricing needs it (the create-order request form, after the schema). */
interface PricedShipment {
  collection?: { country: string; postcode: string } | undefined;
  delivery: { country: string; postcode: string };
  packages: readonly RatedPackage[];
  /** The insured value in cents (the declared item value) when the `insurance` option is chosen. */
  insuredCents?: Cents | undefined;
}

/** The route of a shipment. Without a collection (a `dropoff`) the shipment leaves Australia. */
function routeOf(shipment: Pick<PricedShipment, 'collection' | 'delivery'>): ShippingRoute {
  return {
    collectionCountry: shipment.collection?.country ?? 'AU',
    collectionPostcode: shipment.collection?.postcode ?? '',
    deliveryCountry: shipment.delivery.country,
    deliveryPostcode: shipment.delivery.postcode,
  };
}

/**
 * The price of a shipment on the service `serviceCode` (interface document, "Create order": the
 * exact price), or a reason when that service is unknown or not offered on the shipment's route.
 */
export function priceShipment(serviceCode: string, shipment: PricedShipment): { price: PriceCents; service: SandboxService } | { problem: string } {
  const route = routeOf(shipment);
  const tooBig = packageLimitProblems(shipment.packages)[0];
  if (tooBig !== undefined) return { problem: `packages[${tooBig.index}]: ${tooBig.message}` };
  const service = serviceByCode(serviceCode);
  if (service === undefined) {
    const offered = servicesFor(route).map((s) => s.code);
    return { problem: `unknown service ${serviceCode}; offered from ${route.collectionCountry} to ${route.deliveryCountry}: ${offered.join(', ')}` };
  }
  if (!isOffered(service, route)) {
    return { problem: `service ${service.code} is not offered from ${route.collectionCountry} to ${route.deliveryCountry}` };
  }
  return { service, price: priceOn(service, routeZone(route), shipment.packages, shipment.insuredCents) };
}

/** Sum of prices, member by member. */
export function sumPrices(prices: readonly PriceCents[]): PriceCents {
  return prices.reduce(
    (acc, p) => ({ amount: acc.amount + p.amount, insurance: acc.insurance + p.insurance, gst: acc.gst + p.gst, total: acc.total + p.total }),
    { amount: 0, insurance: 0, gst: 0, total: 0 },
  );
}
