/**
 * One output layer: the format of stdout is chosen once (resolveOutput, src/output/format.ts, which
 * lists the formats), from the global flags and the terminal, and every command hands its data
 * (and, for people, a renderer given the format) to one {@link OutputWriter}; errors go through the
 * same writer. Money is written as two-decimal strings in every machine format (see Money.toJSON).
 */
import type { IOStreams } from '../io.js';
import type { Target } from '../config/target.js';
import { addStates } from './state.js';
import { isMachineFormat, type OutputChoice, type OutputFormat } from './format.js';
import { scrubKnownValue } from '../api/redact.js';
import { applyPick } from './pick.js';

/** The YAML writer, loaded by {@link prepareYaml} only when `--output yaml` asks for it. */
let toYaml: ((value: unknown) => string) | undefined;

/** Loads the YAML writer (prepareOutput, src/output/setup.ts, calls it for `--output yaml`). Safe to call twice. */
export async function prepareYaml(): Promise<void> {
  if (toYaml !== undefined) return;
  // yaml is CommonJS: bundled, a dynamic import may hold its exports under `default` only.
  const m = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  toYaml = m.stringify ?? m.default?.stringify;
}

/** The choice of a writer made for a format alone (no flags: not quiet, no colour). */
function choiceOf(format: OutputFormat): OutputChoice {
  return { format, machine: isMachineFormat(format), quiet: false, color: false };
}

/**
 * `value` as text in a machine format, ending in a newline. A table or tsv format serialises as
 * JSON (for output that is data by nature, such as a JSON Schema).
 */
export function serialize(format: OutputFormat, value: unknown): string {
  if (format === 'ndjson') return `${JSON.stringify(value)}\n`;
  // Through JSON first, so Money and dates take their JSON form in YAML too.
  if (format === 'yaml') {
    if (toYaml === undefined) throw new Error('internal: the YAML writer is not loaded (prepareYaml was not called)');
    return toYaml(JSON.parse(JSON.stringify(value ?? null)) as unknown);
  }
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Where a command's results go: stdout, in the format of this run. */
export interface OutputWriter {
  /** The decision this writer follows (format, quiet, colour): what renderers are given. */
  readonly choice: OutputChoice;
  /** `choice.format`. */
  readonly format: OutputFormat;
  /** True for json, yaml and ndjson. */
  readonly machine: boolean;
  /**
   * Writes a result: `data` serialised in a machine format, else what `human` prints (a table or
   * tab-separated lines: the renderer is given this writer's {@link OutputWriter.format}).
   */
  write(data: unknown, human: () => void): void;
  /** Writes `data` serialised (machine formats; JSON for table/tsv). */
  data(data: unknown): void;
  /**
   * Starts a stream of records written as they come (a batch's orders as each finishes); see
   * {@link RecordStream} for what each format makes of them.
   */
  stream<T>(): RecordStream<T>;
  /**
   * Writes an error body `{error: {...}}` on stdout in a machine format (nothing for people, who
   * read the error on stderr). `scrub` masks secrets in the text before it is written.
   */
  error(body: unknown, scrub: (text: string) => string): void;
  /**
   * Marks this run's output as made against a sandbox (docs/configuration.md, "Sandbox or real service: the target of a run"):
   * in a machine format every document written afterwards gets `"sandbox": true`; in a table or
   * tsv a marker line is printed on stdout now (`sandbox<TAB>simulated service, nothing is really booked`).
   */
  markSandbox(): void;
  /**
   * Names the service this run talks to: every machine document written afterwards (results and
   * errors) carries it as `target` (`kind`, `base_url`, `profile`). Set again when it changes (a
   * service that announces itself as a sandbox in its first answer).
   */
  setTarget(target: Target): void;
  /** The target last set, or undefined when the run has not chosen one (it talks to no service). */
  readonly target: Target | undefined;
}

/**
 * Records written as they come, then one closing document: in ndjson each record is a line of its
 * own; in json and yaml the records are kept for the closing document; under `--quiet` each
 * record's ids are printed; in a table or tsv, what the record's `human` renderer prints.
 */
export interface RecordStream<T> {
  /** Writes (or keeps) one record; `human` prints it for people (a table or tsv). */
  add(record: T, human: () => void): void;
  /** Writes the closing document that `document` builds from the records kept (json and yaml only). */
  end(document: (records: T[]) => unknown): void;
}

/** The marker line of sandbox output in tsv (a table shows it as `[sandbox] …`). */
const SANDBOX_NOTE = 'simulated service, nothing is really booked';

/**
 * A writer on `io.out` for `choice` (or for a format alone: not quiet, no colour). When stdout and
 * stderr are both terminals (`stdoutIsTTY`, `stderrIsTTY`), they are one screen: the sandbox line
 * on stderr is the marker there, and a table does not repeat it on stdout.
 */
export function createWriter(
  io: Pick<IOStreams, 'out'> & Partial<Pick<IOStreams, 'stdoutIsTTY' | 'stderrIsTTY'>>,
  choice: OutputChoice | OutputFormat,
): OutputWriter {
  const decided = typeof choice === 'string' ? choiceOf(choice) : choice;
  const { format, machine, pick } = decided;
  // A machine document on stdout: in the format, or through --jq/--template when the user picks from it.
  const emit = (doc: unknown) => io.out(pick !== undefined ? applyPick(pick, doc) : serialize(format, doc));
  let sandbox = false;
  let target: Target | undefined;
  // Machine documents: the documented `state` beside every order's and shipment's `status`,
  // `sandbox: true` when the run talks to a sandbox, and the `target` of the run.
  const document = (data: unknown): unknown => {
    // Secrets the run knows (key, card numbers, CVVs) never reach stdout, even echoed by a service in a field shipbook does not know.
    const withStates = scrubKnownValue(addStates(data));
    if (typeof withStates !== 'object' || withStates === null || Array.isArray(withStates)) return withStates;
    return { ...withStates, ...(sandbox ? { sandbox: true } : {}), ...(target ? { target } : {}) };
  };
  return {
    choice: decided,
    format,
    machine,
    get target() {
      return target;
    },
    setTarget(next) {
      target = { ...next };
    },
    write(data, human) {
      if (machine) emit(document(data));
      else human();
    },
    data(data) {
      if (machine) emit(document(data));
      else io.out(serialize(format, data));
    },
    stream<T>(): RecordStream<T> {
      const kept: T[] = [];
      return {
        add: (record, human) => {
          if (format === 'ndjson') io.out(serialize(format, document(record)));
          else if (machine) kept.push(record);
          else human();
        },
        end: (build) => {
          if (format === 'json' || format === 'yaml') emit(document(build(kept)));
        },
      };
    },
    markSandbox() {
      if (sandbox) return;
      sandbox = true;
      const oneScreen = io.stdoutIsTTY === true && io.stderrIsTTY === true;
      if (!machine && !(format === 'table' && oneScreen)) io.out(format === 'tsv' ? `sandbox\t${SANDBOX_NOTE}\n` : `[sandbox] ${SANDBOX_NOTE}\n`);
    },
    error(body, scrub) {
      // With --jq/--template stdout carries only what the user picked: the error is on stderr alone.
      if (!machine || pick !== undefined) return;
      // Scrubbed as JSON text (exactly what --json always wrote), then written in the format, so a
      // mask such as ****1234 stays a quoted string in YAML.
      const scrubbed = scrub(serialize('json', document(body)));
      io.out(format === 'json' ? scrubbed : serialize(format, JSON.parse(scrubbed)));
    },
  };
}
