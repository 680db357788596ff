/** Formatting input problems as `file:line:col  path  message`, one per line (the validation report for people is src/output/report.ts). */
import type { InputIssue } from '../errors.js';

/** `orders/tuesday.yaml:14:9`, or for a spreadsheet `orders.csv:14:delivery_postcode` (or the parts known), for one issue. */
export function issueLocation(issue: InputIssue): string {
  if (!issue.file) return '';
  if (issue.line === undefined) return issue.file;
  const column = issue.column_name ?? issue.column;
  return `${issue.file}:${issue.line}${column === undefined ? '' : `:${column}`}`;
}

/** One line per issue: `file:line:col  path  message` (`warning:` before warnings). */
export function formatIssues(issues: ReadonlyArray<InputIssue>): string {
  return issues
    .map((i) => [issueLocation(i), i.path, `${i.severity === 'warning' ? 'warning: ' : ''}${i.message}`].filter((s) => s !== '').join('  '))
    .join('\n');
}
