/**
 * What a command may use: IO streams, the clock, the profile and the API client. Dependencies
 * are created lazily, so `shipbook validate` and `--help` never read credentials or open
 * sockets. When the profile has no base URL the built-in sandbox is started in-process on a
 * random loopback port and marked as such on stderr.
 */
import { ApiClient } from './api/client.js';
import { maskSecret } from './api/redact.js';
import { loadProfile } from './config/resolve.js';
import { ConfigStore } from './config/store.js';
import { inquirerPrompter, type Prompter } from './prompter.js';
import { chooseFormat, createWriter, type OutputWriter } from './output/writer.js';
import type { ResolvedProfile } from './config/profile.js';
import { realSleep, type Sleep } from './booking/wait.js';
import type { IOStreams } from './io.js';
import { paint } from './output/style.js';

/** Global flags, as parsed by the root command. */
export interface GlobalOptions {
  json?: boolean;
  /** `--output table|tsv|json|yaml|ndjson`. */
  output?: string;
  debug?: boolean;
  profile?: string;
  input?: boolean; // commander's --no-input
  color?: boolean; // commander's --no-color
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

/** The context handed to every command's run function. */
export interface Context {
  readonly io: IOStreams;
  readonly globals: GlobalOptions;
  /** A machine format (`--json`, `--output json|yaml|ndjson`): results on stdout are data only, no tables. */
  readonly json: boolean;
  /**
   * Where results go, in the format chosen once from the flags and the terminal (src/output/writer.ts).
   * @throws UsageError on first use for `--json` with another `--output`
   */
  readonly output: OutputWriter;
  /** `--debug`: print redacted HTTP traffic and stack traces on stderr. */
  readonly debug: boolean;
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
  /** The API client for the profile, starting the built-in sandbox when needed (lazy, once). */
  api(): Promise<ApiClient>;
  /** Writes a debug line on stderr when `--debug` is on. */
  debugLog(line: string): void;
  /** Aborted when the run is interrupted (Ctrl-C, SIGTERM); its reason is the signal's name. */
  readonly signal: AbortSignal;
  /** Marks the run interrupted (main's signal handler calls it before {@link close}). */
  abort(reason: string): void;
  /** Registers work to run when the command ends (close servers, sockets). */
  defer(cleanup: () => Promise<void> | void): void;
  /** Runs the deferred cleanups, last registered first. */
  close(): Promise<void>;
}

/** Builds the context of one run. `globals` is read when first needed, so main can fill it in a preAction hook. */
export function createContext(io: IOStreams, globals: GlobalOptions, overrides: ContextOverrides = {}): Context {
  let profilePromise: Promise<ResolvedProfile> | undefined;
  let prompter = overrides.prompter;
  let store = overrides.configStore;
  let writer: OutputWriter | undefined;
  const interruption = new AbortController();
  let apiPromise: Promise<ApiClient> | undefined;
  const cleanups: Array<() => Promise<void> | void> = [];

  const ctx: Context = {
    io,
    globals,
    get json() {
      return ctx.output.machine;
    },
    get output() {
      writer ??= createWriter(io, chooseFormat(globals, io.stdoutIsTTY));
      return writer;
    },
    get debug() {
      return globals.debug === true;
    },
    now: overrides.now ?? (() => new Date()),
    sleep: overrides.sleep ?? realSleep,
    prompter() {
      prompter ??= inquirerPrompter(io);
      return prompter;
    },
    configStore() {
      store ??= ConfigStore.fromEnv(io.env);
      return store;
    },
    profile() {
      // Reads the configuration file only now, so `--help` and `validate` never touch it.
      profilePromise ??= Promise.resolve().then(() =>
        loadProfile({ profileFlag: globals.profile, env: io.env, store: ctx.configStore(), warn: (line) => io.err(`${paint(io, 'yellow', line)}\n`) }),
      );
      return profilePromise;
    },
    api() {
      apiPromise ??= (async () => {
        const profile = await ctx.profile();
        let baseUrl = profile.baseUrl;
        let apiKey = profile.apiKey;
        if (!baseUrl) {
          const { startBuiltinSandbox } = await import('./sandbox-builtin.js');
          const sandbox = await startBuiltinSandbox(io.env);
          const { SANDBOX_API_KEY } = sandbox;
          cleanups.push(() => sandbox.close());
          baseUrl = sandbox.url;
          apiKey ??= SANDBOX_API_KEY;
          io.err(
            `${paint(io, 'yellow', '[sandbox]')} built-in sandbox at ${sandbox.url} (state in ${sandbox.stateDir}): simulated service, nothing is really booked\n`,
          );
        } else if (profile.sandbox) {
          io.err(`${paint(io, 'yellow', '[sandbox]')} sandbox at ${baseUrl}\n`);
        }
        ctx.debugLog(`profile ${profile.name}, base URL ${baseUrl}, key ${maskSecret(apiKey)}`);
        const client = new ApiClient({
          baseUrl,
          apiKey,
          authHeader: profile.authHeader,
          authPrefix: profile.authPrefix,
          debug: globals.debug ? (line) => ctx.debugLog(line) : undefined,
          // Ctrl-C / SIGTERM abort a request in flight at once; the error says whether it was sent.
          signal: ctx.signal,
          ...(profile.requestTimeoutMs !== undefined ? { timeoutMs: profile.requestTimeoutMs } : {}),
        });
        cleanups.push(() => client.close());
        return client;
      })();
      return apiPromise;
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
