/**
 * Quoting for a POSIX shell (issue 15, item 6): every command shipbook prints as a hint can be
 * pasted as it is, even when an id or a path holds spaces or shell characters.
 */

/** Characters a POSIX shell takes literally in a word (no quoting needed). */
const PLAIN = /^[A-Za-z0-9_\-.,/:@%+=]+$/;

/**
 * Quotes one argument for a POSIX shell: unchanged when it is plain (`ORD-1A2B`, `fixtures/a.yaml`),
 * else in single quotes with embedded `'` written as `'\''` (`'ORD 1'`, `'it'\''s.yaml'`). The
 * empty string is `''`. Placeholders such as `<file>` are not passed here.
 */
export function shellArg(arg: string): string {
  if (PLAIN.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** `shipbook` and its arguments, each quoted with {@link shellArg}: `shipbook order accept 'ORD 1'`. */
export function shellCommand(...args: string[]): string {
  return ['shipbook', ...args.map(shellArg)].join(' ');
}
