/**
 * Entry point: builds the context and the root command, runs it, and is the only place that maps
 * errors to exit codes (see {@link EXIT} and docs/exit-codes.md).
 */
import { Command, CommanderError, Option } from 'commander';
import { VERSION } from './version.js';
import { registerCommands } from './commands/index.js';
import { createContext, prepareContext, type Context, type ContextOverrides, type GlobalOptions } from './context.js';
import {
  ApiError,
  BookingErrorReportedError,
  exitCodeOf,
  LimitRefusedError,
  ResultUnreadableError,
  ServiceCallError,
  ShipbookError,
  ValidationError,
  DryRunHalt,
  StoppedByChoice,
} from './errors.js';
import { asStorageError } from './storage.js';
import { formatIssues } from './input/format.js';
import { parseDuration, parseRate } from './input/flags.js';
import { processIO, type IOStreams } from './io.js';
import { redactText } from './api/redact.js';
import { printable } from './output/printable.js';
import { paint } from './output/style.js';
import { outputColor, OUTPUT_FORMATS, resolveOutput } from './output/format.js';
import { prepareOutput } from './output/setup.js';
import { createWriter, type OutputWriter } from './output/writer.js';
import { BookingStoppedError, STOPPED_BEFORE_NEXT_STEP } from './booking/progress.js';
import { hintText, stoppedSuggestion } from './output/hints.js';
import { everyProblemHint, MAX_PROBLEMS_SHOWN } from './output/report.js';
import { wordIssues } from './output/issues.js';
import { plannedRequestsData, renderPlannedRequests } from './output/dry-run.js';
import { quietNodeWarnings } from './output/node-warnings.js';
import { mapStack } from './stack.js';
import { fileURLToPath } from 'node:url';
import { formatCents } from './schema/money.js';

/**
 * Builds the root command with its global options and its subcommands: with `argv`, only the
 * invoked command's module is loaded (see src/commands/index.ts); without, every command.
 * Commander's own messages (usage errors) go to `writeErr`, stderr unless given.
 */
export async function buildProgram(
  ctx: Context,
  globals: GlobalOptions,
  argv?: readonly string[],
  writeErr: (s: string) => void = (s) => ctx.io.err(s),
): Promise<Command> {
  const program = new Command('shipbook')
    .description(
      'Book parcel shipments: quotes, orders, payment, consolidated mail and the booking result.\nWithout a configured service, every command runs against the built-in sandbox.',
    )
    .version(VERSION, '-V, --version')
    .option('--json', 'print results as JSON on stdout (for scripts); the same as --output json')
    .addOption(new Option('-o, --output <format>', 'format of results on stdout (by default table on a terminal, tsv otherwise)').choices(OUTPUT_FORMATS))
    .option('--jq <expression>', 'print what a jq expression picks from the JSON result (jq built in), e.g. --jq .order.id')
    .option('--template <template>', 'print the JSON result through a Handlebars (mustache) template, e.g. --template "{{order.id}} {{order.price.total}}"')
    .option('--profile <name>', 'profile to use (by default SHIPBOOK_PROFILE, else the default profile)')
    .option('--debug', 'print HTTP traffic (secrets redacted) and stack traces on stderr')
    .option('--no-input', 'never prompt; fail with a clear message when input is missing')
    .option('--no-color', 'no colour in output (also NO_COLOR=1)')
    .option('-q, --quiet', 'print only the ids of what was created or shown, one per line (for $(…) in scripts)')
    .option('--dry-run', 'validate and print the requests that would be sent (key, card number and CVV redacted); send nothing')
    .option('--strict-addresses', "address warnings (postcode, suburb, state, phone) are errors: exit 2, nothing sent (also the profile's strict-addresses)")
    .option('--no-strict-addresses', "address warnings only warn for this run, over the profile's strict-addresses=true")
    .option('--normalize-phones', "send phone numbers in E.164, e.g. +61412555019 (also the profile's normalize-phones)")
    .option('--no-normalize-phones', "send phone numbers as written for this run, over the profile's normalize-phones=true")
    .option(
      '--request-timeout <duration>',
      "deadline of each request to the service, its retries included, e.g. 30s; by default SHIPBOOK_TIMEOUT, else the profile's timeout, else 60s",
    )
    .option(
      '--rate <n/s>',
      "requests per second at most to the service, e.g. 30/s; by default the profile's rate, else the pace the service's 429 answers allow",
    )
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.io.out(s),
      writeErr,
    });
  program.hook('preAction', async (_root, action) => {
    await prepareContext();
    Object.assign(globals, action.optsWithGlobals());
    // --no-color and --no-input first: whatever fails next is reported without colour, and nothing prompts.
    ctx.io.color = outputColor(globals, ctx.io);
    if (globals.input === false) ctx.io.canPrompt = false;
    // A malformed deadline is a usage error before anything runs, whether or not a request follows.
    if (globals.requestTimeout !== undefined) parseDuration('--request-timeout', globals.requestTimeout);
    if (globals.rate !== undefined) parseRate('--rate', globals.rate);
    // Hints carry the profile flag, so a pasted hint goes to the same service.
    ctx.settings = { ...ctx.settings, hints: { ...ctx.settings.hints, profile: globals.profile } };
    await applyAddressSettings(ctx, globals, action);
    // The output is decided once (resolveOutput, through the context's writer): the writer prints
    // results in its format and every renderer is given that format; the terminal stays as it is.
    // --quiet: stdout carries only the ids the writer picks out; every other write to it is dropped.
    const { choice } = ctx.output;
    if (choice.quiet) ctx.io.out = () => {};
    await prepareOutput(choice);
  });
  await registerCommands(program, ctx, argv);
  // Every subcommand reports usage errors the same way and never exits on its own.
  const walk = (cmd: Command) => {
    for (const sub of cmd.commands) {
      sub
        .exitOverride()
        .showHelpAfterError('(run with --help for usage)')
        .configureOutput({
          writeOut: (s) => ctx.io.out(s),
          writeErr,
        });
      walk(sub);
    }
  };
  walk(program);
  return program;
}

/**
 * Prints an error for people on stderr (and as data on stdout in a machine format: `--json`,
 * `--output yaml|ndjson`, through the run's one writer) and returns its exit code. Stack traces only with `--debug`; secrets are scrubbed from every line.
 */
export function reportError(given: unknown, ctx: Pick<Context, 'io' | 'globals' | 'output' | 'settings'> & { signal?: AbortSignal }): number {
  const { io, globals } = ctx;
  // A disk that refused a write (full, read-only …) is said as such (exit 10), never as a bug.
  const err = asStorageError(given) ?? given;
  const lines: string[] = [];
  let exitCode: number = exitCodeOf('internal');
  let json: Record<string, unknown>;
  if (err instanceof ShipbookError) {
    // A booking that stopped part-way: the step's error, plus the hint rendered from the progress.
    const detail = err instanceof BookingStoppedError ? err.cause : err;
    const fate: Partial<Pick<ServiceCallError, 'sent' | 'endpoint'>> = detail instanceof ServiceCallError ? detail : {};
    const outcomeUnknown = fate.sent === true && detail.kind !== 'api' && detail.kind !== 'auth';
    const suggestion =
      err instanceof BookingStoppedError
        ? stoppedSuggestion(err.progress, detail.suggestion, ctx.settings.hints, outcomeUnknown, detail.message === STOPPED_BEFORE_NEXT_STEP)
        : hintText(err.suggestion, ctx.settings.hints);
    // Interrupted by SIGTERM: the exit code is the process's (143), in every output.
    exitCode = exitCodeOf(ctx.signal?.reason === 'SIGTERM' && err.kind === 'interrupted' ? 'terminated' : err.kind);
    // A service's message (or a file's content quoted in one) may carry control characters: shown, not obeyed.
    lines.push(`${paint(io, 'red', 'error:')} ${printable(err.message, 'lines')}`);
    json = { code: err.code, message: err.message, exit_code: exitCode };
    // Transport failures say whether the request left and which call it was (a batch or a script decides on it).
    if (typeof fate.sent === 'boolean') json.sent = fate.sent;
    if (fate.endpoint !== undefined) json.endpoint = fate.endpoint;
    if (err instanceof BookingStoppedError) {
      const p = err.progress;
      if (p.orderId !== undefined) json.order_id = p.orderId;
      if (p.shipmentIds.length > 0) json.shipment_ids = [...p.shipmentIds];
      json.stage = p.stage;
    }
    if (detail instanceof ResultUnreadableError) Object.assign(json, { order_id: detail.orderId, last_state: detail.lastState });
    // Refused by --max-total or --budget: which order, where it stands, the price and the limit (and what the run spent).
    if (detail instanceof LimitRefusedError) {
      Object.assign(json, {
        ...(detail.orderId !== undefined ? { order_id: detail.orderId } : {}),
        stage: detail.stage,
        ...(detail.totalCents !== undefined ? { total: formatCents(detail.totalCents) } : {}),
        ...(detail.limit === 'budget'
          ? { budget: formatCents(detail.limitCents), spent: formatCents(detail.spentCents ?? 0) }
          : { max_total: formatCents(detail.limitCents) }),
      });
    }
    if (detail instanceof BookingErrorReportedError) {
      Object.assign(json, {
        order_id: detail.orderId,
        callback_code: detail.callbackCode,
        callback_message: detail.callbackMessage,
        order_status: detail.orderStatus ?? null,
      });
    }
    if (detail instanceof ValidationError && detail.issues.length > 0) {
      // Each problem's next step in words, for the run's shell and profile.
      const issues = wordIssues(detail.issues, ctx.settings.hints);
      // A single problem that the message already states in full (`f.yaml: no such file`) is not repeated.
      const [only] = issues;
      const repeated = issues.length === 1 && only !== undefined && only.line === undefined && detail.message.endsWith(only.message);
      // On a terminal the first problems are shown and the rest counted; --json carries them all.
      const shown = io.stderrIsTTY ? issues.slice(0, MAX_PROBLEMS_SHOWN) : issues;
      if (!repeated) lines.push(formatIssues(shown).replace(/^/gm, '  '));
      if (shown.length < issues.length) {
        const file = issues[0]?.file;
        lines.push(
          `  … and ${issues.length - shown.length} more (${file === undefined ? 'every problem with --json' : everyProblemHint(file, ctx.settings.hints)})`,
        );
      }
      json.issues = issues;
    }
    if (detail instanceof ApiError) {
      json.status = detail.status;
      if (detail.fieldErrors.length > 0) {
        lines.push(detail.fieldErrors.map((f) => `  ${printable(f.field)}  ${printable(f.message)}`).join('\n'));
        json.errors = detail.fieldErrors;
      }
    }
    if (suggestion) {
      lines.push(`${paint(io, 'cyan', 'hint:')} ${printable(suggestion, 'lines')}`);
      json.suggestion = suggestion;
    }
  } else {
    const message = err instanceof Error ? err.message : String(err);
    lines.push(`${paint(io, 'red', 'internal error:')} ${printable(message, 'lines')}`);
    if (!globals.debug) lines.push('Run again with --debug for details, and report it if it persists.');
    json = { code: 'internal', message, exit_code: exitCode };
  }
  if (globals.debug && err instanceof Error && err.stack) {
    // Frames of the bundle, mapped to the src/ file, line and column they come from (positions only, never source text).
    const bundle = fileURLToPath(import.meta.url);
    lines.push(paint(io, 'dim', mapStack(err.stack, bundle)));
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof Error && cause.stack) lines.push(paint(io, 'dim', `caused by: ${mapStack(cause.stack, bundle)}`));
  }
  let output: Context['output'] | undefined;
  try {
    output = ctx.output;
  } catch {
    output = undefined; // the format flags themselves are wrong: the error above says so
  }
  const asData = output !== undefined && output.machine && !(err instanceof ShipbookError && err.reported);
  // On one terminal the error object on stdout says it all: the same words on stderr would show it twice.
  if (!(asData && oneScreen(io) && !globals.debug)) io.err(`${redactText(lines.join('\n'))}\n`);
  if (asData) output?.error({ error: json }, redactText);
  return exitCode;
}

/**
 * Ends a run the person chose to stop: says what was kept and how to continue, on stderr; a machine
 * format gets `{"stopped": {"message", "draft"}}`. Exit 0: stopping is not a failure.
 */
function reportStopped(err: StoppedByChoice, ctx: Context): number {
  const { io } = ctx;
  io.err(`${paint(io, 'cyan', 'stopped:')} ${printable(err.message, 'lines')}\n`);
  if (err.suggestion !== undefined) io.err(`${paint(io, 'cyan', 'hint:')} ${printable(hintText(err.suggestion, ctx.settings.hints), 'lines')}\n`);
  ctx.output.write({ stopped: { message: err.message, draft: err.draft ?? null } }, () => {});
  return exitCodeOf('ok');
}

/**
 * Ends a `--dry-run`: the input was valid and the client stopped at the first request instead of
 * sending it. Prints the planned requests (as data in a machine format) and says on stderr that
 * nothing was sent. Exit 0.
 */
function reportDryRun(ctx: Context): number {
  const planned = ctx.planned;
  ctx.output.write(plannedRequestsData(planned), () => ctx.io.out(renderPlannedRequests(planned)));
  const placeholders = planned.some((p) => `${p.url} ${JSON.stringify(p.body ?? '')}`.includes('<'));
  ctx.io.err(
    `${paint(ctx.io, 'cyan', 'dry run:')} the input is valid; nothing was sent` +
      (placeholders ? ' (ids the service would assign are shown as <…>)' : '') +
      '\n',
  );
  return exitCodeOf('ok');
}

/** What a caller of {@link main} may replace or learn; the process launcher and tests use it. */
export interface MainOptions {
  /** Replaces parts of the context (clock, sleep, prompter, configuration store): tests inject them here. */
  overrides?: ContextOverrides;
  /** Called with the context once it exists, e.g. to close it from a signal handler. */
  onContext?: (ctx: Context) => void;
}

/** The commands that read addresses from files or flags: the profile's address settings apply to them. */
const ADDRESS_COMMANDS: ReadonlySet<string> = new Set(['validate', 'book', 'quote', 'order', 'shipment', 'csv']);

/**
 * Sets this run's address settings from `--strict-addresses`, `--normalize-phones` and, for a
 * command that reads addresses, the profile's `strict-addresses` and `normalize-phones` (a
 * profile that cannot be resolved gives none: the command reports that itself when it needs it).
 */
async function applyAddressSettings(ctx: Context, globals: GlobalOptions, action: Command): Promise<void> {
  let top = action;
  while (top.parent?.parent) top = top.parent;
  const both = globals.strictAddresses !== undefined && globals.normalizePhones !== undefined;
  const saved =
    both || !ADDRESS_COMMANDS.has(top.name())
      ? undefined
      : await ctx.profile().then(
          (p) => p.addresses,
          () => undefined,
        );
  ctx.settings = {
    ...ctx.settings,
    addresses: {
      strict: globals.strictAddresses ?? saved?.strict ?? false,
      normalizePhones: globals.normalizePhones ?? saved?.normalizePhones ?? false,
    },
  };
}

/**
 * Runs shipbook with `argv` (as `process.argv`: node, script, arguments…) on the given streams and
 * returns the exit code (see {@link EXIT}). Never exits the process, never touches process-wide
 * state: tests call it in-process with buffers for streams. Closes what the command opened.
 */
export async function main(argv: string[], io: IOStreams, options: MainOptions = {}): Promise<number> {
  const globals: GlobalOptions = {};
  const ctx = createContext(io, globals, options.overrides);
  options.onContext?.(ctx);
  let program: Command | undefined;
  // `shipbook version` and `shipbook -v`, as other tools spell it: the same as --version.
  const rest = argv.slice(2);
  if (rest.length === 1 && (rest[0] === 'version' || rest[0] === '-v')) argv = [...argv.slice(0, 2), '--version'];
  // Commander's usage messages, held until it is known whether stderr should carry them.
  let usageText = '';
  try {
    program = await buildProgram(ctx, globals, argv, (s) => void (usageText += s));
    await program.parseAsync(argv);
    return exitCodeOf('ok');
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.exitCode === 0) return exitCodeOf('ok');
      const hint = err.code === 'commander.unknownOption' ? await unknownOptionHint(err.message, ctx) : '';
      // A machine format gets the error object on stdout; people get commander's words on stderr,
      // unless both streams are one terminal, where the error would be shown twice.
      const writer = await usageErrorWriter(program, err, io);
      if (writer === undefined || !oneScreen(io)) io.err(usageText + hint);
      usageText = '';
      const [message, ...more] = err.message.replace(/^error: /, '').split('\n');
      const suggestion = more.join(' ').replace(/^\((.*)\)$/, '$1');
      writer?.error({ error: { code: 'usage', message, exit_code: exitCodeOf('input'), ...(suggestion !== '' ? { suggestion } : {}) } }, redactText);
      return exitCodeOf('input');
    }
    if (err instanceof DryRunHalt || (err instanceof BookingStoppedError && err.cause instanceof DryRunHalt)) return reportDryRun(ctx);
    if (err instanceof StoppedByChoice) return reportStopped(err, ctx);
    return reportError(err, ctx);
  } finally {
    if (usageText !== '') io.err(usageText);
    // A run that booked on a sandbox ends saying so, whatever its format and however it ended.
    ctx.noteEndOfRun();
    await ctx.close();
  }
}

/**
 * For an option this command does not take: the commands that do take it (`order create
 * --callback`: `order accept` and `book`), with the help of the first; '' when none does. The
 * whole tree is loaded for it, which only an error pays for.
 */
async function unknownOptionHint(message: string, ctx: Context): Promise<string> {
  const flag = /unknown option '([^']+)'/.exec(message)?.[1]?.split('=')[0];
  if (flag === undefined) return '';
  const full = await buildProgram(ctx, {});
  const owners: string[] = [];
  const walk = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      const p = [...path, sub.name()];
      if (sub.options.some((o) => o.long === flag || o.short === flag)) owners.push(p.join(' '));
      walk(sub, p);
    }
  };
  walk(full, []);
  if (owners.length === 0) return '';
  const named = owners.length === 1 ? owners[0]! : `${owners.slice(0, -1).join(', ')} and ${owners.at(-1)!}`;
  return `${paint(ctx.io, 'cyan', 'hint:')} ${flag} is an option of ${named}; see:\n  shipbook ${owners[0]!} --help\n`;
}

/**
 * The writer of the machine format (`--json`, `--output json|yaml|ndjson`) for a usage error, which
 * commander reports before the command's hook decides the output. The root command parses its
 * global options wherever they stand before it hands the rest to a subcommand, so they are known
 * even when the subcommand's own options are wrong; they go through the same decision
 * ({@link resolveOutput}; `--quiet` is left out: it does not silence a usage error's body). Undefined for tables, tsv,
 * contradictory flags, and a `--output` that names no format (commander stopped at it).
 */
async function usageErrorWriter(program: Command | undefined, err: CommanderError, io: IOStreams): Promise<OutputWriter | undefined> {
  if (program === undefined) return undefined;
  if (err.code === 'commander.invalidArgument' && err.message.includes("'-o, --output <format>'")) return undefined;
  const { json, output } = program.opts<GlobalOptions>();
  try {
    const choice = resolveOutput({ json, output }, io);
    if (!choice.machine) return undefined;
    await prepareOutput(choice);
    return createWriter(io, choice);
  } catch {
    return undefined;
  }
}

/** True when stdout and stderr are both terminals: one screen, where a text on each would be read twice. */
function oneScreen(io: Pick<IOStreams, 'stdoutIsTTY' | 'stderrIsTTY'>): boolean {
  return io.stdoutIsTTY && io.stderrIsTTY;
}

/** Exit code for a signal: 130 for Ctrl-C (SIGINT), 143 for SIGTERM (128 + 15), as shells report them. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return exitCodeOf(signal === 'SIGTERM' ? 'terminated' : 'interrupted');
}

/** A signal that interrupts a run: the one received, what it counts as, and how it is told. */
interface InterruptSignal {
  signal: NodeJS.Signals;
  /** SIGINT: an interruption (exit 130); SIGTERM: a termination (exit 143). */
  as: 'SIGINT' | 'SIGTERM';
  /** The words of the error line (`interrupted (Ctrl-C)`). */
  told: string;
}

/**
 * The signals that interrupt a run on `platform`: Ctrl-C (SIGINT) and SIGTERM everywhere; on
 * Windows also Ctrl-Break (SIGBREAK, an interruption like Ctrl-C) and the console window being
 * closed (SIGHUP, a termination: Windows ends the process a few seconds later, time enough to
 * record where the run got to). Elsewhere SIGHUP keeps its default, so `nohup` still works.
 */
export function interruptSignals(platform: NodeJS.Platform): InterruptSignal[] {
  const signals: InterruptSignal[] = [
    { signal: 'SIGINT', as: 'SIGINT', told: 'interrupted (Ctrl-C)' },
    { signal: 'SIGTERM', as: 'SIGTERM', told: 'terminated (SIGTERM)' },
  ];
  if (platform === 'win32') {
    signals.push(
      { signal: 'SIGBREAK', as: 'SIGINT', told: 'interrupted (Ctrl-Break)' },
      { signal: 'SIGHUP', as: 'SIGTERM', told: 'terminated (the console window was closed)' },
    );
  }
  return signals;
}

/**
 * Runs shipbook as the process (`bin/shipbook.js`): {@link main} on the process's streams, plus
 * what only a process has: signals (Ctrl-C exits 130, SIGTERM 143, both after closing what the
 * command opened, which prints the note on an interrupted wait; a second signal exits at once), a
 * reader that goes away early, and the run's exit work (`ctx.onExit`) as the process exits. The only
 * module that listens to the process. Sets `process.exitCode`.
 */
export async function run(argv: string[]): Promise<void> {
  // --no-color and --no-input are applied by main once commander has parsed them.
  const io = processIO();
  let ctx: Context | undefined;
  let interrupted: NodeJS.Signals | undefined;
  let finished = false;
  const onSignal = ({ as: signal, told }: InterruptSignal) => {
    const code = signalExitCode(signal);
    // A second signal stops at once.
    if (interrupted) process.exit(code);
    interrupted = signal;
    // On a terminal, erase the line first (a spinner, the echoed ^C), and say it like every error.
    io.err(`${io.stderrIsTTY ? '\r\x1b[2K' : '\n'}${paint(io, 'red', 'error:')} ${told}\n`);
    // The first one aborts the run's signal: no new step starts, a wait ends, and the command
    // reports where it got to through main as usual (a batch lets requests already sent finish
    // within their deadline). A second signal is the way to stop without waiting for them.
    ctx?.abort(signal);
  };
  const handlers = interruptSignals(process.platform).map((entry) => ({ signal: entry.signal, handler: () => onSignal(entry) }));
  for (const { signal, handler } of handlers) process.on(signal, handler);
  // A throw outside the command's own course (a timer, an event) is still reported as an internal
  // error, once, and never by Node.js's default handler, which prints the source line of the
  // throw: in the minified bundle, a line of kilobytes.
  const onUncaught = (err: unknown) => {
    if (ctx !== undefined) reportError(err instanceof ShipbookError ? err : err instanceof Error ? err : new Error(String(err)), ctx);
    else io.err(`internal error: ${printable(err instanceof Error ? err.message : String(err), 'lines')}\n`);
    process.exit(err instanceof ShipbookError ? err.exitCode : exitCodeOf('internal'));
  };
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  // The process's only exit listener: the run's exit work (ctx.onExit: a ledger's claims lock given
  // back, a journal's pending records, a batch's summary and buffered lines), whatever ends the
  // process: a second Ctrl-C, a closed stdout, an uncaught error, or the end of the run. It stays,
  // as the handlers above do: work may still be registered after main returned.
  process.on('exit', () => ctx?.runExitWork());
  // A reader that goes away early (`shipbook quote … | head -1`) is not an error when the command
  // has done its work; a command under way (a batch) takes it as an interruption: it starts no new
  // order, lets those in flight finish, and reports on stderr (and exits non-zero if any is left).
  let stdoutClosed = false;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    if (stdoutClosed) return;
    stdoutClosed = true;
    if (ctx !== undefined && !finished && !ctx.signal.aborted) ctx.abort('EPIPE');
    else if (finished) process.exit(process.exitCode ?? exitCodeOf('ok'));
  });
  process.stderr.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? exitCodeOf('ok'));
    throw err;
  });
  // Node's own warnings (a library's emitWarning) never reach the user; --debug shows them.
  const restoreWarnings = quietNodeWarnings((line) => ctx?.debugLog(`node: ${line}`));
  try {
    const code = await main(argv, io, { onContext: (c) => (ctx = c) });
    finished = true;
    process.exitCode = interrupted ? signalExitCode(interrupted) : code;
    // Interrupted, the command has reported and closed what it opened; what a library may still
    // hold (the built-in sandbox's pending booking of an accepted order) must not keep the process.
    if (interrupted) {
      const exitCode = process.exitCode;
      process.stdout.write('', () => process.exit(exitCode));
    }
  } finally {
    for (const { signal, handler } of handlers) process.off(signal, handler);
    restoreWarnings();
    // The handlers of uncaught throws stay: work still running after main returned (a timer) may throw.
  }
}
