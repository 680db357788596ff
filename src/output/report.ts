/**
 * The report of `shipbook validate` and the warnings of a sending command, for people: the
 * terminal side of src/input/format.ts (which only formats issues as text).
 */
import type { InputIssue } from '../errors.js';
import { formatIssues, issueLocation } from '../input/format.js';
import type { IOStreams } from '../io.js';
import type { OutputFormat } from './format.js';
import { shellCommand, type HintStyle } from '../shell.js';
import { paint } from './style.js';
import { renderTable } from './table.js';

/** Prints warnings on stderr, one per line: `file:line:col  path  warning: …` (nothing when there are none). */
export function printWarnings(io: Pick<IOStreams, 'err' | 'color'>, issues: readonly InputIssue[]): void {
  const warnings = issues.filter((i) => i.severity === 'warning');
  if (warnings.length > 0) io.err(`${paint(io, 'yellow', formatIssues(warnings))}\n`);
}

/** Problems of one file listed for people (the `table` format, and a validation error on a terminal's stderr); the rest are counted ("… and N more"). */
export const MAX_PROBLEMS_SHOWN = 50;

/** Where to read every problem of a file: `every problem: shipbook validate f.yaml --json`. */
export function everyProblemHint(file: string, hints: HintStyle): string {
  return file === '-' ? 'every problem with --json' : `every problem: ${shellCommand(hints, 'validate', file, '--json')}`;
}

/** One file's outcome, as {@link renderReports} prints it (see `FileReport` in src/input/validate.ts). */
export interface ReportLike {
  file: string;
  kind: string | null;
  valid: boolean;
  /** How many documents the file holds, when known. */
  documents?: number;
  issues: ReadonlyArray<InputIssue>;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `✔ fixtures/orders/x.yaml  order  valid` or `✖ … 2 errors, 1 warning`, for one file. */
function summaryLine(io: Pick<IOStreams, 'color'>, r: ReportLike): string {
  const errors = r.issues.filter((i) => i.severity === 'error').length;
  const warnings = r.issues.length - errors;
  const mark = r.valid ? paint(io, 'green', '✔') : paint(io, 'red', '✖');
  const what = r.valid
    ? `valid${warnings > 0 ? `, ${plural(warnings, 'warning')}` : ''}`
    : [plural(errors, 'error'), ...(warnings > 0 ? [plural(warnings, 'warning')] : [])].join(', ');
  const many = r.documents !== undefined && r.documents > 1 ? `  ${documentCount(r.documents, r.kind)}` : '';
  return `${mark} ${r.file}  ${r.kind ?? '?'}${many}  ${what}`;
}

/** `300 orders` (a file of orders), `3 consolidated bookings`, else `12 documents`. */
function documentCount(n: number, kind: string | null): string {
  return plural(n, kind === 'order' ? 'order' : kind === 'consolidated' ? 'consolidated booking' : 'document');
}

/**
 * Prints the outcome of `shipbook validate`. In the `table` format: a summary line per file, a table of
 * its first {@link MAX_PROBLEMS_SHOWN} problems (location, field, severity, problem), a line
 * counting the rest of each file, and a total, all on stdout. Otherwise:
 * one tab-separated line per problem on stdout (`file:line:col`, field path, `error`/`warning`,
 * message) and the summary lines on stderr, so scripts read only the problems.
 */
export function renderReports(io: IOStreams, format: OutputFormat, reports: ReadonlyArray<ReportLike>, hints: HintStyle): void {
  const row = (r: ReportLike) => (i: InputIssue) => [issueLocation(i) || r.file, i.path, i.severity, i.message];
  const invalid = reports.filter((r) => !r.valid).length;
  // The documents counted too when a file holds more than one: "1 file checked (300 orders)".
  const counted = reports.every((r) => r.documents !== undefined) ? reports.reduce((n, r) => n + (r.documents ?? 0), 0) : undefined;
  const kinds = new Set(reports.map((r) => r.kind));
  const documents = counted !== undefined && counted > reports.length ? ` (${documentCount(counted, kinds.size === 1 ? [...kinds][0]! : null)})` : '';
  const total = `${plural(reports.length, 'file')} checked${documents}: ${reports.length - invalid} valid, ${invalid} with errors`;
  const lines = reports.map((r) => summaryLine(io, r)).join('\n');
  if (format === 'table') {
    // A person reads the first problems of a file; the rest are counted (all of them in --json).
    const rows = reports.flatMap((r) => r.issues.slice(0, MAX_PROBLEMS_SHOWN).map(row(r)));
    const more = reports
      .filter((r) => r.issues.length > MAX_PROBLEMS_SHOWN)
      .map((r) => `… and ${r.issues.length - MAX_PROBLEMS_SHOWN} more in ${r.file} (${everyProblemHint(r.file, hints)})`);
    io.out(`${lines}\n`);
    if (rows.length > 0) {
      const severity = (cell: string): 'red' | 'yellow' => (cell === 'error' ? 'red' : 'yellow');
      io.out(
        renderTable(
          io,
          format,
          [
            { header: 'location', minWidth: 16, breakAfter: '/:.-' },
            { header: 'field', minWidth: 12, breakAfter: '.]' },
            { header: 'severity', atomic: true, style: severity },
            { header: 'problem', minWidth: 20 },
          ],
          rows,
        ),
      );
    }
    if (more.length > 0) io.out(`${more.join('\n')}\n`);
    io.out(`${total}\n`);
    return;
  }
  const rows = reports.flatMap((r) => r.issues.map(row(r)));
  io.out(renderTable(io, format, [], rows));
  io.err(`${lines}\n${total}\n`);
}
