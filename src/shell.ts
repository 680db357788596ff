/**
 * Quoting for a POSIX shell: every command shipbook prints as a hint can be
 * pasted as it is, even when an id or a path holds spaces or shell characters. Plain text work with
 * no terminal in it, so the flows that word a next step and output/ that prints it share it.
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
  // Control characters (an id from a hostile service) in ANSI-C quotes, as escapes: visible, and
  // the same argument when pasted into bash or zsh.
  if (CONTROL.test(arg)) {
    const escaped = arg
      .replace(/[\\']/g, (c) => `\\${c}`)
      .replace(CONTROL_ALL, (c) => {
        const code = c.charCodeAt(0);
        return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
      });
    return `$'${escaped}'`;
  }
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const CONTROL_ALL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

let hintProfile: string | undefined;

/**
 * The `--profile` of this run, carried by every command printed as a hint: a
 * hint run as printed goes to the same service. main sets it once the flags are parsed and clears
 * it at the start of each run; undefined when no `--profile` was given (the environment that
 * chose the profile is still there when the hint is pasted).
 */
export function setHintProfile(name: string | undefined): void {
  hintProfile = name;
}

/**
 * `shipbook` and its arguments, each quoted with {@link shellArg}: `shipbook order accept 'ORD 1'`;
 * with `--profile <name>` first when the run was given one (see {@link setHintProfile}).
 */
export function shellCommand(...args: string[]): string {
  const profile = hintProfile === undefined ? [] : ['--profile', hintProfile];
  return ['shipbook', ...[...profile, ...args].map(shellArg)].join(' ');
}
