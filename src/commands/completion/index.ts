/**
 * Shell completion: `shipbook completion bash|zsh|fish|powershell` prints a script that asks
 * `shipbook complete -- <words>` (hidden) for candidates. Built on @bomb.sh/tab, which reads the
 * commander tree (commands, options, arguments, choices); shipbook adds what only it knows:
 * profile names for `--profile`, saved sender names for `config sender show|remove|set <name>`,
 * setting keys for `config get|set|unset <key>`, service codes (`cheapest` and the codes of the
 * last quote) for `--service` and `service show`, the built-in sandbox's order ids for
 * `order get|accept|cancel`, and input file paths (directories and .json,
 * .yaml, .yml, .ndjson, .csv, .tsv files) for file arguments and file options.
 *
 * Candidates are one per line, `value<TAB>description`, the description one short line (a
 * command's summary): a multi-line help text would otherwise reach the shell as candidates.
 *
 * The bash script is shipbook's own: it needs nothing but bash (not the bash-completion package)
 * and defines only a function and a `complete` rule, so sourcing it twice is harmless.
 *
 * The completion backend never reads credentials, never starts the sandbox and never fails: a
 * broken configuration file just yields no profile names.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxOrderIds, serviceCandidates } from '../common/completion-cache.js';
import type { Command } from 'commander';
import { Command as Cmd } from 'commander';
import tab from '@bomb.sh/tab/commander';
import type { RootCommand, Complete } from '@bomb.sh/tab';
import { SETTING_KEYS } from '../../config/keys.js';
import { BUILTIN_PROFILE, storedSenders } from '../../config/schema.js';
import { ConfigStore } from '../../config/store.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';

/** Shells `shipbook completion` writes a script for. */
const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;

/** File name endings offered when completing an input file. */
const INPUT_EXTENSIONS = ['.json', '.yaml', '.yml', '.ndjson', '.csv', '.tsv'];

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

/** A description as one short line: the first line, spaces collapsed, at most 70 characters. */
function shortDescription(text: string): string {
  const first = (text.split('\n').find((l) => l.trim() !== '') ?? '').replace(/\s+/g, ' ').trim();
  return first.length <= 70 ? first : `${first.slice(0, 69).trimEnd()}…`;
}

/**
 * One line of the backend's answer made safe for the shell scripts: `value<TAB>description` with
 * no whitespace in the value and a one-line description; the `:<directive>` line unchanged.
 * @returns undefined for a candidate that cannot be one (empty, or with spaces)
 */
function candidateLine(line: string): string | undefined {
  if (line.startsWith(':')) return line;
  const tab = line.indexOf('\t');
  const value = tab === -1 ? line : line.slice(0, tab);
  if (value === '' || /\s/.test(value)) return undefined;
  const description = tab === -1 ? '' : shortDescription(line.slice(tab + 1));
  return description === '' ? value : `${value}\t${description}`;
}

/** The bash script: bash alone (no bash-completion package), safe to source more than once. */
function bashScript(name: string): string {
  const fn = `__${name.replace(/[^A-Za-z0-9_]/g, '_')}_complete`;
  return `# bash completion for ${name}: load it with
#   source <(${name} completion bash)
# or save it as ~/.local/share/bash-completion/completions/${name}. It needs bash 4 and nothing
# else; loading it again only defines the same function and rule again.
${fn}() {
    local line="\${COMP_LINE:0:COMP_POINT}"
    local -a words
    read -r -a words <<< "$line"
    # A command line that ends with a space completes a new, empty word.
    if [[ -z "$line" || "$line" == *[[:space:]] ]]; then words+=(""); fi
    local cur="\${words[\${#words[@]}-1]}"
    local out
    out=$(command ${name} complete -- "\${words[@]:1}" 2>/dev/null) || return 0
    local IFS=$'\n' entry value nospace=0
    local -a found=()
    for entry in $out; do
        [[ "$entry" == :* ]] && continue
        value="\${entry%%$'\t'*}"
        [[ "$value" == "$cur"* ]] || continue
        [[ "$value" == */ ]] && nospace=1
        found+=("$value")
    done
    # bash splits a word at : and = (COMP_WORDBREAKS): answer with the part after its split.
    local bashcur="\${COMP_WORDS[COMP_CWORD]}"
    local prefix="\${cur%"$bashcur"}"
    COMPREPLY=()
    for value in "\${found[@]}"; do COMPREPLY+=("\${value#"$prefix"}"); done
    if (( nospace )); then compopt -o nospace 2>/dev/null; fi
    return 0
}
complete -F ${fn} ${name}
`;
}

/**
 * The zsh script of @bomb.sh/tab, made to work when sourced on its own: it needs `compdef`, so
 * zsh's completion system is started first when the shell has not started it.
 */
function zshPrelude(name: string): string {
  return `# zsh completion for ${name}: source <(${name} completion zsh), or save it as _${name} in a directory of $fpath.
if ! (( $+functions[compdef] )); then autoload -Uz compinit && compinit -i; fi
`;
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
  const services = (complete: Complete) => {
    complete('cheapest', 'the cheapest service of a live quote');
    for (const code of serviceCandidates(ctx.stateDir())) complete(code, 'from the last quote');
  };
  // A command's one-line summary describes it, not its whole help text.
  const byPath = new Map<string, Command>();
  const walk = (c: Command, path: string) => {
    byPath.set(path, c);
    for (const sub of c.commands) walk(sub, path === '' ? sub.name() : `${path} ${sub.name()}`);
  };
  walk(program, '');
  for (const [path, cmd] of t.commands) {
    const source = byPath.get(path);
    if (source) cmd.description = shortDescription(source.summary() || source.description());
    for (const option of cmd.options.values()) option.description = shortDescription(option.description);
    for (const [name, option] of cmd.options) {
      if (FILE_OPTIONS.has(name) && option.command === cmd) option.handler = files;
      if (name === 'service' && option.command === cmd) option.handler = services;
    }
    if (path === 'service show') {
      for (const arg of cmd.arguments.values())
        arg.handler = (complete) => serviceCandidates(ctx.stateDir()).forEach((c) => complete(c, 'from the last quote'));
    }
    for (const [name, arg] of cmd.arguments) {
      if (FILE_ARGS.has(name)) arg.handler = files;
      if (name === 'name' && path.startsWith('config sender') && path !== 'config sender set') {
        arg.handler = (complete) => senderCandidates(ctx.io.env, words).forEach((s) => complete(s, 'saved sender'));
      }
      if (name === 'order-id' && path.startsWith('order ')) {
        arg.handler = (complete) => sandboxOrderIds(ctx.stateDir()).forEach((id) => complete(id, 'an order of the built-in sandbox'));
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
        'names and input file paths. Load it in your shell (see the examples, or docs/tools.md).',
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
      if (!(SHELLS as readonly string[]).includes(shell))
        throw new UsageError(`no completion for shell "${shell}"`, { suggestion: `Shells: ${SHELLS.join(', ')}.` });
      if (shell === 'bash') return ctx.io.out(bashScript(program.name()));
      if (shell === 'zsh') ctx.io.out(zshPrelude(program.name()));
      withConsole(
        (s) => ctx.io.out(s),
        () => t.setup(program.name(), program.name(), shell),
      );
    });
  const complete = program.commands.find((c) => c.name() === 'complete' && c !== completion) as Cmd | undefined;
  complete?.action((args: string[]) => {
    words = [...args];
    withConsole(
      (s) => {
        const line = candidateLine(s.replace(/\n$/, ''));
        if (line !== undefined) ctx.io.out(`${line}\n`);
      },
      () => t.parse(args),
    );
  });
  return t;
}
