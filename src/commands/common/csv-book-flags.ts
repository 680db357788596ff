/**
 * The spreadsheet flags of `shipbook book`: `--map`, `--input-format`, `--delimiter` and
 * `--decimal-comma`, parsed into how the batch reads its CSV inputs (src/booking/batch/inputs.ts).
 */
import type { BatchInputOptions } from '../../booking/index.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { CsvDelimiter } from '../../input/csv-bytes.js';
import { loadCsvMapping } from '../../input/csv-map.js';
import { readAll } from '../../stream.js';

/** The flags as commander gives them. */
export interface CsvFlags {
  map?: string;
  inputFormat?: string;
  delimiter?: string;
  decimalComma?: boolean;
}

/** The flags, checked. */
export interface CsvSettings {
  map?: string;
  format?: 'csv' | 'tsv';
  delimiter?: CsvDelimiter;
  decimalComma: boolean;
}

/** True when a spreadsheet flag was given (such a run is a batch). */
export function hasCsvFlags(flags: CsvFlags): boolean {
  return flags.map !== undefined || flags.inputFormat !== undefined || flags.delimiter !== undefined || flags.decimalComma === true;
}

const DELIMITER_NAMES: Record<string, CsvDelimiter> = { ',': ',', comma: ',', ';': ';', semicolon: ';', tab: '\t', '\t': '\t', '\\t': '\t' };

/** Checks the flags. @throws UsageError (exit 2) */
export function csvSettings(flags: CsvFlags): CsvSettings {
  const format = flags.inputFormat?.toLowerCase();
  if (format !== undefined && format !== 'csv' && format !== 'tsv') {
    throw new UsageError(`--input-format must be csv or tsv (got "${flags.inputFormat}")`, {
      suggestion:
        'YAML, JSON and NDJSON inputs are told from their content; --input-format is for spreadsheets, e.g. "-" (standard input) with --input-format csv.',
    });
  }
  let delimiter: CsvDelimiter | undefined;
  if (flags.delimiter !== undefined) {
    delimiter = DELIMITER_NAMES[flags.delimiter.toLowerCase()];
    if (delimiter === undefined) throw new UsageError(`--delimiter must be , ; or tab (got "${flags.delimiter}")`);
  }
  if (flags.decimalComma && delimiter !== undefined && delimiter !== ';') {
    throw new UsageError('--decimal-comma is for files delimited by ";" (with "," or tab a comma separates cells)', {
      suggestion: 'Give --delimiter ";" with it, or leave --delimiter out to tell it from the header row.',
    });
  }
  return {
    ...(flags.map !== undefined ? { map: flags.map } : {}),
    ...(format ? { format } : {}),
    ...(delimiter ? { delimiter } : {}),
    decimalComma: flags.decimalComma === true,
  };
}

/**
 * How the batch reads its inputs: the mapping file loaded and checked, the profile's saved
 * senders for `@name` (read when a file has a sender column), standard input read once.
 * @throws ValidationError (exit 2) for a mapping file with problems; ConfigError (exit 4) from the profile
 */
export async function csvBatchInput(s: CsvSettings, ctx: Context): Promise<BatchInputOptions> {
  const mapping = s.map !== undefined ? await loadCsvMapping(s.map) : undefined;
  let stdin: Promise<Buffer> | undefined;
  return {
    ...(s.format ? { format: s.format } : {}),
    csv: {
      ...(s.delimiter ? { delimiter: s.delimiter } : {}),
      decimalComma: s.decimalComma,
      ...(mapping ? { mapping } : {}),
      // The profile is read only for a file with a sender column (a dry run of YAML needs none).
      senders: async () => {
        const profile = await ctx.profile();
        return { senders: profile.senders, profile: profile.name };
      },
      now: () => ctx.now(),
    },
    stdin: () => (stdin ??= readAll(ctx.io.stdin)),
    ...(ctx.pickup !== undefined ? { pickup: ctx.pickup } : {}),
    addresses: ctx.settings.addresses,
  };
}
