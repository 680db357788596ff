/**
 * Every top-level command, in the order `shipbook --help` lists them. Add new commands here.
 *
 * Start-up is a feature: a command's module, with what it imports (zod, yaml, the
 * prompts, the HTTP client …), is loaded only when that command runs. The manifest below gives
 * each command's name, the term and summary that `shipbook --help` shows, and how to load it; the
 * other commands are registered as light stubs that only list themselves. Everything is loaded
 * for what needs the whole tree: `help <command>`, completion, an unknown command (for "did you
 * mean"). A test (test/unit/help-text.test.ts) keeps the manifest equal to the loaded commands.
 */
import { Command, Help } from 'commander';
import type { Context } from '../context.js';

/** A top-level command as `--help` lists it, and the loader of its module. */
interface CommandEntry {
  name: string;
  /** What the top-level help shows before the summary, e.g. `quote [options] [file]`. */
  term: string;
  summary: string;
  /** Loads the module and returns the command's factory. */
  load(): Promise<(ctx: Context) => Command>;
}

/** The commands, in help order (help and completion are added last, see {@link registerCommands}). */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'quote',
    term: 'quote [options] [file]',
    summary: 'get prices for a route and packages',
    load: async () => (await import('./quote/index.js')).quoteCommand,
  },
  { name: 'order', term: 'order', summary: 'create, accept, show, cancel and list orders', load: async () => (await import('./order/index.js')).orderCommand },
  {
    name: 'shipment',
    term: 'shipment',
    summary: 'consolidated mail: create shipments and combine them into a parent order',
    load: async () => (await import('./shipment/index.js')).shipmentCommand,
  },
  { name: 'service', term: 'service', summary: 'show the data of a service', load: async () => (await import('./service/index.js')).serviceCommand },
  { name: 'card', term: 'card', summary: 'stored cards: list them', load: async () => (await import('./card/index.js')).cardCommand },
  {
    name: 'book',
    term: 'book [options] [inputs...]',
    summary: 'create, accept and wait for a booking in one go',
    load: async () => (await import('./book/index.js')).bookCommand,
  },
  {
    name: 'api',
    term: 'api [options] <method> <path>',
    summary: 'send one request to the service by hand, through the profile and the ledger',
    load: async () => (await import('./api/index.js')).apiCommand,
  },
  {
    name: 'journal',
    term: 'journal',
    summary: 'show and settle what the ledger says about each document',
    load: async () => (await import('./journal/index.js')).journalCommand,
  },
  {
    name: 'history',
    term: 'history [options]',
    summary: 'list every change made at the service, with who and when',
    load: async () => (await import('./history/index.js')).historyCommand,
  },
  {
    name: 'handover',
    term: 'handover [options]',
    summary: "print the day's hand-over sheet for the driver to sign",
    load: async () => (await import('./handover/index.js')).handoverCommand,
  },
  {
    name: 'dock',
    term: 'dock [options]',
    summary: "scan the day's parcels against its bookings before the driver leaves",
    load: async () => (await import('./dock/index.js')).dockCommand,
  },
  {
    name: 'documents',
    term: 'documents [options] [orders...]',
    summary: 'make the customs papers of international orders: commercial invoice, packing slip',
    load: async () => (await import('./documents/index.js')).documentsCommand,
  },
  {
    name: 'ledger',
    term: 'ledger',
    summary: "the ledger's service and accounts: link or separate keys, join the shared ledger",
    load: async () => (await import('./ledger/index.js')).ledgerCommand,
  },
  {
    name: 'rules',
    term: 'rules',
    summary: 'service-selection rules: check them, try them offline',
    load: async () => (await import('./rules/index.js')).rulesCommand,
  },
  {
    name: 'validate',
    term: 'validate [options] <files...>',
    summary: 'check input files offline: every problem with its line and field',
    load: async () => (await import('./validate/index.js')).validateCommand,
  },
  { name: 'csv', term: 'csv', summary: 'spreadsheets of orders: a template to fill in', load: async () => (await import('./csv/index.js')).csvCommand },
  {
    name: 'examples',
    term: 'examples [options] [file]',
    summary: 'the example files that the help examples use: list, print or copy them',
    load: async () => (await import('./examples/index.js')).examplesCommand,
  },
  {
    name: 'schema',
    term: 'schema <kind>',
    summary: 'print the JSON Schema of an input file kind, for editors',
    load: async () => (await import('./schema/index.js')).schemaCommand,
  },
  {
    name: 'callback',
    term: 'callback',
    summary: 'receive booking callbacks on this machine',
    load: async () => (await import('./callback/index.js')).callbackCommand,
  },
  {
    name: 'sandbox',
    term: 'sandbox [options]',
    summary: 'run the simulated booking service on this machine',
    load: async () => (await import('./sandbox/index.js')).sandboxCommand,
  },
  {
    name: 'auth',
    term: 'auth',
    summary: 'log in to a booking service, show the credentials in use, log out',
    load: async () => (await import('./auth/index.js')).authCommand,
  },
  {
    name: 'config',
    term: 'config',
    summary: 'profile settings, saved senders and the configuration file',
    load: async () => (await import('./config/index.js')).configCommand,
  },
  {
    name: 'doctor',
    term: 'doctor [options]',
    summary: 'check the set-up: Node.js, configuration, profile, service, key, callbacks, sandbox state',
    load: async () => (await import('./doctor/index.js')).doctorCommand,
  },
];

/** The two commands that read the whole tree, as the top-level help lists them. */
export const TREE_COMMANDS: ReadonlyArray<Pick<CommandEntry, 'name' | 'term' | 'summary'>> = [
  { name: 'help', term: 'help [command-or-topic...]', summary: 'help for a command, or a topic: environment, exit-codes, formats, flags' },
  { name: 'completion', term: 'completion <shell>', summary: 'print a shell completion script (bash, zsh, fish, powershell)' },
];

/**
 * The command `args` (the arguments after `shipbook`) name: the first word that is not a global
 * option or the value of one; undefined for none (`--help`, no arguments). `valueOptions` are the
 * root command's options that take a value (`--output`, `--profile`, `--request-timeout`), read
 * from the program itself so that a new global option cannot be mistaken for a command's name.
 */
export function invokedCommand(args: readonly string[], valueOptions: ReadonlySet<string>): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return args[i + 1];
    if (!a.startsWith('-')) return a;
    if (valueOptions.has(a)) i++;
  }
  return undefined;
}

/** The flags (`--output`, `-o`) of `program`'s own options that take a value. */
function valueOptionsOf(program: Command): Set<string> {
  return new Set(program.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short].filter((f): f is string => f !== undefined)));
}

/** A stub that lists a command in the top-level help without loading it. */
function stub(entry: Pick<CommandEntry, 'name' | 'term' | 'summary'>): Command {
  const cmd = new Command(entry.name).summary(entry.summary);
  STUB_TERMS.set(cmd, entry.term);
  return cmd;
}

const STUB_TERMS = new WeakMap<Command, string>();

/**
 * Adds the commands to the root program: only the invoked one loaded when `argv` names a known
 * command (the others as stubs), only stubs for the top-level help, everything otherwise (then
 * `help` and `completion` are installed too, last, since they read the whole tree). The help
 * extras are applied in every case.
 */
export async function registerCommands(program: Command, ctx: Context, argv?: readonly string[]): Promise<void> {
  const args = argv === undefined ? undefined : argv.slice(2);
  const named = args === undefined ? undefined : invokedCommand(args, valueOptionsOf(program));
  const entry = named === undefined ? undefined : COMMANDS.find((c) => c.name === named);
  const topHelp = args !== undefined && named === undefined && (args.includes('--help') || args.includes('-h') || args.length === 0);
  if (args !== undefined && (entry !== undefined || topHelp)) {
    for (const c of COMMANDS) program.addCommand(c === entry ? (await c.load())(ctx) : stub(c));
    for (const c of TREE_COMMANDS) program.addCommand(stub(c));
    // Stubs show their manifest term; loaded commands the one commander builds.
    program.configureHelp({ subcommandTerm: (cmd) => STUB_TERMS.get(cmd) ?? new Help().subcommandTerm(cmd) });
    const { applyHelpExtras } = await import('./help/examples.js');
    applyHelpExtras(program);
    return;
  }
  for (const c of COMMANDS) program.addCommand((await c.load())(ctx));
  // These read the finished tree: keep them last.
  const [{ installHelpCommand }, { installCompletion }, { applyHelpExtras }] = await Promise.all([
    import('./help/topics.js'),
    import('./completion/index.js'),
    import('./help/examples.js'),
  ]);
  installHelpCommand(program, ctx);
  installCompletion(program, ctx);
  applyHelpExtras(program);
}
