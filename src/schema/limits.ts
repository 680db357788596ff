/**
 * Limits shared by validation and the built-in sandbox.
 *
 * The interface document gives the 35-character name/description limits of create order and the
 * 1 MiB request limit; it is silent on the length of the other free-text fields, so these are
 * sane caps (far above any real value, far below what would make a request too large), chosen so
 * that a 4,000,000-character postcode is an error in `validate` instead of a 413 from the service.
 * The sandbox takes its constants from here (src/sandbox/server.ts MAX_BODY_BYTES, the package
 * limit in src/sandbox/rates.ts), so validation and the sandbox cannot drift apart.
 */

import { toMetric } from './package.js';

/** Largest request body the service accepts, in bytes (1 MiB; the sandbox answers 413 above it). */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/** Caps, in characters (code points), of free-text fields the interface document gives no limit for. */
export const TEXT_LIMITS = {
  /** Phone numbers. */
  phone: 40,
  /** Postcodes (any country). */
  postcode: 20,
  /** City or suburb names. */
  city: 100,
  /** Free-text descriptions and names where the service states no limit (consolidated-mail forms). */
  text: 200,
  /** Service codes (`AUS_PARCEL_REGULAR`). */
  code: 64,
  /** Ids the service hands out (shipment ids). */
  id: 64,
} as const;

/**
 * Largest chargeable weight of one package the built-in sandbox prices, kg: max(actual kg, road
 * cubic kg = L × W × H cm / {@link SANDBOX_LIMIT_CUBIC_DIVISOR}). A sandbox limit (prices stay
 * exact integers); the real service's is not shown, so validation warns rather than refuses.
 */
export const SANDBOX_MAX_CHARGEABLE_KG = 1000;

/** Divisor of the road cubic weight used for {@link SANDBOX_MAX_CHARGEABLE_KG}: cm³ per kg. */
const SANDBOX_LIMIT_CUBIC_DIVISOR = 4000;

/**
 * Chargeable weight of a package for the sandbox's limit, kg (see {@link SANDBOX_MAX_CHARGEABLE_KG});
 * `unit` `in` means inches and pounds (converted by {@link toMetric}).
 */
export function limitChargeableKg(p: { length: number; width: number; height: number; weight: number; unit: string }): number {
  const m = toMetric(p);
  return Math.max(m.weightKg, (m.lengthCm * m.widthCm * m.heightCm) / SANDBOX_LIMIT_CUBIC_DIVISOR);
}
