/**
 * One output layer: the format of stdout is chosen once, from the global flags
 * and the terminal, and every command hands its data (and, for people, a renderer) to one
 * {@link OutputWriter}; errors go through the same writer. Formats:
 * - `table`: tables for people (the default when stdout is a terminal);
 * - `tsv`: tab-separated lines for `cut`/`grep` (the default otherwise);
 * - `json`: one indented JSON document (`--json` is `--output json`);
 * - `yaml`: the same document as YAML;
 * - `ndjson`: the same document as one compact JSON line.
 * Money is written as two-decimal strings in every machine format (see Money.toJSON).
 */
import { UsageError } from '../errors.js';
import type { IOStreams } from '../io.js';
import type { Target } from '../config/target.js';
import { addStates } from './state.js';
import { scrubKnownValue } from '../api/redact.js';

/** The YAML writer, loaded by {@link prepareYaml} only when `--output yaml` asks for it. */
let toYaml: ((value: unknown) => string) | undefined;

/** Loads the YAML writer; main calls it when the arguments ask for `--output yaml`. Safe to call twice. */
export async function prepareYaml(): Promise<void> {
  if (toYaml !== undefined) return;
  // yaml is CommonJS: bundled, a dynamic import may hold its exports under `default` only.
  const m = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  toYaml = m.stringify ?? m.default?.stringify;
}

/** The formats `--output` accepts. */
export const OUTPUT_FORMATS = ['table', 'tsv', 'json', 'yaml', 'ndjson'] as const;

/** One output format (see the module documentation). */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * The format of this run: `--output`, else `--json`, else `table` on a terminal and `tsv` without one.
 * @throws UsageError (exit 2) for `--json` together with an `--output` other than json
 */
export function chooseFormat(flags: { output?: string; json?: boolean }, stdoutIsTTY: boolean): OutputFormat {
  const output = flags.output as OutputFormat | undefined;
  if (output !== undefined && !(OUTPUT_FORMATS as readonly string[]).includes(output)) {
    throw new UsageError(`--output must be one of ${OUTPUT_FORMATS.join(', ')} (got "${output}")`);
  }
  if (flags.json && output !== undefined && output !== 'json') {
    throw new UsageError(`--json and --output ${output} ask for two formats`, { suggestion: `Give one: --output ${output}, or --json.` });
  }
  if (output !== undefined) return output;
  if (flags.json) return 'json';
  return stdoutIsTTY ? 'table' : 'tsv';
}

/** True for the formats meant for programs (json, yaml, ndjson): no tables, data only. */
export function isMachineFormat(format: OutputFormat): boolean {
  return format === 'json' || format === 'yaml' || format === 'ndjson';
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
  readonly format: OutputFormat;
  /** True for json, yaml and ndjson. */
  readonly machine: boolean;
  /**
   * Writes a result: `data` serialised in a machine format, else what `human` prints (a table or
   * tab-separated lines, chosen by the format through `io.stdoutIsTTY`).
   */
  write(data: unknown, human: () => void): void;
  /** Writes `data` serialised (machine formats; JSON for table/tsv). */
  data(data: unknown): void;
  /**
   * Writes an error body `{error: {...}}` on stdout in a machine format (nothing for people, who
   * read the error on stderr). `scrub` masks secrets in the text before it is written.
   */
  error(body: unknown, scrub: (text: string) => string): void;
  /**
   * Marks this run's output as made against a sandbox (docs/assumptions.md, "The sandbox"):
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

/** The marker line of sandbox output in tsv (a table shows it as `[sandbox] …`). */
export const SANDBOX_NOTE = 'simulated service, nothing is really booked';

/** A writer on `io.out` for `format`. */
export function createWriter(io: Pick<IOStreams, 'out'>, format: OutputFormat): OutputWriter {
  const machine = isMachineFormat(format);
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
    format,
    machine,
    get target() {
      return target;
    },
    setTarget(next) {
      target = { ...next };
    },
    write(data, human) {
      if (machine) io.out(serialize(format, document(data)));
      else human();
    },
    data(data) {
      io.out(serialize(format, machine ? document(data) : data));
    },
    markSandbox() {
      if (sandbox) return;
      sandbox = true;
      if (!machine) io.out(format === 'tsv' ? `sandbox\t${SANDBOX_NOTE}\n` : `[sandbox] ${SANDBOX_NOTE}\n`);
    },
    error(body, scrub) {
      if (!machine) return;
      // Scrubbed as JSON text (exactly what --json always wrote), then written in the format, so a
      // mask such as ****1234 stays a quoted string in YAML.
      const scrubbed = scrub(serialize('json', document(body)));
      io.out(format === 'json' ? scrubbed : serialize(format, JSON.parse(scrubbed)));
    },
  };
}
