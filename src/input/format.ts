/** Formatting input problems as `file:line:col  path  message`, one per line, and validation reports. */
import type { InputIssue } from '../errors.js';
import type { IOStreams } from '../io.js';
import { paint } from '../output/style.js';
import { renderTable } from '../output/table.js';

/** `orders/tuesday.yaml:14:9` (or the parts known), for one issue. */
export function issueLocation(issue: InputIssue): string {
  if (!issue.file) return '';
  if (issue.line === undefined) return issue.file;
  return `${issue.file}:${issue.line}${issue.column === undefined ? '' : `:${issue.column}`}`;
}

/** One line per issue: `file:line:col  path  message` (`warning:` before warnings). */
export function formatIssues(issues: ReadonlyArray<InputIssue>): string {
  return issues
    .map((i) => [issueLocation(i), i.path, `${i.severity === 'warning' ? 'warning: ' : ''}${i.message}`].filter((s) => s !== '').join('  '))
    .join('\n');
}

/** One file's outcome, as {@link renderReports} prints it (see `FileReport` in `validate.ts`). */
export interface ReportLike {
  file: string;
  kind: string | null;
  valid: boolean;
  issues: ReadonlyArray<InputIssue>;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `✔ fixtures/orders/x.yaml  order  valid` or `✖ … 2 errors, 1 warning`, for one file. */
export function summaryLine(io: Pick<IOStreams, 'color'>, r: ReportLike): string {
  const errors = r.issues.filter((i) => i.severity === 'error').length;
  const warnings = r.issues.length - errors;
  const mark = r.valid ? paint(io, 'green', '✔') : paint(io, 'red', '✖');
  const what = r.valid
    ? `valid${warnings > 0 ? `, ${plural(warnings, 'warning')}` : ''}`
    : [plural(errors, 'error'), ...(warnings > 0 ? [plural(warnings, 'warning')] : [])].join(', ');
  return `${mark} ${r.file}  ${r.kind ?? '?'}  ${what}`;
}

/**
 * Prints the outcome of `shipbook validate`. On a terminal: a summary line per file, a table of
 * every problem (location, field, severity, problem) and a total, all on stdout. Without one:
 * one tab-separated line per problem on stdout (`file:line:col`, field path, `error`/`warning`,
 * message) and the summary lines on stderr, so scripts read only the problems.
 */
export function renderReports(io: IOStreams, reports: ReadonlyArray<ReportLike>): void {
  const rows = reports.flatMap((r) => r.issues.map((i) => [issueLocation(i) || r.file, i.path, i.severity, i.message]));
  const invalid = reports.filter((r) => !r.valid).length;
  const total = `${plural(reports.length, 'file')} checked: ${reports.length - invalid} valid, ${invalid} with errors`;
  const lines = reports.map((r) => summaryLine(io, r)).join('\n');
  if (io.stdoutIsTTY) {
    io.out(`${lines}\n`);
    if (rows.length > 0) {
      const painted = rows.map(([loc, path, severity, message]) => [loc!, path!, paint(io, severity === 'error' ? 'red' : 'yellow', severity!), message!]);
      io.out(renderTable(io, [{ header: 'location' }, { header: 'field' }, { header: 'severity' }, { header: 'problem' }], painted));
    }
    io.out(`${total}\n`);
    return;
  }
  io.out(renderTable(io, [], rows));
  io.err(`${lines}\n${total}\n`);
}
