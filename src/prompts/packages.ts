/**
 * The package questions (interface document, "Package"): the unit system once (cm/kg or in/lb),
 * then length, width, height and weight of each package, and "add another?". Each number is
 * checked by the Package schema's own field (a positive decimal).
 */
import { packageRequest, type PackageRequest } from '../schema/package.js';
import { askText, numberIfNumeric, type PromptIO } from './ask.js';

/** A package as files write it: numbers and `cm` (cm/kg) or `in` (in/lb). */
export type PackageInput = PackageRequest;

/** Options of {@link askPackages}. */
interface AskPackagesOptions {
  /** The unit system when already known (a flag or file), so it is not asked. */
  unit?: 'cm' | 'in';
  /** The earlier answers (when changed from the summary): each is the default. */
  previous?: ReadonlyArray<Partial<PackageInput>>;
}

/**
 * Asks for one or more packages; the unit system is asked once for all of them.
 * @returns at least one package
 */
export async function askPackages(io: PromptIO, o: AskPackagesOptions = {}): Promise<PackageInput[]> {
  const unit =
    o.unit ??
    (await io.prompter.select<'cm' | 'in'>({
      message: 'Units for the packages',
      choices: [
        { name: 'cm and kg', value: 'cm' },
        { name: 'inches and pounds', value: 'in' },
      ],
      default: o.previous?.[0]?.unit === 'in' ? 'in' : 'cm',
    }));
  const [size, mass] = unit === 'cm' ? ['cm', 'kg'] : ['in', 'lb'];
  const shape = packageRequest.shape;
  const packages: PackageInput[] = [];
  for (;;) {
    const n = packages.length + 1;
    const earlier = o.previous?.[n - 1];
    const ask = async (key: 'length' | 'width' | 'height' | 'weight', label: string) =>
      Number(
        await askText(io, {
          message: `Package ${n} ${label}`,
          schema: shape[key],
          convert: numberIfNumeric,
          ...(earlier?.[key] !== undefined ? { default: String(earlier[key]) } : {}),
        }),
      );
    const length = await ask('length', `length (${size})`);
    const width = await ask('width', `width (${size})`);
    const height = await ask('height', `height (${size})`);
    const weight = await ask('weight', `weight (${mass})`);
    packages.push({ length, width, height, weight, unit });
    if (!(await io.prompter.confirm({ message: 'Add another package?', default: (o.previous?.length ?? 0) > packages.length }))) return packages;
  }
}
