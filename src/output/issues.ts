/**
 * Problems of an input in words: a problem's next step (`next`, data naming the commands to run)
 * is said after its message, each command written for the run's shell and `--profile`. Every place
 * that prints a problem or writes it to a report or a JSON document words it here first.
 */
import type { InputIssue } from '../errors.js';
import type { HintStyle } from '../shell.js';
import { hintText } from './hints.js';

/** `issue` with its next step worded into its message (`unknown column; see "shipbook schema csv"`), and no `next`: the same issue when it has none. */
export function wordIssue<I extends InputIssue>(issue: I, hints: HintStyle): I {
  if (issue.next === undefined) return issue;
  const { next, ...rest } = issue;
  return { ...rest, message: `${issue.message}${hintText(next, hints)}` } as I;
}

/** Every issue of `issues` worded by {@link wordIssue}; `undefined` stays `undefined`. */
export function wordIssues<I extends InputIssue>(issues: readonly I[], hints: HintStyle): I[];
export function wordIssues<I extends InputIssue>(issues: readonly I[] | undefined, hints: HintStyle): I[] | undefined;
export function wordIssues<I extends InputIssue>(issues: readonly I[] | undefined, hints: HintStyle): I[] | undefined {
  return issues?.map((i) => wordIssue(i, hints));
}

/** `r` (a batch result, an input of a check) with its problems and warnings worded by {@link wordIssue}. */
export function withWordedIssues<R extends { issues?: InputIssue[] | undefined; warnings?: InputIssue[] | undefined }>(r: R, hints: HintStyle): R {
  if (!r.issues?.some((i) => i.next) && !r.warnings?.some((i) => i.next)) return r;
  return {
    ...r,
    ...(r.issues ? { issues: wordIssues(r.issues, hints) } : {}),
    ...(r.warnings ? { warnings: wordIssues(r.warnings, hints) } : {}),
  };
}
