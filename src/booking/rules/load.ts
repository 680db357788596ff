/**
 * Reading a rules file (YAML or JSON): parsed with positions, checked against the rules schema,
 * every problem reported at its file:line:col before any rule is used.
 */
import { ValidationError, type InputIssue } from '../../errors.js';
import { parseInput } from '../../input/parse.js';
import type { LoadedDocument } from '../../input/loaded.js';
import { readInput } from '../../input/read.js';
import { formatPath, schemaProblems } from '../../schema/issues.js';
import { rulesFile, rulesFileProblems, type Rule } from './schema.js';

/** A rules file read and checked. */
export interface RuleSet {
  /** The file as the user named it. */
  file: string;
  rules: Rule[];
  /** The line of each rule in the file (same index as `rules`). */
  lines: number[];
}

/**
 * Checks a parsed rules document. @returns the rule set, or every problem at its line and column.
 */
export function checkRules(doc: LoadedDocument): { rules: RuleSet } | { issues: InputIssue[] } {
  const parsed = rulesFile.safeParse(doc.data);
  const found = [...(parsed.success ? [] : schemaProblems(parsed.error)), ...rulesFileProblems(doc.data)];
  if (!parsed.success || found.length > 0) {
    const issues = found.map((p) => {
      const at = doc.locate(p.segments, { key: p.message.startsWith('unknown field') });
      return { file: doc.file, path: formatPath(p.segments), message: p.message, severity: 'error' as const, ...(at ?? {}) };
    });
    issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
    return { issues };
  }
  return { rules: { file: doc.file, rules: parsed.data.rules, lines: parsed.data.rules.map((_, i) => doc.locate(['rules', i])?.line ?? 0) } };
}

/**
 * Reads and checks the rules file `file`.
 * @throws ValidationError (exit 2) for a file that cannot be read or parsed, or rules that do not
 *   fit the schema, every problem at file:line:col
 */
export async function loadRules(file: string): Promise<RuleSet> {
  const doc = parseInput(file, await readInput(file));
  const checked = checkRules(doc);
  if ('issues' in checked) {
    const n = checked.issues.length;
    throw new ValidationError(checked.issues, `${file}: ${n} problem${n === 1 ? '' : 's'} in the rules; nothing was sent`);
  }
  return checked.rules;
}
