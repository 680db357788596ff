/**
 * What a command may use: IO streams, the clock, the profile and the API client. Dependencies
 * are created lazily, so `shipbook validate` and `--help` never read credentials or open
 * sockets. When the profile has no base URL the built-in sandbox is started in-process on a
 * random loopback port and marked as such on stderr.
 */
import type { PickupRule } from './input/pickup.js';
import { checkPickupFlags, pickupRule, type PickupFlags } from './booking/pickup/rule.js';
import type { ApiClient } from './api/client.js';
import { ConfigError } from './errors.js';
import { maskSecret } from './api/redact.js';
import { parseDuration, parseRate } from './input/flags.js';
import type { ConfigStore } from './config/store.js';
import { inquirerPrompter, type Prompter } from './prompter.js';
import { resolveOutput } from './output/format.js';
import { writerFor } from './output/setup.js';
import type { OutputWriter } from './output/writer.js';
import type { AnswerNotice, PlannedRequest } from './api/client.js';
import type { EndpointName } from './api/endpoints.js';
import type { ResolvedProfile } from './config/profile.js';
import type { JournalCopy, LedgerPeek, LedgerQueries, LedgerStore } from './ledger/index.js';
import { realSleep, type Sleep } from './sleep.js';
import type { IOStreams } from './io.js';
import { paint } from './output/style.js';
import { stateDirectory } from './dirs.js';
import { exitWork, type OnExit } from './exit-work.js';
import { hintShellFor, type HintStyle } from './shell.js';
import { DEFAULT_ADDRESS_SETTINGS, type AddressSettings } from './address/settings.js';
import { describeTarget, keyFingerprint, serviceIdentity, targetId, type Target } from './config/target.js';

/** Global flags, as parsed by the root command. */
export interface GlobalOptions {
  json?: boolean;
  /** `--output table|tsv|json|yaml|ndjson`. */
  output?: string;
  debug?: boolean;
  profile?: string;
  input?: boolean; // commander's --no-input
  color?: boolean; // commander's --no-color
  /** `--quiet`: only the ids of what was created or shown, one per line. */
  quiet?: boolean;
  /** `--dry-run`: validate and print the requests that would be sent; send nothing. */
  dryRun?: boolean;
  /** `--request-timeout <duration>`: deadline of each call to the service, retries included; over `SHIPBOOK_TIMEOUT` and the profile. */
  requestTimeout?: string;
  /** `--rate <n/s>`: requests per second at most to the service; over the profile's `rate`. */
  rate?: string;
  /** `--jq <expression>`: machine documents filtered by jq (src/output/pick.ts). */
  jq?: string;
  /** `--template <template>`: machine documents rendered by a Handlebars template (src/output/pick.ts). */
  template?: string;
  /** `--strict-addresses`: address warnings are errors (exit 2, nothing sent); over the profile's `strict-addresses`. */
  strictAddresses?: boolean;
  /** `--normalize-phones`: phone numbers sent in E.164; over the profile's `normalize-phones`. */
  normalizePhones?: boolean;
}

/**
 * The parts of a context that tests (and embedders) replace: the one way to inject a clock, a
 * sleep, a prompter and a configuration store. Anything not given is the real one.
 */
export interface ContextOverrides {
  now?: () => Date;
  sleep?: Sleep;
  prompter?: Prompter;
  configStore?: ConfigStore;
}

/** The configuration modules, loaded by {@link prepareContext} (they hold zod: `--help` never loads them). */
let configModules: { ConfigStore: typeof import('./config/store.js').ConfigStore; loadProfile: typeof import('./config/resolve.js').loadProfile } | undefined;

/**
 * Loads what a command's context uses synchronously (the configuration store). main calls it
 * before any command's action runs (commander's preAction hook); `--help` and `--version` never
 * do, so they start without zod. Safe to call twice.
 */
export async function prepareContext(): Promise<void> {
  if (configModules !== undefined) return;
  const [{ ConfigStore }, { loadProfile }] = await Promise.all([import('./config/store.js'), import('./config/resolve.js')]);
  configModules = { ConfigStore, loadProfile };
}

function loaded(): NonNullable<typeof configModules> {
  if (configModules === undefined) throw new Error('internal: the configuration modules are not loaded (prepareContext was not called)');
  return configModules;
}

/** What a run that records tells {@link Context.ledger}: who it is, and its journal copy. */
interface LedgerFor {
  /** The command line, for claims and locks (no secrets). */
  command: string;
  /** The operation stamped on each record (`book`, `order accept` …); without it, records name no actor. */
  op?: string;
  /** The run's journal copy (a batch, `journal resolve --journal`). */
  copy?: JournalCopy;
  /** The payment type of the run's accepts, once known (stamped on each `accept_sent`). */
  payment?: () => string | undefined;
}

/**
 * The settings of one run, decided by main from the flags, the profile and the platform before
 * the command runs, and handed down to what uses them (never kept in module state).
 */
export interface RunSettings {
  /** How hints are written: for the shell they are pasted into, with the run's `--profile`. */
  readonly hints: HintStyle;
  /** How strictly addresses are checked (`--strict-addresses`, `--normalize-phones`, or the profile's). */
  readonly addresses: AddressSettings;
}

/** The context handed to every command's run function. */
export interface Context {
  readonly io: IOStreams;
  readonly globals: GlobalOptions;
  /** A machine format (`--json`, `--output json|yaml|ndjson`): results on stdout are data only, no tables. */
  readonly json: boolean;
  /** With `--dry-run`: the requests the client would have sent (redacted), in order. */
  readonly planned: PlannedRequest[];
  /**
   * Where results go, as decided once from the flags and the terminal (src/output/format.ts); its
   * `choice` (format, quiet, colour) is what renderers are given.
   * @throws UsageError on first use for `--json` with another `--output`, or `--quiet` with either
   */
  readonly output: OutputWriter;
  /** `--debug`: print redacted HTTP traffic and stack traces on stderr. */
  readonly debug: boolean;
  /**
   * This run's settings: hints for the platform's shell and no address settings until main, once
   * the flags are parsed, sets them from the flags and the profile.
   */
  settings: RunSettings;
  /** The clock (tests replace it). */
  now(): Date;
  /** Waits between polls (tests replace it); rejects when the signal aborts. */
  sleep: Sleep;
  /** Asks questions on the terminal (lazy; only when `io.canPrompt`; tests give a scripted one). */
  prompter(): Prompter;
  /** The configuration file of this run (`SHIPBOOK_CONFIG_DIR`, XDG, home), opened lazily. */
  configStore(): ConfigStore;
  /** The resolved profile (lazy). @throws ConfigError */
  profile(): Promise<ResolvedProfile>;
  /**
   * The user's state directory: `$SHIPBOOK_STATE_DIR`, else `$XDG_STATE_HOME/shipbook`, else
   * `~/.local/state/shipbook` (the built-in sandbox's state and the journal of single bookings).
   */
  stateDir(): string;
  /** The API client for the profile, starting the built-in sandbox when needed (lazy, once). */
  api(): Promise<ApiClient>;
  /**
   * The identity of this run's target service, for the ledger and journals (src/config/target.ts):
   * the built-in sandbox by its state directory, a service by its normalised base URL and the
   * account of its key (src/ledger/accounts.ts: a new key is asked of the service once, with
   * fetch-order-data of an order the account's ledger holds). Resolved once per run.
   * @throws ConfigError as {@link profile}
   */
  targetId(): Promise<string>;
  /**
   * The target as machine-readable output carries it (`kind`, `base_url`, `profile`). Once
   * {@link api} has started the built-in sandbox, its `base_url` is the sandbox's URL; once a
   * service announced itself as a `shipbook sandbox`, its `kind` is `sandbox`.
   * @throws ConfigError as {@link profile}
   */
  target(): Promise<Target>;
  /**
   * The ledger of this run's target ({@link targetId}) in this run's state directory, in the
   * implementation the profile's `ledger` setting chooses (src/ledger/index.ts `openLedger`):
   * - `query`: its records, for history and sheets;
   * - `peek`: where each document stands, read without writing (a dry run), with the run's journal
   *   copy (`o.copy`) when it keeps one;
   * - `write`: opened for a run that records, with the run's journal copy when it keeps one, its
   *   records stamped with `o.op` and the profile (and the payment type of its accepts, `o.payment`).
   * A `query` or `write` ledger is closed when the run ends (closing it earlier is allowed; it
   * closes once).
   * @throws ConfigError as {@link profile}; as src/ledger/index.ts `openLedger` in that mode
   */
  ledger(mode: 'query'): Promise<LedgerQueries>;
  ledger(mode: 'peek', o?: { copy?: Pick<JournalCopy, 'path'> }): Promise<LedgerPeek>;
  ledger(mode: 'write', o: LedgerFor): Promise<LedgerStore>;
  /**
   * Ends a run that booked anything on a sandbox (built-in or reached by URL) with one line on
   * stderr saying that nothing was really booked; prints nothing otherwise. main calls it once.
   */
  noteEndOfRun(): void;
  /**
   * On the built-in sandbox, which runs inside this command and stops with it: keeps the command
   * until the bookings it accepted have completed and their callbacks have been delivered or given
   * up, at most the processing delay plus `graceMs`, or until the run is interrupted.
   * @returns undefined when this run's target is not the built-in sandbox (nothing waited for);
   *   else what became of the callback of `orderId` (`pending` when the time ran out first);
   *   `onWait` is told the longest wait (ms) before it begins
   */
  settleBuiltinSandbox(orderId: string, graceMs: number, onWait?: (maxMs: number) => void): Promise<BuiltinCallbackOutcome | undefined>;
  /** Writes a debug line on stderr when `--debug` is on. */
  debugLog(line: string): void;
  /**
   * The pickup rule of this run (src/input/pickup.ts): set by the commands that read documents to
   * book or validate ({@link usePickupRule}) before they read them; validation applies it.
   */
  pickup?: PickupRule;
  /**
   * Makes this run's pickup rule from the profile's pickup settings and the flags, and keeps it as
   * {@link pickup}. Loads the collection calendar.
   * @throws UsageError (exit 2) for a `--pickup-date` that is not a day; ConfigError as {@link profile}
   */
  usePickupRule(flags: PickupFlags): Promise<PickupRule>;
  /** Aborted when the run is interrupted (Ctrl-C, SIGTERM); its reason is the signal's name. */
  readonly signal: AbortSignal;
  /** Marks the run interrupted (main's signal handler calls it before {@link close}). */
  abort(reason: string): void;
  /** Registers work to run when the command ends (close servers, sockets). */
  defer(cleanup: () => Promise<void> | void): void;
  /**
   * Registers synchronous work to run if the process exits before the command ends (a second
   * Ctrl-C, a closed stdout, an uncaught error): give back a lock, write what is pending. Returns
   * the function that unregisters it. The one registry of exit work: main runs it from the
   * process's `exit` event (see {@link runExitWork}); no other module listens to the process.
   */
  onExit: OnExit;
  /** Runs the exit work still registered, in the order registered (main, as the process exits). */
  runExitWork(): void;
  /** Runs the deferred cleanups, last registered first. */
  close(): Promise<void>;
}

/**
 * The error for credentials without a base URL: the run would otherwise book in the built-in
 * sandbox and send it the key. Names `SHIPBOOK_BASE_URL` and any look-alike variable that is set
 * (a misspelling such as `SHIPBOOK_BASEURL`). Exit 4.
 */
function missingBaseUrl(env: Readonly<Record<string, string | undefined>>, keySource: string): ConfigError {
  const lookAlikes = Object.keys(env).filter((k) => k !== 'SHIPBOOK_BASE_URL' && /^SHIPBOOK_.*(BASE|URL)/i.test(k) && env[k]);
  return new ConfigError(`an API key is given (${keySource}) but no base URL: SHIPBOOK_BASE_URL is not set`, {
    suggestion:
      (lookAlikes.length > 0 ? `${lookAlikes.join(', ')} is set, but the variable is SHIPBOOK_BASE_URL. ` : '') +
      'Set SHIPBOOK_BASE_URL to the service, or unset SHIPBOOK_API_KEY to try the built-in sandbox (the key is never sent to it).',
  });
}

/** The steps that book something: after one succeeds on a sandbox, the run ends saying nothing was really booked. */
const BOOKING_ENDPOINTS: ReadonlySet<EndpointName> = new Set<EndpointName>(['createOrder', 'acceptOrder', 'createShipment', 'combineShipments']);

/** What became of a callback of the built-in sandbox: delivered (with the receiver's HTTP status), given up, or still pending. */
interface BuiltinCallbackOutcome {
  state: 'delivered' | 'gave_up' | 'aborted' | 'pending';
  /** The last attempt's HTTP status, or its error (`ECONNREFUSED`, `timeout` …); absent before the first attempt. */
  lastOutcome?: number | string;
  /** Attempts made (0 when the callback was never sent). */
  attempts: number;
}

/** Builds the context of one run. `globals` is read when first needed, so main can fill it in a preAction hook. */
export function createContext(io: IOStreams, globals: GlobalOptions, overrides: ContextOverrides = {}): Context {
  let profilePromise: Promise<ResolvedProfile> | undefined;
  let prompter = overrides.prompter;
  let store = overrides.configStore;
  let writer: OutputWriter | undefined;
  const interruption = new AbortController();
  let apiPromise: Promise<ApiClient> | undefined;
  // The built-in sandbox's URL once started (it has a new port on every run).
  let startedUrl: string | undefined;
  // The built-in sandbox once started (it runs in this process).
  let builtin:
    | {
        whenIdle(timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
        state: { callbacks: readonly { orderId: string; attempts: number; lastOutcome?: number | string; state: BuiltinCallbackOutcome['state'] }[] };
        options: { processingDelayMs: number };
      }
    | undefined;
  const cleanups: Array<() => Promise<void> | void> = [];
  const atExit = exitWork();
  // --quiet: the quiet writer keeps the real stdout; main silences every other write to it.
  const realOut = io.out;

  // The target as last said (on stderr and in machine output); a service may turn out to be a sandbox.
  let currentTarget: Target | undefined;
  // True once an order or shipment was created, accepted or combined at the service.
  let booked = false;
  // True once an order was accepted: only then did this run book (a created order is not booked).
  let accepted = false;
  const sayTarget = (target: Target) => {
    currentTarget = target;
    try {
      ctx.output.setTarget(target);
    } catch {
      // the format flags are wrong: the command fails on its first write and says so
    }
  };
  // Every answer: a `shipbook sandbox` server reached as a service announces itself, and its
  // output is marked whatever the profile says; a successful booking step is remembered for the
  // closing line of a sandbox run.
  const noticeAnswer = (answer: AnswerNotice) => {
    if (answer.status >= 200 && answer.status < 300 && BOOKING_ENDPOINTS.has(answer.endpoint)) {
      booked = true;
      if (answer.endpoint === 'acceptOrder') accepted = true;
    }
    if (!answer.sandbox || currentTarget?.kind !== 'service') return;
    io.err(
      `${paint(io, 'yellow', '[sandbox]')} ${currentTarget.base_url} announces itself as a shipbook sandbox: simulated service, nothing is really booked\n`,
    );
    markSandboxOutput();
    sayTarget({ ...currentTarget, kind: 'sandbox' });
  };

  // A line on stderr, broken between words to a terminal's width (a terminal breaks it anywhere,
  // in the middle of a word); as it is elsewhere. wrap-ansi is loaded only for a terminal.
  const sayOnTerminal = async (line: string) => {
    const columns = io.stderrIsTTY ? (io.stderr as { columns?: number }).columns : undefined;
    const wrapAnsi = columns ? (await import('wrap-ansi')).default : undefined;
    io.err(`${wrapAnsi && columns ? wrapAnsi(line, columns - 1, { hard: false, trim: true }) : line}\n`);
  };

  // Output made against a sandbox says so on stdout too.
  const markSandboxOutput = () => {
    try {
      ctx.output.markSandbox();
    } catch {
      // the format flags are wrong: the command fails on its first write and says so
    }
  };

  // The target's identity, resolved once per run (the key's account may be asked of the service).
  let targetPromise: Promise<string> | undefined;
  const resolveTargetId = async (): Promise<string> => {
    const profile = await ctx.profile();
    const stateDir = ctx.stateDir();
    if (!profile.baseUrl) return targetId(profile, stateDir);
    const key = keyFingerprint(profile.apiKey);
    const { resolveAccount } = await import('./ledger/index.js');
    let r: Awaited<ReturnType<typeof resolveAccount>>;
    try {
      r = await resolveAccount({
        stateDir,
        service: serviceIdentity(profile.baseUrl),
        key,
        // A dry run sends nothing, not even this read.
        ...(globals.dryRun ? {} : { probe: (orderIds: string[]) => probeAccount(orderIds, profile) }),
      });
    } catch {
      // A state directory that cannot be written: opening the ledger says so, with its own words.
      return targetId(profile, stateDir);
    }
    if (r.linked !== undefined)
      io.err(
        `${paint(io, 'cyan', 'note:')} a new API key for ${serviceIdentity(profile.baseUrl)} (fingerprint ${key}): the service shows it order ${r.linked.orderId} of the ledger of key ${r.account}, so it is the same account and carries on that ledger\n`,
      );
    for (const path of r.merged)
      io.err(
        `${paint(io, 'cyan', 'note:')} merged the ledger ${path} (another spelling of the URL, or another key of this account) into this account's ledger; the old file is kept as ${path}.merged\n`,
      );
    return targetId(profile, stateDir, r.account);
  };
  // Whether the service shows the run's key any of these orders (fetch-order-data): the key is then that account's.
  const probeAccount = async (orderIds: string[], profile: ResolvedProfile): Promise<'same' | 'other' | undefined> => {
    const [{ fetchOrder }, { ApiError }] = await Promise.all([import('./api/orders.js'), import('./errors.js')]);
    const api = await ctx.api();
    for (const orderId of orderIds) {
      try {
        await fetchOrder(api, orderId, profile.paths);
        return 'same';
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) return undefined;
      }
    }
    return 'other';
  };

  const ctx: Context = {
    io,
    globals,
    get json() {
      return ctx.output.machine;
    },
    planned: [],
    get output() {
      // The one decision of the run's output, from the parsed flags and the real terminal.
      writer ??= writerFor(resolveOutput(globals, io), io, realOut);
      return writer;
    },
    get debug() {
      return globals.debug === true;
    },
    // Hints are written for the shell they will be pasted into (PowerShell or cmd on Windows).
    settings: { hints: { shell: hintShellFor(io.env, process.platform) }, addresses: DEFAULT_ADDRESS_SETTINGS },
    now: overrides.now ?? (() => new Date()),
    sleep: overrides.sleep ?? realSleep,
    prompter() {
      prompter ??= inquirerPrompter(io);
      return prompter;
    },
    configStore() {
      store ??= loaded().ConfigStore.fromEnv(io.env);
      return store;
    },
    profile() {
      // Reads the configuration file only now, so `--help` and `validate` never touch it.
      // The configuration modules are loaded here when main's preAction did not (a test's own context).
      profilePromise ??= prepareContext().then(() =>
        loaded().loadProfile({ profileFlag: globals.profile, env: io.env, store: ctx.configStore(), warn: (line) => io.err(`${paint(io, 'yellow', line)}\n`) }),
      );
      return profilePromise;
    },
    stateDir() {
      return stateDirectory(io.env);
    },
    api() {
      apiPromise ??= (async () => {
        const profile = await ctx.profile();
        let baseUrl = profile.baseUrl;
        let apiKey = profile.apiKey;
        if (!baseUrl) {
          // A key meant for a real service never goes to the throw-away sandbox.
          if (profile.sources.apiKey !== undefined) throw missingBaseUrl(io.env, profile.sources.apiKey);
          const { startBuiltinSandbox } = await import('./sandbox-builtin.js');
          // The sandbox runs in this process: a request that waits for another process holding its
          // state is said at once, with who holds it, instead of a silent wait.
          const sandbox = await startBuiltinSandbox(io.env, {
            onStateWait: (holder, waitMs) =>
              io.err(
                `${paint(io, 'yellow', 'note:')} waiting for the built-in sandbox's state (${stateDirectory(io.env)}): its lock is held by ${holder}, a process that is paused or slow; up to ${Math.round(waitMs / 1000)} s, then the request is answered "busy" and nothing is done\n`,
              ),
          });
          const { SANDBOX_API_KEY } = sandbox;
          cleanups.push(() => sandbox.close());
          builtin = sandbox;
          baseUrl = sandbox.url;
          startedUrl = sandbox.url;
          apiKey ??= SANDBOX_API_KEY;
          await sayOnTerminal(
            `${paint(io, 'yellow', '[sandbox]')} built-in sandbox at ${sandbox.url} (state in ${sandbox.stateDir}): simulated service, nothing is really booked`,
          );
          markSandboxOutput();
        } else if (profile.sandbox) {
          await sayOnTerminal(
            `${paint(io, 'yellow', '[sandbox]')} sandbox at ${baseUrl} (profile ${profile.name}): simulated service, nothing is really booked`,
          );
          markSandboxOutput();
        }
        const target = describeTarget(profile, baseUrl);
        if (target.kind === 'service') {
          const from = target.profile === null ? 'from SHIPBOOK_BASE_URL' : `profile ${target.profile}`;
          io.err(`${paint(io, 'cyan', '[service]')} ${baseUrl} (${from}, key ${apiKey ? maskSecret(apiKey) : 'none'})\n`);
        }
        sayTarget(target);
        ctx.debugLog(`profile ${profile.name}, base URL ${baseUrl}, key ${maskSecret(apiKey)}`);
        const { ApiClient } = await import('./api/client.js');
        const client = new ApiClient({
          baseUrl,
          apiKey,
          authHeader: profile.authHeader,
          authPrefix: profile.authPrefix,
          debug: globals.debug ? (line) => ctx.debugLog(line) : undefined,
          // Ctrl-C / SIGTERM abort a request in flight at once; the error says whether it was sent.
          signal: ctx.signal,
          ...(globals.requestTimeout !== undefined
            ? { timeoutMs: parseDuration('--request-timeout', globals.requestTimeout) }
            : profile.requestTimeoutMs !== undefined
              ? { timeoutMs: profile.requestTimeoutMs }
              : {}),
          // --rate, else the profile's rate: the pace every request of the run keeps (src/api/pacer.ts).
          ...(globals.rate !== undefined
            ? { rate: parseRate('--rate', globals.rate) }
            : profile.ratePerSecond !== undefined
              ? { rate: profile.ratePerSecond }
              : {}),
          // --dry-run: every call is validated and recorded, and nothing is sent (DryRunHalt).
          ...(globals.dryRun ? { dryRun: (planned: PlannedRequest) => void ctx.planned.push(planned) } : {}),
          onAnswer: (answer) => noticeAnswer(answer),
        });
        cleanups.push(() => client.close());
        return client;
      })();
      return apiPromise;
    },
    targetId() {
      targetPromise ??= resolveTargetId();
      return targetPromise;
    },
    async target() {
      return currentTarget ?? describeTarget(await ctx.profile(), startedUrl);
    },
    ledger: (async (mode: 'query' | 'peek' | 'write', o?: LedgerFor | { copy?: Pick<JournalCopy, 'path'> }) => {
      const { openLedger } = await import('./ledger/index.js');
      const profile = await ctx.profile();
      const where = { setting: profile.ledger, stateDir: ctx.stateDir(), target: await ctx.targetId() };
      if (mode === 'peek') return openLedger({ mode, ...where, ...(o?.copy ? { copy: o.copy } : {}) });
      let ledger: LedgerQueries | LedgerStore;
      if (mode === 'query') ledger = await openLedger({ mode, ...where });
      else {
        const w = o as LedgerFor;
        ledger = await openLedger({
          mode,
          ...where,
          command: w.command,
          onExit: ctx.onExit,
          ...(w.copy ? { copy: w.copy } : {}),
          ...(w.op !== undefined ? { actor: { op: w.op, profile: profile.name, ...(w.payment ? { payment: w.payment } : {}) } } : {}),
        });
      }
      // Closed once: by its command when it closes it early, else when the run ends.
      const close = ledger.close.bind(ledger);
      let closing: Promise<void> | undefined;
      ledger.close = () => (closing ??= close());
      cleanups.push(() => ledger.close());
      return ledger;
    }) as Context['ledger'],
    noteEndOfRun() {
      if (!booked || currentTarget === undefined || currentTarget.kind === 'service') return;
      const where = currentTarget.kind === 'builtin-sandbox' ? 'the built-in sandbox' : `the sandbox at ${currentTarget.base_url}`;
      io.err(
        `${paint(io, 'yellow', '[sandbox]')} nothing was really booked: this run ${accepted ? 'booked' : 'created orders or shipments, none accepted,'} on ${where}, a simulated service\n`,
      );
    },
    async settleBuiltinSandbox(orderId, graceMs, onWait) {
      if (builtin === undefined) return undefined;
      const maxMs = builtin.options.processingDelayMs + graceMs;
      onWait?.(maxMs);
      await builtin.whenIdle(maxMs, interruption.signal);
      const record = builtin.state.callbacks.findLast((c) => c.orderId === orderId);
      if (record === undefined) return { state: 'pending', attempts: 0 };
      return { state: record.state, attempts: record.attempts, ...(record.lastOutcome !== undefined ? { lastOutcome: record.lastOutcome } : {}) };
    },
    async usePickupRule(flags) {
      checkPickupFlags(flags);
      ctx.pickup = await pickupRule((await ctx.profile()).pickup, flags, () => ctx.now());
      return ctx.pickup;
    },
    debugLog(line) {
      if (globals.debug) io.err(`${paint(io, 'dim', 'debug:')} ${line}\n`);
    },
    signal: interruption.signal,
    abort(reason) {
      interruption.abort(reason);
    },
    defer(cleanup) {
      cleanups.push(cleanup);
    },
    onExit: atExit.add,
    runExitWork: atExit.run,
    async close() {
      while (cleanups.length > 0) {
        const cleanup = cleanups.pop()!;
        try {
          await cleanup();
        } catch {
          // closing is best effort
        }
      }
    },
  };
  return ctx;
}
