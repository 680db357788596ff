/**
 * `shipbook validate <files...>`: checks input files offline (no request is sent, no profile or
 * credentials are read) and reports every problem with file, line, column and field path.
 * Exit code 0 when every file is valid (warnings allowed), 2 when any has an error.
 */
import { pickupRule } from '../../booking/index.js';
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { UsageError, ValidationError } from '../../errors.js';
import { renderReports } from '../../output/report.js';
import { wordIssues } from '../../output/issues.js';
import { KIND_NAMES, type KindName } from '../../input/kinds.js';
import { validateFiles, type FileReport } from '../../input/validate.js';
import { isCsvName } from '../../input/csv-layout.js';
import type { CsvFlags } from '../common/csv-book-flags.js';
import { annotations, ANNOTATION_FORMATS, type AnnotationFormat } from '../../output/annotations.js';

/** Options of `validate`. */
interface ValidateOptions {
  /** Files, directories (every .json/.yaml/.yml/.ndjson/.jsonl file under them) and `-` for standard input. */
  files: string[];
  /** Check every file as this kind instead of detecting it from its content. */
  kind?: KindName;
  /** How spreadsheets (.csv, .tsv) are read: `--map`, `--delimiter`, `--decimal-comma`. */
  csv?: CsvFlags;
  /** `--format github|gitlab`: every problem as a CI annotation on stdout instead of the report. */
  format?: AnnotationFormat;
}

/**
 * Validates the files and prints the reports in the run's format (a table for `table`,
 * tab-separated lines for `tsv`, an array of `{file, kind, valid, issues}` in a machine format).
 * @returns the reports
 * @throws UsageError (exit 2) when `-` is given twice; ValidationError (exit 2) when any file has an error.
 */
async function runValidate(o: ValidateOptions, ctx: Context): Promise<FileReport[]> {
  // Each problem's next step in words, for the run's shell and profile: the same in every format.
  const reports = (await checkFiles(o, ctx)).map((r) => ({ ...r, issues: wordIssues(r.issues, ctx.settings.hints) }));
  if (o.format !== undefined)
    ctx.io.out(
      annotations(
        o.format,
        reports.flatMap((r) => r.issues),
      ),
    );
  else if (ctx.json) ctx.output.data(reports);
  else renderReports(ctx.io, ctx.output.format, reports, ctx.settings.hints);
  const invalid = reports.filter((r) => !r.valid).length;
  if (invalid > 0) {
    // The reports are the output (with --json, the only JSON document on stdout): the error only
    // sets exit code 2 and says so on stderr, without repeating the problems.
    throw new ValidationError([], `${invalid} of ${reports.length} file${reports.length === 1 ? '' : 's'} ${invalid === 1 ? 'has' : 'have'} errors`, {
      reported: true,
    });
  }
  return reports;
}

/**
 * Checks the files as `validate` does (offline; the profile's saved senders and pickup settings
 * when it can be read) and returns one report per file; prints nothing. `book --dry-run --format`
 * checks its inputs with it too.
 * @throws UsageError (exit 2) when `-` is given twice, or `--format` with a machine output
 */
export async function checkFiles(o: ValidateOptions, ctx: Context): Promise<FileReport[]> {
  if (o.format !== undefined && (ctx.globals.json || ctx.globals.output !== undefined || ctx.globals.quiet)) {
    throw new UsageError(
      `--format ${o.format} and ${ctx.globals.quiet ? '--quiet' : ctx.globals.json ? '--json' : `--output ${ctx.globals.output}`} ask for two outputs`,
      {
        suggestion: 'Give one of them.',
      },
    );
  }
  if (o.files.filter((f) => f === '-').length > 1) throw new UsageError('"-" (standard input) can be given only once');
  // Saved senders for `collection: "@name"` (no credentials are read; a broken config just means none).
  const senders = await ctx.profile().then(
    (p) => ({ senders: p.senders, profile: p.name }),
    () => ({ senders: undefined, profile: ctx.globals.profile ?? 'the active profile' }),
  );
  // Pickup dates are checked as book checks them: `next` resolved, a day no carrier collects on an
  // error. The profile's pickup settings apply; a broken configuration means the defaults.
  const pickup = await pickupRule(
    await ctx.profile().then(
      (p) => p.pickup,
      () => undefined,
    ),
    {},
    () => ctx.now(),
  );
  // Standard input is opened only for a run that reads "-".
  const options = {
    kind: o.kind,
    now: () => ctx.now(),
    stdin: o.files.includes('-') ? ctx.io.stdin : undefined,
    senders,
    pickup,
    addresses: ctx.settings.addresses,
  };
  // A spreadsheet (.csv, .tsv) holds orders in rows: its orders are checked as one file's report.
  const reports: FileReport[] = [];
  if (!o.files.some(isCsvName)) reports.push(...(await validateFiles(o.files, options)));
  else {
    // The CSV reader (csv-parse, the column mapping) is loaded only for a run that reads a spreadsheet.
    const [{ validateCsvFile }, { loadCsvMapping }, { csvSettings }] = await Promise.all([
      import('../../input/csv.js'),
      import('../../input/csv-map.js'),
      import('../common/csv-book-flags.js'),
    ]);
    const csv = csvSettings(o.csv ?? {});
    const mapping = csv.map !== undefined ? await loadCsvMapping(csv.map) : undefined;
    const reading = {
      now: options.now,
      senders,
      pickup,
      addresses: ctx.settings.addresses,
      decimalComma: csv.decimalComma,
      ...(csv.delimiter ? { delimiter: csv.delimiter } : {}),
      ...(mapping ? { mapping } : {}),
    };
    for (const f of o.files) reports.push(...(isCsvName(f) ? [await validateCsvFile({ file: f }, reading)] : await validateFiles([f], options)));
  }
  return reports;
}

/** The `validate` command. */
export function validateCommand(ctx: Context): Command {
  return new Command('validate')
    .summary('check input files offline: every problem with its line and field')
    .description(
      'Check input files (quotes, orders, payments, shipments, combine and\n' +
        'consolidated files) offline: nothing is sent, no credentials are read.\n' +
        'Every problem is reported at once, with file:line:col and field path.\n' +
        'A file of many orders, as book reads one (NDJSON: one order per line; a\n' +
        'JSON array; YAML documents separated by ---), is checked order by order.\n' +
        'A directory stands for every .json, .yaml, .yml, .ndjson and .jsonl file\n' +
        'under it; "-" reads standard input. The kind of each document is told\n' +
        'from its content unless --kind is given. Exit code 0 when every file is\n' +
        'valid (warnings allowed), 2 when any file has an error.',
    )
    .argument('<files...>', 'files, directories or "-" for standard input')
    .addOption(new Option('--kind <kind>', 'check every file as this kind').choices(KIND_NAMES))
    .option('--map <mapping.yaml>', "CSV: read the spreadsheets' own headers through a mapping (as shipbook book --map)")
    .option('--delimiter <,|;|tab>', 'CSV: the cell delimiter (default: told from the header row)')
    .option('--decimal-comma', 'CSV delimited by ";": numbers are written with a decimal comma (2,5)')
    .addOption(
      new Option('--format <github|gitlab>', 'every problem as a CI annotation on stdout: GitHub workflow commands, or a GitLab code-quality report').choices(
        ANNOTATION_FORMATS,
      ),
    )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  shipbook validate fixtures/orders/*.yaml\n' +
        '  shipbook validate fixtures/\n' +
        '  shipbook validate fixtures/batch/orders.ndjson\n' +
        '  shipbook validate --kind order - < order.yaml\n' +
        '  shipbook validate fixtures/ --json\n' +
        '  shipbook validate fixtures/csv/shopify-orders.csv --map fixtures/csv/shopify.map.yaml\n' +
        '  shipbook validate fixtures/orders/ --format github   # ::error file=…,line=…,col=… for GitHub Actions\n' +
        '  shipbook validate fixtures/orders/ --format gitlab > gl-code-quality-report.json\n',
    )
    .action(async (files: string[], flags: { kind?: KindName; format?: AnnotationFormat } & CsvFlags) => {
      await runValidate(
        { files, kind: flags.kind, format: flags.format, csv: { map: flags.map, delimiter: flags.delimiter, decimalComma: flags.decimalComma } },
        ctx,
      );
    });
}
