/**
 * Entry point: builds the context and the root command, runs it, and is the only place that maps
 * errors to exit codes (see {@link EXIT} and the README's "Exit codes").
 */
import { Command, CommanderError } from 'commander';
import { VERSION } from './api/client.js';
import { registerCommands } from './commands/index.js';
import { createContext, type Context, type GlobalOptions } from './context.js';
import { ApiError, EXIT, ShipbookError, ValidationError } from './errors.js';
import { formatIssues } from './input/format.js';
import { processIO, type IOStreams } from './io.js';
import { redactText } from './api/redact.js';
import { paint } from './output/style.js';
import { BookingStoppedError } from './booking/progress.js';
import { stoppedSuggestion } from './output/hints.js';

/** Builds the root command with its global options and every subcommand. */
export function buildProgram(ctx: Context, globals: GlobalOptions): Command {
  const program = new Command('shipbook')
    .description('Book parcel shipments: quotes, orders, payment, consolidated mail and the booking result.\nWithout a configured service, every command runs against the built-in sandbox.')
    .version(VERSION, '-V, --version')
    .option('--json', 'print results as JSON on stdout (for scripts)')
    .option('--profile <name>', 'profile to use (default: SHIPBOOK_PROFILE, then the default profile)')
    .option('--debug', 'print HTTP traffic (secrets redacted) and stack traces on stderr')
    .option('--no-input', 'never prompt; fail with a clear message when input is missing')
    .option('--no-color', 'no colour in output (also NO_COLOR=1)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.io.out(s),
      writeErr: (s) => ctx.io.err(s),
    });
  program.hook('preAction', (_root, action) => {
    Object.assign(globals, action.optsWithGlobals());
  });
  registerCommands(program, ctx);
  // Every subcommand reports usage errors the same way and never exits on its own.
  const walk = (cmd: Command) => {
    for (const sub of cmd.commands) {
      sub.exitOverride().showHelpAfterError('(run with --help for usage)').configureOutput({
        writeOut: (s) => ctx.io.out(s),
        writeErr: (s) => ctx.io.err(s),
      });
      walk(sub);
    }
  };
  walk(program);
  return program;
}

/**
 * Prints an error for people on stderr (and as JSON on stdout with `--json`) and returns its exit
 * code. Stack traces only with `--debug`; secrets are scrubbed from every line.
 */
export function reportError(err: unknown, io: IOStreams, globals: GlobalOptions): number {
  const lines: string[] = [];
  let exitCode: number = EXIT.INTERNAL;
  let json: Record<string, unknown>;
  if (err instanceof ShipbookError) {
    // A booking that stopped part-way: the step's error, plus the hint rendered from the progress.
    const detail = err instanceof BookingStoppedError ? err.cause : err;
    const suggestion = err instanceof BookingStoppedError ? stoppedSuggestion(err.progress, detail.suggestion) : err.suggestion;
    exitCode = err.exitCode;
    lines.push(`${paint(io, 'red', 'error:')} ${err.message}`);
    json = { code: err.code, message: err.message, exit_code: exitCode };
    if (detail instanceof ValidationError && detail.issues.length > 0) {
      lines.push(formatIssues(detail.issues).replace(/^/gm, '  '));
      json.issues = detail.issues;
    }
    if (detail instanceof ApiError) {
      json.status = detail.status;
      if (detail.fieldErrors.length > 0) {
        lines.push(detail.fieldErrors.map((f) => `  ${f.field}  ${f.message}`).join('\n'));
        json.errors = detail.fieldErrors;
      }
    }
    if (suggestion) {
      lines.push(`${paint(io, 'cyan', 'hint:')} ${suggestion}`);
      json.suggestion = suggestion;
    }
  } else {
    const message = err instanceof Error ? err.message : String(err);
    lines.push(`${paint(io, 'red', 'internal error:')} ${message}`);
    if (!globals.debug) lines.push('Run again with --debug for details, and report it if it persists.');
    json = { code: 'internal', message, exit_code: exitCode };
  }
  if (globals.debug && err instanceof Error && err.stack) {
    lines.push(paint(io, 'dim', err.stack));
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof Error && cause.stack) lines.push(paint(io, 'dim', `caused by: ${cause.stack}`));
  }
  io.err(`${redactText(lines.join('\n'))}\n`);
  if (globals.json && !(err instanceof ShipbookError && err.reported)) io.out(`${redactText(JSON.stringify({ error: json }, null, 2))}\n`);
  return exitCode;
}

/** Runs shipbook with `argv` (as `process.argv`) and sets `process.exitCode`. Never calls process.exit(). */
export async function run(argv: string[]): Promise<void> {
  const globals: GlobalOptions = {};
  const io = processIO({ noColor: argv.includes('--no-color'), noInput: argv.includes('--no-input') });
  const ctx = createContext(io, globals);
  const program = buildProgram(ctx, globals);
  // Ctrl-C (or SIGTERM): close what the command opened (servers, sockets) and exit 130.
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(EXIT.INTERRUPTED);
    interrupted = true;
    if (signal === 'SIGINT') io.err('\ninterrupted\n');
    void ctx.close().then(() => process.exit(signal === 'SIGINT' ? EXIT.INTERRUPTED : EXIT.OK));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // A reader that goes away early (`shipbook quote … | head -1`) is not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.OK);
      throw err;
    });
  }
  try {
    await program.parseAsync(argv);
    process.exitCode ??= EXIT.OK;
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? EXIT.OK : EXIT.INPUT;
    } else {
      process.exitCode = reportError(err, io, globals);
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await ctx.close();
  }
}
