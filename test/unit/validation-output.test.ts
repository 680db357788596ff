/** How `shipbook validate` prints its reports (src/input/format.ts): a table on a terminal, tab-separated lines otherwise. */
import { PLAIN_HINTS } from '../../src/shell.js';
import { describe, expect, it } from 'vitest';
import type { InputIssue } from '../../src/errors.js';
import { formatIssues } from '../../src/input/format.js';
import { renderReports, type ReportLike } from '../../src/output/report.js';
import { bufferIO } from '../helpers/run.js';
import { prepareTables } from '../../src/output/table.js';

await prepareTables();

const io = (tty: boolean) => bufferIO({ tty });

const issue = (over: Partial<InputIssue>): InputIssue => ({
  file: 'orders/tuesday.yaml',
  line: 14,
  column: 9,
  path: '',
  message: '',
  severity: 'error',
  ...over,
});
const reports: ReportLike[] = [
  { file: 'orders/monday.yaml', kind: 'order', valid: true, issues: [] },
  {
    file: 'orders/tuesday.yaml',
    kind: 'order',
    valid: false,
    issues: [
      issue({ path: 'order.shipments[0].delivery.address_lines[1]', message: 'at most 35 characters (got 41)' }),
      issue({ line: 20, column: 11, path: 'order.shipments[0].packages[0].weight', message: 'over 30 kg for one package (got 31 kg)', severity: 'warning' }),
    ],
  },
  {
    file: 'orders/junk.bin',
    kind: null,
    valid: false,
    issues: [issue({ file: 'orders/junk.bin', line: 1, column: 3, message: 'is a binary file, not JSON or YAML' })],
  },
];

describe('validate output', () => {
  it('without a terminal: one tab-separated line per problem on stdout, the summaries on stderr', () => {
    const s = io(false);
    renderReports(s, 'tsv', reports, PLAIN_HINTS);
    expect(s.stdoutText()).toBe(
      'orders/tuesday.yaml:14:9\torder.shipments[0].delivery.address_lines[1]\terror\tat most 35 characters (got 41)\n' +
        'orders/tuesday.yaml:20:11\torder.shipments[0].packages[0].weight\twarning\tover 30 kg for one package (got 31 kg)\n' +
        'orders/junk.bin:1:3\t\terror\tis a binary file, not JSON or YAML\n',
    );
    expect(s.stderrText()).toBe(
      '✔ orders/monday.yaml  order  valid\n' +
        '✖ orders/tuesday.yaml  order  1 error, 1 warning\n' +
        '✖ orders/junk.bin  ?  1 error\n' +
        '3 files checked: 1 valid, 2 with errors\n',
    );
  });

  it('on a terminal: summaries, a table of problems and the total on stdout', () => {
    const s = io(true);
    renderReports(s, 'table', reports, PLAIN_HINTS);
    const out = s.stdoutText();
    expect(out).toMatch(/^✔ orders\/monday\.yaml {2}order {2}valid\n✖ orders\/tuesday\.yaml {2}order {2}1 error, 1 warning\n/);
    expect(out).toMatch(/│ location +│ field +│ severity │ problem +│/);
    expect(out).toMatch(/│ orders\/tuesday\.yaml:14:9 +│ order\.shipments\[0\]\.delivery\.address_lines\[1\] │ error +│ at most 35 characters \(got 41\) +│/);
    expect(out.trimEnd().split('\n').at(-1)).toBe('3 files checked: 1 valid, 2 with errors');
    expect(s.stderrText()).toBe('');
  });

  it('formats one issue per line as file:line:col  path  message, warnings marked', () => {
    expect(formatIssues(reports[1]!.issues)).toBe(
      'orders/tuesday.yaml:14:9  order.shipments[0].delivery.address_lines[1]  at most 35 characters (got 41)\n' +
        'orders/tuesday.yaml:20:11  order.shipments[0].packages[0].weight  warning: over 30 kg for one package (got 31 kg)',
    );
  });
});
