/**
 * Quoting for the shell a hint is pasted into (a POSIX shell; on Windows, PowerShell or cmd): every
 * command shipbook prints as a hint can be pasted as it is, even when an id or a path holds spaces,
 * a drive letter or shell characters, and a hint that sets environment variables is written in
 * that shell's form. Plain text work with no terminal in it, so the flows that word a next step and
 * output/ that prints it share it.
 */

/** The shell hints are written for: a POSIX shell (bash, zsh, sh), PowerShell or cmd. */
export type HintShell = 'posix' | 'powershell' | 'cmd';

/**
 * How the hints of a run are written: for the shell they will be pasted into, and with the run's
 * `--profile` (undefined when none was given: the environment that chose the profile is still
 * there when the hint is pasted), so that a hint run as printed goes to the same service. Part of
 * the run's settings in the context; main fills it in.
 */
export interface HintStyle {
  readonly shell: HintShell;
  readonly profile?: string | undefined;
}

/**
 * The shell a user of this platform pastes hints into: POSIX outside Windows; on Windows,
 * PowerShell (the default of Windows Terminal and of Windows 11's consoles), or cmd when `PROMPT`
 * is set (cmd sets it, and passes it to the programs it starts; PowerShell does not).
 */
export function hintShellFor(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform): HintShell {
  if (platform !== 'win32') return 'posix';
  return env.PROMPT !== undefined && env.PROMPT !== '' ? 'cmd' : 'powershell';
}

/**
 * The style of hints worded below the context, where the run's settings do not reach (a booking
 * wait's error): a POSIX shell and no `--profile`.
 */
export const PLAIN_HINTS: HintStyle = Object.freeze({ shell: 'posix' });

/** Characters PowerShell and cmd both take literally in a word (a Windows path: `C:\orders\a.yaml`). */
const WINDOWS_PLAIN = /^[A-Za-z0-9_\-./:@=+\\]+$/;

/**
 * Quotes one argument for PowerShell or cmd: unchanged when plain (`C:\orders\a.yaml`, `ORD-1A2B`);
 * in double quotes when that means the same to both (`"C:\My orders\a.yaml"`: no `"`, `$`,
 * backtick or `%` in it); else PowerShell's literal single quotes (`'it''s $5.yaml'`), or cmd's
 * double quotes with `\"` for a quote in it. Control characters (an id from a hostile service) are
 * never written as they are: PowerShell gets its escapes (`` `u{1b} ``), cmd, which has none, a
 * visible `\x1b`.
 */
function windowsArg(arg: string, shell: 'powershell' | 'cmd'): string {
  if (WINDOWS_PLAIN.test(arg)) return arg;
  if (CONTROL.test(arg)) {
    const hex = (c: string) => c.charCodeAt(0).toString(16);
    if (shell === 'powershell') return `"${arg.replace(/["$`]/g, (c) => `\`${c}`).replace(CONTROL_ALL, (c) => `\`u{${hex(c)}}`)}"`;
    return `"${arg.replace(/"/g, '\\"').replace(CONTROL_ALL, (c) => `\\x${hex(c).padStart(2, '0')}`)}"`;
  }
  if (!/["$`%]/.test(arg)) return `"${arg}"`;
  return shell === 'powershell' ? `'${arg.replace(/'/g, "''")}'` : `"${arg.replace(/"/g, '\\"')}"`;
}

/** Characters a POSIX shell takes literally in a word (no quoting needed). */
const PLAIN = /^[A-Za-z0-9_\-.,/:@%+=]+$/;

/**
 * Quotes one argument for the hints' shell `shell` (PowerShell and cmd: see windowsArg). For a POSIX shell: unchanged when it is plain (`ORD-1A2B`, `fixtures/a.yaml`),
 * else in single quotes with embedded `'` written as `'\''` (`'ORD 1'`, `'it'\''s.yaml'`). The
 * empty string is `''`. Placeholders such as `<file>` are not passed here.
 */
export function shellArg(arg: string, shell: HintShell): string {
  if (shell !== 'posix') return windowsArg(arg, shell);
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

/**
 * `shipbook` and its arguments, each quoted with {@link shellArg} for `style.shell`:
 * `shipbook order accept 'ORD 1'`; with `--profile <name>` first when the run was given one.
 */
export function shellCommand(style: HintStyle, ...args: string[]): string {
  const profile = style.profile === undefined ? [] : ['--profile', style.profile];
  return ['shipbook', ...[...profile, ...args].map((a) => shellArg(a, style.shell))].join(' ');
}

/** A value that is a placeholder for the user to replace (`<the key given with --api-key>`): written as it is. */
const PLACEHOLDER = /^<[^<>]*>$/;

/**
 * The command that sets environment variables for the rest of the session, in the form of
 * `shell`: `export A=1 B=2` (POSIX), `$env:A = '1'; $env:B = '2'` (PowerShell),
 * `set "A=1" & set "B=2"` (cmd). Values are quoted as that shell needs; a placeholder (`<…>`) is
 * written as it is.
 */
export function setVariablesCommand(vars: Readonly<Record<string, string>>, shell: HintShell): string {
  const entries = Object.entries(vars);
  const value = (v: string, quote: (v: string) => string) => (PLACEHOLDER.test(v) ? v : quote(v));
  if (shell === 'powershell') return entries.map(([k, v]) => `$env:${k} = ${value(v, (x) => `'${x.replace(/'/g, "''")}'`)}`).join('; ');
  if (shell === 'cmd') return entries.map(([k, v]) => `set "${k}=${v}"`).join(' & ');
  return `export ${entries.map(([k, v]) => `${k}=${value(v, (x) => shellArg(x, 'posix'))}`).join(' ')}`;
}

/**
 * The command that removes environment variables from the session, in the form of `shell`:
 * `unset A B` (POSIX), `Remove-Item Env:A, Env:B` (PowerShell), `set A= & set B=` (cmd).
 */
export function unsetVariablesCommand(names: readonly string[], shell: HintShell): string {
  if (shell === 'powershell') return `Remove-Item ${names.map((n) => `Env:${n}`).join(', ')}`;
  if (shell === 'cmd') return names.map((n) => `set ${n}=`).join(' & ');
  return `unset ${names.join(' ')}`;
}
