/** Package: interface document, "Package". `cm` = centimetres and kilograms, `in` = inches and pounds. */
import * as z from 'zod';
import { lazySchema } from './lazy.js';
import { describe, packageUnit, positiveDecimal } from './common.js';

/** A package in request form: positive dimensions and weight, unit `cm` (cm/kg) or `in` (in/lb). */
export const packageRequest = lazySchema(() =>
  z.strictObject(
    {
      length: positiveDecimal,
      width: positiveDecimal,
      height: positiveDecimal,
      weight: positiveDecimal,
      unit: packageUnit,
    },
    { error: (iss) => (iss.input === undefined ? 'required' : `expected a package (got ${describe(iss.input)})`) },
  ),
);
/** One package as {@link packageRequest} reads it: dimensions and weight in `cm`/kg or `in`/lb, as `unit` says. */
export type PackageRequest = z.output<typeof packageRequest>;

/** Lists of packages: at least one. */
export const packagesRequest = lazySchema(() =>
  z
    .array(packageRequest, { error: (iss) => (iss.input === undefined ? 'required' : `expected a list of packages (got ${describe(iss.input)})`) })
    .min(1, { error: 'at least 1 package' }),
);

const numberLike = lazySchema(() => z.union([z.number(), z.string()]).transform((v) => Number(v)));

/**
 * A package in a response. The unit arrives as `unit_weight`, upper- or lower-case; it is read
 * into `unit` (lower-case), whichever name and case the service used.
 */
export const packageResponse = lazySchema(() =>
  z
    .looseObject({
      length: numberLike.optional(),
      width: numberLike.optional(),
      height: numberLike.optional(),
      weight: numberLike.optional(),
      unit: z.string().optional(),
      unit_weight: z.string().optional(),
    })
    .transform(({ unit_weight, unit, ...rest }) => {
      const raw = (unit ?? unit_weight ?? '').toLowerCase();
      return { ...rest, unit: raw === 'cm' || raw === 'in' ? (raw as 'cm' | 'in') : raw };
    }),
);

/** Units of a package converted to centimetres and kilograms (1 in = 2.54 cm, 1 lb = 0.45359237 kg). */
export function toMetric(p: { length: number; width: number; height: number; weight: number; unit: string }): {
  lengthCm: number;
  widthCm: number;
  heightCm: number;
  weightKg: number;
} {
  if (p.unit.toLowerCase() === 'in') {
    return { lengthCm: p.length * 2.54, widthCm: p.width * 2.54, heightCm: p.height * 2.54, weightKg: p.weight * 0.45359237 };
  }
  return { lengthCm: p.length, widthCm: p.width, heightCm: p.height, weightKg: p.weight };
}
