/**
 * `book --dry-run --format github|gitlab`: the inputs checked as `shipbook validate` checks them,
 * every problem printed as a CI annotation on stdout (src/output/annotations.ts) before the dry run
 * goes on; an input with an error ends the run there (exit 2, nothing planned, nothing sent).
 */
import type { Context } from '../../context.js';
import { UsageError, ValidationError } from '../../errors.js';
import { annotations, type AnnotationFormat } from '../../output/annotations.js';
import { wordIssues } from '../../output/issues.js';
import { checkFiles } from '../validate/index.js';
import type { CsvFlags } from '../common/csv-book-flags.js';

/**
 * Prints the inputs' problems as annotations in `format`.
 * @throws UsageError (exit 2) without `--dry-run` or without an input; ValidationError (exit 2,
 *   already reported) when an input has an error
 */
export async function annotateInputs(inputs: readonly string[], format: AnnotationFormat, csv: CsvFlags, ctx: Context): Promise<void> {
  if (!ctx.globals.dryRun) {
    throw new UsageError(`--format ${format} is for a rehearsal: book --dry-run --format ${format}`, {
      suggestion: 'Add --dry-run, or check the files with shipbook validate --format.',
    });
  }
  if (inputs.length === 0) throw new UsageError(`--format ${format} needs the files to check`);
  const reports = await checkFiles({ files: [...inputs], format, csv: { map: csv.map, delimiter: csv.delimiter, decimalComma: csv.decimalComma } }, ctx);
  ctx.io.out(
    annotations(
      format,
      reports.flatMap((r) => wordIssues(r.issues, ctx.settings.hints)),
    ),
  );
  const invalid = reports.filter((r) => !r.valid).length;
  if (invalid > 0)
    throw new ValidationError([], `${invalid} of ${reports.length} input${reports.length === 1 ? '' : 's'} with errors; nothing was sent`, { reported: true });
}
