/**
 * Input problems as a CI system annotates them (`--format github|gitlab` of `validate` and
 * `book --dry-run`):
 * - `github`: one workflow command per problem, `::error file=…,line=…,col=…,title=…::message`
 *   (warnings as `::warning`), which GitHub Actions turns into annotations on the pull request's
 *   lines. Values are escaped as the runner unescapes them: `%`, CR and LF in the message; those
 *   and `:` and `,` in a property.
 * - `gitlab`: a GitLab code-quality report (a JSON array of `{description, check_name, fingerprint,
 *   severity, location: {path, lines: {begin}}}`), which a merge request shows beside the lines.
 */
import { createHash } from 'node:crypto';
import type { InputIssue } from '../errors.js';

/** The CI formats of problems. */
export const ANNOTATION_FORMATS = ['github', 'gitlab'] as const;

/** One CI format of problems (see the module documentation). */
export type AnnotationFormat = (typeof ANNOTATION_FORMATS)[number];

/** A workflow command's message escaped: `%` → `%25`, CR → `%0D`, LF → `%0A`. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value escaped: as {@link escapeData}, and `:` → `%3A`, `,` → `%2C`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * The title of a problem's annotation: `shipbook: <field path> (error)` (or the spreadsheet
 * column), `shipbook (error)` for the file as a whole; `(warning)` for a warning. The severity
 * closes the title, so a field named like a secret (`cvv`) is never read as `cvv: <value>` by the
 * redaction of what shipbook prints.
 */
function titleOf(issue: InputIssue): string {
  const where = issue.path !== '' ? issue.path : (issue.column_name ?? '');
  return `shipbook${where === '' ? '' : `: ${where}`} (${issue.severity})`;
}

/**
 * One `::error`/`::warning` line per problem, in the order given, each ending in a newline.
 * `file`, `line` and `col` are given when known (a spreadsheet's column is named in the title, its
 * number is not known); the title names the field path, the message says what is wrong.
 */
function githubAnnotations(issues: readonly InputIssue[]): string {
  return issues
    .map((i) => {
      const props = [
        ...(i.file !== undefined && i.file !== '' ? [`file=${escapeProperty(i.file)}`] : []),
        ...(i.line !== undefined ? [`line=${i.line}`] : []),
        ...(i.line !== undefined && i.column !== undefined ? [`col=${i.column}`] : []),
        `title=${escapeProperty(titleOf(i))}`,
      ];
      return `::${i.severity === 'warning' ? 'warning' : 'error'} ${props.join(',')}::${escapeData(i.message)}\n`;
    })
    .join('');
}

/** One entry of a GitLab code-quality report. */
interface CodeQualityEntry {
  description: string;
  check_name: string;
  /** Stable for the same problem at the same place (GitLab compares reports of two pipelines by it). */
  fingerprint: string;
  severity: 'major' | 'minor';
  location: { path: string; lines: { begin: number } };
}

/**
 * The problems as a GitLab code-quality report: errors `major`, warnings `minor`; a problem with
 * no line is put on line 1 (GitLab needs one). Ends in a newline.
 */
function gitlabCodeQuality(issues: readonly InputIssue[]): string {
  const entries: CodeQualityEntry[] = issues.map((i) => {
    const path = i.file !== undefined && i.file !== '' ? i.file : '-';
    const begin = i.line ?? 1;
    const description = i.path !== '' ? `${i.path}: ${i.message}` : i.message;
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([path, begin, i.column ?? null, i.path, i.message, i.severity]))
      .digest('hex');
    return {
      description,
      check_name: i.severity === 'warning' ? 'shipbook-warning' : 'shipbook-error',
      fingerprint,
      severity: i.severity === 'warning' ? 'minor' : 'major',
      location: { path, lines: { begin } },
    };
  });
  return `${JSON.stringify(entries, null, 2)}\n`;
}

/** The problems in a CI format (see {@link githubAnnotations}, {@link gitlabCodeQuality}). */
export function annotations(format: AnnotationFormat, issues: readonly InputIssue[]): string {
  return format === 'github' ? githubAnnotations(issues) : gitlabCodeQuality(issues);
}
