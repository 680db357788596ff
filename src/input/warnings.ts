/**
 * Warnings: what is allowed by the interface document but is probably a mistake. They are shown
 * (`file:line:col  path  warning: …` on stderr, or in `shipbook validate`) and never block
 * sending. They read the validated value, so every kind that holds pickups or packages (orders,
 * shipments, combine, quotes, and any kind added later) gets them without further code.
 */
import { formatPath, type SchemaProblem } from '../schema/issues.js';
import { SANDBOX_MAX_CHARGEABLE_KG, limitChargeableKg } from '../schema/limits.js';
import { QUOTE_ENTRY_EXTRAS } from '../schema/shipment.js';
import { addressProblems, e164Phone } from '../address/checks.js';

/** A warning; `address` marks those of the address checks, which `--strict-addresses` makes errors. */
export interface Warning extends SchemaProblem {
  address?: true;
}

/** The two addresses of a quote, written flat (`collection_postcode`, `delivery_city` …). */
const ROUTE_PREFIXES = ['collection_', 'delivery_'] as const;

/** `v[key]` when it is text. */
function textAt(v: Record<string, unknown>, key: string): string | undefined {
  const x = v[key];
  return typeof x === 'string' ? x : undefined;
}

/** A single package heavier than this is probably a mistake in the weight or the unit (kg). */
const HEAVY_PACKAGE_KG = 30;
/** Pounds in one kilogram's reciprocal: 1 lb = 0.45359237 kg. */
const KG_PER_LB = 0.45359237;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A weight shown to people: at most two decimals. */
function showWeight(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/**
 * Warnings for a validated document (any kind), each with its field path:
 *
 * - a package over {@link HEAVY_PACKAGE_KG} kg (`unit: in` weights are pounds and converted),
 *   which is often a weight typed in grams or the wrong unit;
 * - a package over the sandbox's limit of {@link SANDBOX_MAX_CHARGEABLE_KG} kg chargeable weight
 *   (actual or cubic): the sandbox refuses it, the real service's limit is not shown, so it is a
 *   warning;
 * - an address (an object with `country` and `postcode` or `phone`, or a quote's flat
 *   `collection_…`/`delivery_…` route) whose postcode, suburb, state or phone number the address
 *   checks question (src/address/checks.ts), marked `address`.
 */
export function collectWarnings(value: unknown): Warning[] {
  const out: Warning[] = [];
  // `path` is the one stack of the walk (pushed and popped as it goes): a warning copies it.
  const warn = (segments: PropertyKey[], message: string, address?: true) =>
    out.push({ segments, path: formatPath(segments), message, ...(address ? { address } : {}) });

  const walk = (v: unknown, path: PropertyKey[]): void => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        walk(v[i], path);
        path.pop();
      }
      return;
    }
    if (!isPlainObject(v)) return;
    const country = textAt(v, 'country');
    if (country !== undefined && ('postcode' in v || 'phone' in v)) {
      const lines = Array.isArray(v.address_lines) ? v.address_lines.filter((l): l is string => typeof l === 'string') : undefined;
      const problems = addressProblems({ country, postcode: textAt(v, 'postcode'), city: textAt(v, 'city'), phone: textAt(v, 'phone'), address_lines: lines });
      for (const p of problems) warn([...path, p.field], p.message, true);
    }
    for (const prefix of ROUTE_PREFIXES) {
      const routeCountry = textAt(v, `${prefix}country`);
      if (routeCountry === undefined) continue;
      const problems = addressProblems({ country: routeCountry, postcode: textAt(v, `${prefix}postcode`), city: textAt(v, `${prefix}city`) });
      for (const p of problems) warn([...path, `${prefix}${p.field === 'address_lines' ? 'city' : p.field}`], p.message, true);
    }
    // At least one customs item is stated for create order only (its schema refuses an empty list).
    const customs = v.customs_information;
    if (isPlainObject(customs) && Array.isArray(customs.items) && customs.items.length === 0) {
      warn([...path, 'customs_information', 'items'], 'no customs item: allowed here, but the service may refuse it (create order requires at least one)');
    }
    if (Array.isArray(v.packages)) {
      v.packages.forEach((p, i) => {
        if (!isPlainObject(p) || typeof p.weight !== 'number') return;
        const pounds = typeof p.unit === 'string' && p.unit.toLowerCase() === 'in';
        const kg = pounds ? p.weight * KG_PER_LB : p.weight;
        if (kg > HEAVY_PACKAGE_KG) {
          const shown = pounds ? `${showWeight(p.weight)} lb = ${showWeight(kg)} kg` : `${showWeight(kg)} kg`;
          warn([...path, 'packages', i, 'weight'], `over ${HEAVY_PACKAGE_KG} kg for one package (got ${shown}); check the weight and the unit`);
        }
        if (typeof p.length === 'number' && typeof p.width === 'number' && typeof p.height === 'number' && typeof p.unit === 'string') {
          const chargeable = limitChargeableKg({ length: p.length, width: p.width, height: p.height, weight: p.weight, unit: p.unit });
          if (!(chargeable <= SANDBOX_MAX_CHARGEABLE_KG)) {
            const shown = Number.isFinite(chargeable) && chargeable < 1e9 ? `${Math.ceil(chargeable)} kg` : 'more';
            warn(
              [...path, 'packages', i],
              `chargeable weight ${shown} (actual or cubic, L×W×H cm / 4000) is over the sandbox's limit of ${SANDBOX_MAX_CHARGEABLE_KG} kg per package: the sandbox refuses it (the real service's limit is not documented)`,
            );
          }
        }
      });
    }
    for (const key in v) {
      if (!Object.hasOwn(v, key)) continue;
      const child = v[key];
      // Only arrays and objects can hold what is warned about.
      if (child === null || typeof child !== 'object') continue;
      path.push(key);
      walk(child, path);
      path.pop();
    }
  };
  walk(value, []);
  return out;
}

/**
 * Warnings read from the document as written, before the schema drops what it does not send: a
 * quote service entry pasted whole as a shipment's `service` (`name`, `carrier`, `global_mail`,
 * `price` beside `code`) is accepted and only its `code` and `options` are sent ("Create order":
 * only the code and options of a quote service object are used). Said once per document, at the
 * first such service, with the number of services it applies to.
 */
export function inputWarnings(data: unknown): SchemaProblem[] {
  let first: { segments: PropertyKey[]; fields: string[] } | undefined;
  let count = 0;
  const fields = new Set<string>();
  // `path` is the one stack of the walk, as in collectWarnings.
  const walk = (v: unknown, path: PropertyKey[]): void => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        walk(v[i], path);
        path.pop();
      }
      return;
    }
    if (!isPlainObject(v)) return;
    const service = v.service;
    if (isPlainObject(service) && 'code' in service) {
      const extra = QUOTE_ENTRY_EXTRAS.filter((k) => k in service);
      if (extra.length > 0) {
        count++;
        extra.forEach((k) => fields.add(k));
        first ??= { segments: [...path, 'service'], fields: extra };
      }
    }
    for (const key in v) {
      if (key === 'service' || !Object.hasOwn(v, key)) continue;
      const child = v[key];
      if (child === null || typeof child !== 'object') continue;
      path.push(key);
      walk(child, path);
      path.pop();
    }
  };
  walk(data, []);
  if (first === undefined) return [];
  const others = count > 1 ? ` (in ${count} services of this document)` : '';
  const listed = [...fields].join(', ');
  return [
    {
      segments: first.segments,
      path: formatPath(first.segments),
      message: `a quote service entry: only its code and options are sent; ${listed} ${fields.size === 1 ? 'is' : 'are'} ignored${others}`,
    },
  ];
}

/**
 * A copy of a validated document whose addresses' phone numbers are in E.164 (`+61412555019`)
 * where they can be read as numbers of the address's country (`--normalize-phones`); numbers
 * that cannot be read are left as written (their warning says why). The value is not changed.
 */
export function withE164Phones<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isPlainObject(v)) return v;
    const out: Record<string, unknown> = {};
    for (const key in v) if (Object.hasOwn(v, key)) out[key] = walk(v[key]);
    if (typeof v.country === 'string' && typeof v.phone === 'string' && v.phone.trim() !== '') out.phone = e164Phone(v.phone, v.country);
    return out;
  };
  return walk(value) as T;
}
