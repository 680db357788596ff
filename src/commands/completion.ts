/**
 * Shell completion: `shipbook completion bash|zsh|fish|powershell` prints a script that asks
 * `shipbook complete -- <words>` (hidden) for candidates. Built on @bomb.sh/tab, which reads the
 * commander tree (commands, options, arguments, choices); shipbook adds what only it knows:
 * profile names for `--profile`, saved sender names for `config sender show|remove|set <name>`,
 * setting keys for `config get|set|unset <key>`, and input file paths (directories and .json,
 * .yaml, .yml, .ndjson files) for file arguments and file options.
 *
 * The completion backend never reads credentials, never starts the sandbox and never fails: a
 * broken configuration file just yields no profile names.
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { Command as Cmd } from 'commander';
import tab from '@bomb.sh/tab/commander';
import type { RootCommand, Complete } from '@bomb.sh/tab';
import { SETTING_KEYS } from '../config/keys.js';
import { BUILTIN_PROFILE, storedSenders } from '../config/schema.js';
import { ConfigStore } from '../config/store.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';

/** Shells `shipbook completion` writes a script for. */
export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;

/** File name endings offered when completing an input file. */
export const INPUT_EXTENSIONS = ['.json', '.yaml', '.yml', '.ndjson'];

/** Argument names whose values are input files. */
const FILE_ARGS = new Set(['file', 'files', 'path', 'paths', 'inputs', 'input']);

/** Options whose values are files. */
const FILE_OPTIONS = new Set(['main', 'file', 'payment-file', 'save-as', 'report', 'junit', 'journal']);

/**
 * Candidate paths for the word being typed: the entries of its directory whose names start with
 * what follows the last `/`, directories with a trailing `/`, files only with an input extension.
 * Hidden entries only when the word's last part starts with a dot. At most 200 candidates.
 */
export function pathCandidates(word: string, cwd: string = process.cwd()): string[] {
  const slash = word.lastIndexOf('/');
  const dirPart = slash === -1 ? '' : word.slice(0, slash + 1);
  const base = slash === -1 ? word : word.slice(slash + 1);
  const dir = dirPart === '' ? cwd : dirPart.startsWith('/') ? dirPart : join(cwd, dirPart);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names.sort()) {
    if (!name.startsWith(base)) continue;
    if (name.startsWith('.') && !base.startsWith('.')) continue;
    let isDir = false;
    try {
      isDir = statSync(join(dir, name)).isDirectory();
    } catch {
      continue;
    }
    if (isDir) out.push(`${dirPart}${name}/`);
    else if (INPUT_EXTENSIONS.some((ext) => name.endsWith(ext))) out.push(`${dirPart}${name}`);
    if (out.length >= 200) break;
  }
  return out;
}

/** Profile names for completion: stored profiles and the built-in one; none when the file is unreadable. */
export function profileCandidates(env: Readonly<Record<string, string | undefined>>): string[] {
  try {
    const data = ConfigStore.fromEnv(env).read().data;
    return [...Object.keys(data.profiles ?? {}).sort(), BUILTIN_PROFILE];
  } catch {
    return [BUILTIN_PROFILE];
  }
}

/** Saved sender names of the profile a command line names (`--profile x`, else `SHIPBOOK_PROFILE`, else the default). */
export function senderCandidates(env: Readonly<Record<string, string | undefined>>, words: string[]): string[] {
  try {
    const data = ConfigStore.fromEnv(env).read().data;
    const i = words.findIndex((w) => w === '--profile' || w.startsWith('--profile='));
    const fromFlag = i === -1 ? undefined : words[i]!.includes('=') ? words[i]!.split('=')[1] : words[i + 1];
    const name = fromFlag || env.SHIPBOOK_PROFILE?.trim() || data['default-profile'] || BUILTIN_PROFILE;
    return Object.keys(storedSenders(data, name) ?? {}).sort();
  } catch {
    return [];
  }
}

/** Runs `fn` with `console.log` writing to `write` (tab prints through console.log). */
function withConsole(write: (text: string) => void, fn: () => void): void {
  const original = console.log;
  console.log = (...args: unknown[]) => write(`${args.map(String).join(' ')}\n`);
  try {
    fn();
  } finally {
    console.log = original;
  }
}

/**
 * Adds `completion <shell>` and the hidden `complete -- <words>` to `program`, with shipbook's own
 * candidates. Call after every other command is registered (the tree is read now).
 */
export function installCompletion(program: Command, ctx: Context): RootCommand {
  const t = tab(program, { completionCommandName: 'completion' });
  let words: string[] = [];
  const files = (complete: Complete) => {
    for (const p of pathCandidates(words.at(-1) ?? '')) complete(p, '');
  };
  const profiles = (complete: Complete) => {
    for (const p of profileCandidates(ctx.io.env)) complete(p, 'profile');
  };

  // Global options (--profile, --json …) are accepted after any command: offer them everywhere.
  for (const cmd of t.commands.values()) {
    for (const [name, option] of t.options) if (!cmd.options.has(name)) cmd.options.set(name, option);
  }
  const profileOption = t.options.get('profile');
  if (profileOption) profileOption.handler = profiles;
  for (const [path, cmd] of t.commands) {
    for (const [name, option] of cmd.options) {
      if (FILE_OPTIONS.has(name) && option.command === cmd) option.handler = files;
    }
    for (const [name, arg] of cmd.arguments) {
      if (FILE_ARGS.has(name)) arg.handler = files;
      if (name === 'name' && path.startsWith('config sender') && path !== 'config sender set') {
        arg.handler = (complete) => senderCandidates(ctx.io.env, words).forEach((s) => complete(s, 'saved sender'));
      }
      if (name === 'key' && path.startsWith('config ')) {
        arg.handler = (complete) => SETTING_KEYS.forEach((k) => complete(k.key, k.meaning));
      }
    }
  }

  // tab prints with console.log: route both commands through the context's streams instead.
  const completion = program.commands.find((c) => c.name() === 'completion')!;
  completion
    .summary('print a shell completion script (bash, zsh, fish, powershell)')
    .description(
      'Prints a script that completes shipbook commands, options, profile names, saved sender\n' +
        'names and input file paths. Load it in your shell (see the examples, or the README).',
    )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  source <(shipbook completion bash)                          # this bash session\n' +
        '  shipbook completion bash > ~/.local/share/bash-completion/completions/shipbook\n' +
        '  shipbook completion zsh > "${fpath[1]}/_shipbook"           # then: compinit\n' +
        '  shipbook completion fish > ~/.config/fish/completions/shipbook.fish\n' +
        '  shipbook completion powershell | Out-String | Invoke-Expression',
    )
    .action((shell: string) => {
      if (!(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`no completion for shell "${shell}"`, { suggestion: `Shells: ${SHELLS.join(', ')}.` });
      withConsole((s) => ctx.io.out(s), () => t.setup(program.name(), program.name(), shell));
    });
  const complete = program.commands.find((c) => c.name() === 'complete' && c !== completion) as Cmd | undefined;
  complete?.action((args: string[]) => {
    words = [...args];
    withConsole((s) => ctx.io.out(s), () => t.parse(args));
  });
  return t;
}
