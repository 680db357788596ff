/**
 * `shipbook sandbox`: run the simulated booking service in the foreground (state in memory, or in
 * `--state <dir>` so it survives a restart); `shipbook sandbox status` and `shipbook sandbox reset`
 * show and clear the built-in sandbox's state (the one every command shares when no base URL is
 * configured), or the one in `--state <dir>`.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_JOURNAL_PATTERN, defaultJournalPath, ledgerPath } from '../../ledger/index.js';
import { targetId } from '../../config/target.js';
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { ShipbookError, UsageError, cmd } from '../../errors.js';
import { setVariablesCommand } from '../../shell.js';
import { stateDirectory } from '../../dirs.js';
import { parseDuration } from '../../input/flags.js';
import { orderState, shipmentState } from '../../output/state.js';
import { countStates, printSandboxStatus, type SandboxStatus } from '../../output/sandbox-status.js';

/** Options of `sandbox`. */
interface SandboxCommandOptions {
  host: string;
  port: number;
  apiKey?: string;
  delayMs: number;
  freePickup: boolean;
  /** `--state <dir>`: keep orders and shipments there instead of in memory. */
  stateDir?: string;
  /** `--fail-rate`, `--reset-rate`, `--latency`, `--rate-limit`: faults injected into the service's operations (see src/sandbox/faults.ts). */
  faults?: import('../../sandbox/index.js').SandboxFaults;
  /** `--no-log`: no line per request on stderr (under load, writing the log costs more than answering). */
  quiet?: boolean;
}

/** Starts the sandbox and keeps it running until Ctrl-C (SIGINT) or SIGTERM. */
async function runSandbox(o: SandboxCommandOptions, ctx: Context): Promise<void> {
  const { startSandbox, SANDBOX_API_KEY } = await import('../../sandbox/index.js');
  const { builtinStateError } = await import('../../sandbox-builtin.js');
  const sandbox = await startSandbox({
    host: o.host,
    port: o.port,
    apiKey: o.apiKey,
    processingDelayMs: o.delayMs,
    freePickup: o.freePickup,
    stateDir: o.stateDir,
    faults: o.faults,
    // Every answer says it comes from a sandbox, so a profile pointing here is marked whatever it says.
    announce: true,
    ...(o.quiet ? {} : { log: (line: string) => ctx.io.err(`${line}\n`) }),
  }).catch((err: unknown) => {
    // A busy or forbidden port is the user's to change, as for `callback listen` (exit 2, not an internal error).
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new UsageError(`cannot listen on ${o.host}:${o.port} (${code === 'EADDRINUSE' ? 'the port is in use' : code})`, {
        suggestion: 'Choose another port with --port, or --port 0 for any free port.',
        cause: err,
      });
    }
    throw builtinStateError(err);
  });
  // The last line works as pasted, and nothing follows the command on it. A key given with
  // --api-key is the user's secret: not printed, so that line sets the base URL only and the line
  // before it says which key goes with it.
  const use = setVariablesCommand(
    o.apiKey === undefined ? { SHIPBOOK_BASE_URL: sandbox.url, SHIPBOOK_API_KEY: SANDBOX_API_KEY } : { SHIPBOOK_BASE_URL: sandbox.url },
    ctx.settings.hints.shell,
  );
  ctx.io.err(
    `[sandbox] simulated booking service listening on ${sandbox.url} (Ctrl-C to stop)\n` +
      `[sandbox] state ${o.stateDir === undefined ? 'in memory (gone when it stops; --state <dir> keeps it)' : `in ${o.stateDir}`}\n` +
      `[sandbox] ${o.apiKey ? 'requires the API key given with --api-key: set SHIPBOOK_API_KEY to it' : 'accepts any API key, but operations that need authorization need one'}; booking completes ${o.delayMs} ms after acceptance\n` +
      `[sandbox] use it with: ${use}\n`,
  );
  if (ctx.json) ctx.io.out(`${JSON.stringify({ url: sandbox.url, port: sandbox.port })}\n`);
  ctx.defer(async () => {
    ctx.io.err('[sandbox] stopping\n');
    await sandbox.close();
  });
  // Runs until Ctrl-C or SIGTERM; main then closes what it opened.
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * Reads the built-in sandbox's state (or `--state <dir>`) and prints where it lives and its orders
 * and shipments by state, in the same words for both (`processed 50`, never `TODO 50`).
 * @throws ConfigError (exit 4) when the state cannot be read, naming the file and `shipbook sandbox reset`
 */
async function runSandboxStatus(o: { stateDir?: string }, ctx: Context): Promise<void> {
  const { openDiskStore, MAX_STORED_ORDERS, SandboxState } = await import('../../sandbox/index.js');
  const { builtinStateError } = await import('../../sandbox-builtin.js');
  const dir = o.stateDir ?? stateDirectory(ctx.io.env);
  const none = { total: 0, by_state: {}, by_status: {} };
  let status: SandboxStatus;
  if (!existsSync(dir)) {
    status = { state_dir: dir, exists: false, orders: none, shipments: none, max_orders: MAX_STORED_ORDERS };
  } else {
    try {
      const store = openDiskStore(dir);
      const state = new SandboxState(1, { store, processingDelayMs: 0 });
      status = await store.transaction(() => ({
        state_dir: dir,
        exists: true,
        orders: countStates(state.allOrders(), (o) => orderState(o.status)),
        shipments: countStates(store.shipments.values(), (sh) => {
          const order = sh.orderId === undefined ? undefined : state.findOrder(sh.orderId);
          return shipmentState(sh.status, order === undefined ? 'pending' : orderState(order.status));
        }),
        max_orders: MAX_STORED_ORDERS,
      }));
      await store.close();
    } catch (err) {
      const wrapped = builtinStateError(err);
      // Reading the state takes its lock, a small file: a full disk refuses even that.
      if (wrapped instanceof ShipbookError && wrapped.code === 'storage') {
        throw new ShipbookError('storage', `cannot read the sandbox state (reading takes its lock, a file in ${dir}): ${wrapped.message}`, 'storage', {
          ...(wrapped.suggestion !== undefined ? { suggestion: wrapped.suggestion } : {}),
          cause: err,
        });
      }
      throw wrapped;
    }
  }
  ctx.output.write(status, () => printSandboxStatus(ctx.io, status));
}

/**
 * Deletes the built-in sandbox's state (or `--state <dir>`): asks on a terminal, needs `--yes`
 * otherwise. The rule: the state directory is shared with shipbook's other records (the bookings
 * made on every service, which a reset of the simulator must not lose); a reset deletes the
 * sandbox's own entries (its state file, orders, shipments, cards, failures and lock, and what a
 * killed process left of a lock or a state file being written) and keeps
 * every other entry, naming them. A directory that holds sandbox entries but no sandbox state file
 * is not taken for one, and nothing in it is deleted.
 * @throws UsageError (exit 2) without `--yes` and no terminal, or for a directory that is not a sandbox state
 */
async function runSandboxReset(o: { stateDir?: string; yes: boolean }, ctx: Context): Promise<void> {
  const { STATE_FILE } = await import('../../sandbox/index.js');
  const dir = o.stateDir ?? stateDirectory(ctx.io.env);
  const ours = new Set([STATE_FILE, 'orders', 'shipments', 'cards', 'failures', 'state.lock']);
  // Also what a process killed at the wrong moment leaves: a lock being made or moved aside, a state file being written.
  const isOurs = (name: string) => ours.has(name) || name.startsWith('state.lock.') || (name.startsWith(`${STATE_FILE}.`) && name.endsWith('.tmp'));
  const entries = existsSync(dir) ? readdirSync(dir) : [];
  const present = entries.filter(isOurs);
  if (present.length === 0) {
    ctx.io.err(`Nothing to reset: ${dir} holds no sandbox state.\n`);
    return;
  }
  if (!present.includes(STATE_FILE)) {
    throw new UsageError(`${dir} is not a shipbook sandbox state (it has no ${STATE_FILE}); nothing was deleted`, {
      suggestion: ['Give the sandbox state directory with --state <dir> ("', cmd('sandbox', 'status'), '" shows the built-in one).'],
    });
  }
  if (!o.yes) {
    if (!ctx.io.canPrompt) {
      throw new UsageError(`resetting deletes every order and shipment of the sandbox in ${dir}: confirm with --yes`, {
        suggestion: [cmd('sandbox', 'reset', '--yes')],
      });
    }
    const ok = await ctx.prompter().confirm({ message: `Delete every order and shipment of the sandbox in ${dir}?`, default: false });
    if (!ok) {
      ctx.io.err('Nothing was deleted.\n');
      return;
    }
  }
  for (const name of present) rmSync(join(dir, name), { recursive: true, force: true });
  // The built-in sandbox's ledger speaks of orders that no longer exist: it goes with them, so a
  // document booked before the reset is booked again after it. Ledgers of other targets stay.
  const builtin = dir === stateDirectory(ctx.io.env);
  const ledger = builtin ? ledgerPath(dir, targetId({}, dir)) : undefined;
  const forgot = ledger !== undefined && existsSync(ledger);
  if (forgot) rmSync(ledger, { force: true });
  // So does the default journal of a batch on the built-in sandbox in this directory (named after
  // that target only): a batch run here after the reset would take its records into the ledger
  // again, and book nothing. A journal given with --journal may be anywhere: the note names it.
  const journal = builtin ? defaultJournalPath(targetId({}, dir)) : undefined;
  const journalGone = journal !== undefined && existsSync(journal);
  if (journalGone) rmSync(journal, { force: true });
  // `ledger/` (the ledgers of the other services) is shipbook's, not the sandbox's: named as kept, with what it is.
  const kept = entries.filter((name) => !isOurs(name)).map((name) => (builtin && name === 'ledger' ? 'ledger (the ledgers of other services)' : name));
  ctx.io.err(
    `The sandbox state in ${dir} was reset: no orders, no shipments${forgot ? ', and its ledger of booked documents is cleared' : ''}.\n` +
      (journalGone ? `Removed the batch journal of the built-in sandbox in this directory: ${journal}.\n` : '') +
      (kept.length > 0 ? `Kept (not the sandbox's): ${kept.slice(0, 5).join(', ')}${kept.length > 5 ? ', …' : ''}.\n` : '') +
      (builtin
        ? `Batch journals given with --journal, and the default journals in other directories (${DEFAULT_JOURNAL_PATTERN}), still name the old orders: remove them too before booking those documents again with them.\n`
        : ''),
  );
}

/** The default port of `shipbook sandbox`: not 8787, which `callback listen` and the booking receiver use. */
const SANDBOX_DEFAULT_PORT = 8788;

/** The `sandbox` command with its `status` and `reset` subcommands. */
export function sandboxCommand(ctx: Context): Command {
  const stateOption = '--state <dir>';
  const status = new Command('status')
    .summary("where the built-in sandbox's state lives, and its orders and shipments by status")
    .description(
      'Show where the built-in sandbox keeps its state ($SHIPBOOK_STATE_DIR, else $XDG_STATE_HOME/shipbook, else ~/.local/state/shipbook) and how many orders and shipments it holds, by status.',
    )
    .option(stateOption, 'a sandbox state directory instead of the built-in one')
    .addHelpText('after', '\nExamples:\n  shipbook sandbox status\n  shipbook sandbox status --json\n  shipbook sandbox status --state ./sandbox-state\n')
    // `sandbox` has its own --state, which commander fills when the flag follows the subcommand too.
    .action(async (_flags: { state?: string }, cmd: Command) => runSandboxStatus({ stateDir: (cmd.optsWithGlobals() as { state?: string }).state }, ctx));
  const reset = new Command('reset')
    .summary("delete the built-in sandbox's orders and shipments")
    .description(
      'Start the built-in sandbox again from nothing: delete its stored orders and shipments, its ledger and its batch journal in this directory, so the same documents book anew. Asks on a terminal; give --yes otherwise. Also the fix for a state that cannot be read.',
    )
    .option(stateOption, 'a sandbox state directory instead of the built-in one')
    .option('-y, --yes', 'do not ask', false)
    .addHelpText('after', '\nExamples:\n  shipbook sandbox reset\n  shipbook sandbox reset --yes\n')
    .action(async (flags: { yes: boolean }, cmd: Command) =>
      runSandboxReset({ stateDir: (cmd.optsWithGlobals() as { state?: string }).state, yes: flags.yes }, ctx),
    );
  return (
    new Command('sandbox')
      .summary('run the simulated booking service on this machine')
      .description(
        'Run the sandbox (a real HTTP server) in the foreground, for trying shipbook or testing against it. Its state is kept in memory, ' +
          'or in --state <dir> so it survives a restart. Without a configured base URL, every command uses the built-in sandbox instead: ' +
          'started for the command, with its state in $SHIPBOOK_STATE_DIR (see "shipbook sandbox status").',
      )
      // Its own default port: `callback listen` and the --public-url receiver use 8787.
      .option('--port <port>', 'port to listen on (0 = any free port)', String(SANDBOX_DEFAULT_PORT))
      .option('--host <host>', 'address to bind', '127.0.0.1')
      .option('--api-key <key>', 'require this API key on operations that need authorization')
      .option('--delay <duration>', 'time from acceptance to the booking result', '1500ms')
      .option('--free-pickup', 'the sandbox account has the free-pickup option (combine without main_shipment)', false)
      .option(stateOption, 'keep orders and shipments in this directory (default: in memory)')
      .option('--no-log', 'no line per request on stderr (for load tests)')
      .option('--fail-rate <share>', 'answer that share of booking requests 500 or 503 without processing them (e.g. 0.2 or 20%)')
      .option('--reset-rate <share>', 'close that share of connections without an answer, half of them after processing the request')
      .option('--latency <duration>', 'add this to every answer (e.g. 50ms)')
      .option('--rate-limit <n/s>', 'answer 429 with Retry-After beyond this many requests per second (e.g. 50/s)')
      .option('--seed <n>', "draw the faults from this seed and each request's content: the same inputs meet the same faults, run after run")
      .addCommand(status)
      .addCommand(reset)
      .addHelpText(
        'after',
        '\nExamples:\n  shipbook sandbox\n  shipbook sandbox --port 8788 --state ./sandbox-state\n  SHIPBOOK_BASE_URL=http://127.0.0.1:8788/ SHIPBOOK_API_KEY=sk_sandbox_builtin shipbook quote fixtures/quotes/syd-mel-single.yaml\n  shipbook sandbox status\n  shipbook sandbox reset --yes\n',
      )
      .action(
        async (flags: {
          port: string;
          host: string;
          apiKey?: string;
          delay: string;
          freePickup: boolean;
          state?: string;
          log: boolean;
          failRate?: string;
          resetRate?: string;
          latency?: string;
          rateLimit?: string;
          seed?: string;
        }) => {
          const { parseFaultRate, parseRateLimit } = await import('../../sandbox/index.js');
          const rate = (flag: string, text: string | undefined) => {
            if (text === undefined) return undefined;
            const v = parseFaultRate(text);
            if (v === undefined)
              throw new UsageError(`${flag} must be a share from 0 to 1, or a percentage (got "${text}")`, {
                suggestion: `For example ${flag} 0.2 or ${flag} 20%`,
              });
            return v;
          };
          let rateLimit: number | undefined;
          if (flags.rateLimit !== undefined) {
            rateLimit = parseRateLimit(flags.rateLimit);
            if (rateLimit === undefined) throw new UsageError(`--rate-limit must be requests per second, e.g. 50/s (got "${flags.rateLimit}")`);
          }
          const seed = flags.seed === undefined ? undefined : Number(flags.seed);
          if (seed !== undefined && !(Number.isSafeInteger(seed) && seed >= 0))
            throw new UsageError(`--seed must be a whole number (got "${flags.seed}")`, { suggestion: 'For example --seed 7' });
          const faults = {
            ...(seed === undefined ? {} : { seed }),
            failRate: rate('--fail-rate', flags.failRate),
            resetRate: rate('--reset-rate', flags.resetRate),
            latencyMs: flags.latency === undefined ? undefined : parseDuration('--latency', flags.latency),
            rateLimit,
          };
          const port = Number(flags.port);
          if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number 0-65535 (got "${flags.port}")`);
          await runSandbox(
            {
              host: flags.host,
              port,
              apiKey: flags.apiKey,
              delayMs: parseDuration('--delay', flags.delay),
              freePickup: flags.freePickup,
              stateDir: flags.state,
              quiet: !flags.log,
              faults,
            },
            ctx,
          );
        },
      )
  );
}
