/**
 * Help text that commands share: the top-level examples of the main flows, the summary,
 * description and examples of commands that define none of their own (command groups, small
 * config commands), and under every command the global flags it inherits (as gh prints INHERITED
 * FLAGS). Applied once to the finished command tree by {@link applyHelpExtras}, which also makes
 * each command's help end with ONE Examples section (a command's own examples and the shared ones
 * merged, each line once) and shows numeric defaults as numbers (`(default: 8787)`).
 */
import type { EventEmitter } from 'node:events';
import { Help, type Command, type Option } from 'commander';

/** Extra help for one command, by its path (`config sender set`). */
interface HelpExtra {
  summary?: string;
  description?: string;
  examples?: string[];
}

/** Examples shown under the top-level help: the main flows. */
const TOP_LEVEL_EXAMPLES = [
  '# one-off booking: create, accept, wait for tracking numbers',
  'shipbook quote fixtures/quotes/syd-mel-single.yaml',
  'shipbook book fixtures/orders/domestic-syd-mel.yaml',
  '# step by step',
  'shipbook order create fixtures/orders/domestic-syd-mel.yaml --quiet   # prints ORD-…',
  'shipbook order accept ORD-… --payment credit --wait',
  '# consolidated mail',
  'shipbook shipment create fixtures/shipments/au-us-1.yaml',
  'shipbook shipment combine SHP-A SHP-B --main fixtures/shipments/main-to-hub.yaml',
  '# check input offline; see what would be sent',
  'shipbook validate fixtures/orders/',
  'shipbook book fixtures/orders/domestic-syd-mel.yaml --dry-run',
  '# set-up and reference',
  'shipbook doctor',
  'shipbook help exit-codes     # also: help environment, help formats',
];

/** Help for commands that do not carry their own. */
const HELP_EXTRAS: Record<string, HelpExtra> = {
  order: {
    description:
      'Orders step by step: create a pending order from a file (POST /orders/), accept it with payment ' +
      '(the booking then runs at the service), read it, or cancel it while it is pending. ' +
      '"shipbook book" does create, accept and wait in one go.',
    examples: [
      'ORDER=$(shipbook order create fixtures/orders/domestic-syd-mel.yaml --quiet)',
      'shipbook order accept "$ORDER" --payment credit --wait',
      'shipbook order get "$ORDER" --json',
    ],
  },
  'order create': {
    examples: [
      'shipbook order create fixtures/orders/domestic-syd-mel.yaml',
      'ORDER=$(shipbook order create fixtures/orders/domestic-syd-mel.yaml --quiet)',
      'cat order.json | shipbook order create - --json',
    ],
  },
  shipment: {
    examples: [
      'shipbook shipment create fixtures/shipments/au-us-1.yaml',
      'shipbook shipment combine SHP-A SHP-B --main fixtures/shipments/main-to-hub.yaml',
      'shipbook book fixtures/consolidated/three-parcels.yaml     # all of it in one go',
    ],
  },
  schema: {
    examples: ['shipbook schema order > schemas/order.schema.json', 'shipbook schema consolidated | jq .properties'],
  },
  callback: {
    description:
      'A receiver for booking callbacks on this machine, for watching what the service sends ' +
      '(book and order accept --wait run their own receiver while they wait).',
    examples: ['shipbook callback listen', 'shipbook callback listen --listen 127.0.0.1:8787 --json'],
  },
  auth: {
    description:
      'Credentials of a profile: "auth login" stores a base URL and an API key after checking them, ' +
      '"auth status" shows what this run uses and where each setting comes from, "auth logout" ' +
      'removes the stored key. CI can instead set SHIPBOOK_BASE_URL and SHIPBOOK_API_KEY.',
    examples: ['shipbook --profile production auth login', 'shipbook auth status', 'shipbook --profile staging auth logout'],
  },
  config: {
    examples: ['shipbook config list', 'shipbook --profile staging config set base-url https://staging.example.com/', 'shipbook config sender list'],
  },
  'config list': {
    description:
      'Show every setting of the active profile with its value (the API key as ****abcd) and where it comes from: flag, environment, file or default.',
  },
  'config get': {
    description: 'Print the value of one setting of the active profile; the API key only as ****abcd.',
  },
  'config set': {
    description: 'Store one setting in the active profile (created if needed), or the default-profile. Values are checked before saving.',
  },
  'config unset': {
    description: 'Remove one stored setting of the active profile; its default applies again.',
  },
  'config sender': {
    description:
      'Sender addresses saved in the profile, by name. An order file can name one as its collection: ' +
      'collection: "@warehouse" (replaced by the saved address before validation).',
    examples: ['shipbook config sender set warehouse warehouse.yaml', 'shipbook config sender list', 'shipbook config sender show warehouse --json'],
  },
  'config sender set': {
    description:
      'Check an address file (JSON or YAML: first_name, last_name, company, email, phone, country, postcode, city, address_lines) and save it under a name.',
    examples: ['shipbook config sender set warehouse warehouse.yaml', 'cat address.json | shipbook config sender set home -'],
  },
  'config sender list': {
    description: 'List the saved senders of the active profile: name, city and country.',
    examples: ['shipbook config sender list', 'shipbook --profile production config sender list --json'],
  },
  'config sender show': {
    description: 'Print one saved sender as YAML (JSON with --json), as it would go into an order.',
    examples: ['shipbook config sender show warehouse', 'shipbook config sender show warehouse --json'],
  },
  'config sender remove': {
    description: 'Remove a saved sender from the active profile.',
    examples: ['shipbook config sender remove warehouse', 'shipbook --profile staging config sender remove old-depot'],
  },
  'config path': {
    examples: ['shipbook config path', 'SHIPBOOK_CONFIG_DIR=/tmp/sb shipbook config path'],
  },
};

/** What a command's help shows after its options, read from the `addHelpText('after', …)` texts. */
interface AfterHelp {
  /** Text other than examples (notes), in order. */
  notes: string[];
  /** Example lines (indentation removed), each once, in order. */
  examples: string[];
}

/** The texts a command added with `addHelpText('after', …)`, split into notes and example lines; the listeners are removed. */
function takeAfterHelp(cmd: Command): AfterHelp {
  const out: AfterHelp = { notes: [], examples: [] };
  const events = cmd as unknown as EventEmitter;
  const listeners = events.listeners('afterHelp') as Array<(context: { error: boolean; command: Command; write: (s: string) => void }) => void>;
  for (const listener of listeners) {
    let text = '';
    listener({ error: false, command: cmd, write: (s) => void (text += s) });
    // An "Examples:" heading starts the examples; the indented lines under it are the examples.
    const at = text.search(/^Examples?:[ \t]*$/m);
    const before = at === -1 ? text : text.slice(0, at);
    if (before.trim() !== '') out.notes.push(before.replace(/^\n+|\s+$/g, ''));
    if (at === -1) continue;
    const lines = text.slice(at).split('\n').slice(1);
    let k = 0;
    for (; k < lines.length; k++) {
      const line = lines[k]!;
      if (line.trim() === '') continue;
      if (!/^\s/.test(line)) break;
      const example = line.replace(/^ {2}/, '');
      if (!out.examples.includes(example)) out.examples.push(example);
    }
    const after = lines.slice(k).join('\n').trim();
    if (after !== '') out.notes.push(after);
  }
  events.removeAllListeners('afterHelp');
  return out;
}

/** The global flags by what they are about, by their long names; `always` go with every command that takes input or talks to a service. */
const FLAG_GROUPS = {
  always: ['--debug', '--no-color'],
  output: ['--json', '--output', '--quiet', '--jq', '--template'],
  profile: ['--profile'],
  service: ['--request-timeout', '--rate'],
  send: ['--dry-run'],
  prompt: ['--no-input'],
  address: ['--strict-addresses', '--no-strict-addresses', '--normalize-phones', '--no-normalize-phones'],
} as const;

/** A group of {@link FLAG_GROUPS}. */
type FlagGroup = keyof typeof FLAG_GROUPS;

/**
 * The global flags that matter to each command, by its path (a command not listed takes its
 * group's, by its first word; a command listed nowhere shows them all). `completion` and `help`
 * read no input, no profile and no service: they show none.
 */
const COMMAND_FLAGS: Record<string, readonly FlagGroup[]> = {
  book: ['always', 'output', 'profile', 'service', 'send', 'prompt', 'address'],
  api: ['always', 'output', 'profile', 'service', 'send'],
  quote: ['always', 'output', 'profile', 'service', 'prompt', 'address'],
  order: ['always', 'output', 'profile', 'service'],
  'order create': ['always', 'output', 'profile', 'service', 'send', 'prompt', 'address'],
  'order accept': ['always', 'output', 'profile', 'service', 'send', 'prompt'],
  'order cancel': ['always', 'output', 'profile', 'service', 'send'],
  'order list': ['always', 'output', 'profile', 'service'],
  shipment: ['always', 'output', 'profile', 'service', 'send', 'address'],
  validate: ['always', 'output', 'profile', 'address'],
  csv: ['always', 'output', 'profile', 'address'],
  schema: ['always'],
  examples: ['always', 'output'],
  config: ['always', 'output', 'profile'],
  'config sender set': ['always', 'output', 'profile', 'address'],
  auth: ['always', 'output', 'profile', 'service', 'prompt'],
  callback: ['always', 'output', 'profile'],
  sandbox: ['always', 'output', 'prompt'],
  doctor: ['always', 'output', 'profile', 'service'],
  journal: ['always', 'output', 'profile', 'service', 'prompt'],
  ledger: ['always', 'output', 'profile'],
  history: ['always', 'output', 'profile'],
  handover: ['always', 'output', 'profile'],
  service: ['always', 'output', 'profile', 'service'],
  card: ['always', 'output', 'profile', 'service'],
  completion: [],
  help: [],
};

/** The long names of the global flags that matter to the command at `path`, or undefined for all of them. */
function flagsFor(path: readonly string[]): ReadonlySet<string> | undefined {
  const groups = COMMAND_FLAGS[path.join(' ')] ?? COMMAND_FLAGS[path[0] ?? ''];
  if (groups === undefined) return undefined;
  return new Set(groups.flatMap((g) => FLAG_GROUPS[g]));
}

/**
 * The global flags section: the root's options (those of the finished tree, so a flag added there
 * later shows too), laid out like commander's own options for a help `width` columns wide; with
 * `only`, those of its long names alone, and a line naming `shipbook help flags` for the rest.
 */
export function globalFlags(program: Command, width: number, only?: ReadonlySet<string>): string {
  const help = program.createHelp();
  help.prepareContext({ helpWidth: width });
  const all = help.visibleOptions(program).filter((o: Option) => o.long !== '--help' && o.long !== '--version');
  const options = only === undefined ? all : all.filter((o) => o.long !== undefined && only.has(o.long));
  const rest = all.length - options.length;
  const more = rest > 0 ? `${rest} more global flag${rest === 1 ? '' : 's'}: shipbook help flags` : '';
  if (options.length === 0) return `Global flags: none apply to this command (all ${all.length}: shipbook help flags)`;
  const termWidth = Math.max(...options.map((o) => help.displayWidth(help.styleOptionTerm(help.optionTerm(o)))));
  const lines = options.map((o) =>
    help.formatItem(help.styleOptionTerm(help.optionTerm(o)), termWidth, help.styleOptionDescription(optionDescription(o)), help),
  );
  const title = only === undefined ? 'Global flags (any command):' : `Global flags for this command (${more === '' ? 'all of them' : more}):`;
  return `${title}\n${lines.join('\n')}`;
}

/**
 * Commander's option description, said once and plainly: a flag without a value shows no
 * `(default: false)` (left out, it is off), and a default that is one word shows without quotes:
 * `(default: 8787)`, `(default: 127.0.0.1)`, not `(default: "8787")`.
 */
function optionDescription(this: void, option: Option): string {
  let text = new Help().optionDescription(option);
  if (option.isBoolean() && typeof option.defaultValue === 'boolean') text = text.replace(/ ?\(default: (?:true|false)\)/, '');
  return text.replace(/\(default: "([^\s"]+)"\)/, '(default: $1)');
}

/** A stand-in for the spaces inside `(default: …)` while commander wraps: never a place to break. */
const KEEP = '\uE000';

/** Commander's wrapping, except that a `(default: …)` stays on one line rather than breaking after its colon. */
function boxWrap(this: Help, text: string, width: number): string {
  return Help.prototype.boxWrap
    .call(
      this,
      text.replace(/\(default: [^()]{1,40}\)/g, (d) => d.replaceAll(' ', KEEP)),
      width,
    )
    .replaceAll(KEEP, ' ');
}

/**
 * Adds the top-level examples, every {@link HELP_EXTRAS} entry and the global flags section to
 * the command tree, and leaves each command one Examples section, last.
 */
export function applyHelpExtras(program: Command): void {
  program.configureHelp({ ...program.configureHelp(), optionDescription, boxWrap });
  // As wide as the help commander prints around it: the terminal's width, else 80.
  const width = () => (process.stdout.isTTY ? process.stdout.columns : undefined) ?? 80;
  // A command's texts after its options are rearranged when its help is about to be shown (commander
  // emits beforeHelp, then prints the help, then emits afterHelp), not when the tree is built: most
  // runs show no help, and reading every command's texts was start-up work for nothing.
  const finish = (cmd: Command, extra: string[], withGlobals: boolean, path: readonly string[] = []) => {
    const events = cmd as unknown as EventEmitter;
    events.once('beforeHelp', () => {
      const after = takeAfterHelp(cmd);
      const examples = [...after.examples, ...extra.filter((e) => !after.examples.includes(e))];
      if (after.notes.length === 0 && !withGlobals && examples.length === 0) return;
      cmd.addHelpText('after', () => {
        const flags = withGlobals ? globalFlags(program, width(), flagsFor(path)) : '';
        const sections = [
          ...after.notes,
          ...(flags !== '' ? [flags] : []),
          ...(examples.length > 0 ? [`Examples:\n${examples.map((l) => `  ${l}`).join('\n')}`] : []),
        ];
        return sections.length > 0 ? `\n${sections.join('\n\n')}` : '';
      });
    });
  };
  finish(program, TOP_LEVEL_EXAMPLES, false);
  const walk = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      const p = [...path, sub.name()];
      const extra = HELP_EXTRAS[p.join(' ')];
      if (extra?.summary) sub.summary(extra.summary);
      if (extra?.description) sub.description(extra.description);
      sub.configureHelp({ ...sub.configureHelp(), optionDescription, boxWrap });
      finish(sub, extra?.examples ?? [], true, p);
      walk(sub, p);
    }
  };
  walk(program, []);
}
