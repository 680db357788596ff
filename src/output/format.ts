/**
 * The one decision of how a run writes: the format of stdout (`--output`, `--json`, else table on a
 * terminal and tsv without one), `--quiet` and colour, from the parsed global flags and the real
 * terminal. The writer (src/output/writer.ts) and every renderer follow it; nothing else reads the
 * flags or changes what the streams say about the terminal. Formats:
 * - `table`: tables for people (the default when stdout is a terminal);
 * - `tsv`: tab-separated lines for `cut`/`grep` (the default otherwise);
 * - `json`: one indented JSON document (`--json` is `--output json`);
 * - `yaml`: the same document as YAML;
 * - `ndjson`: the same document as one compact JSON line.
 */
import { UsageError } from '../errors.js';
import type { IOStreams } from '../io.js';
import type { OutputPick } from './pick.js';

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

/** The global flags that decide the output, as the root command parses them. */
interface OutputFlags {
  /** `--json`: the same as `--output json`. */
  json?: boolean;
  /** `--output <format>`: one of {@link OUTPUT_FORMATS}. */
  output?: string;
  /** `--quiet`: only the ids of what was created or shown. */
  quiet?: boolean;
  /** False with `--no-color` (commander's negated flag); undefined or true otherwise. */
  color?: boolean;
  /** `--jq <expression>`: the JSON document filtered by jq (src/output/pick.ts). */
  jq?: string;
  /** `--template <template>`: the JSON document rendered by a Handlebars template (src/output/pick.ts). */
  template?: string;
}

/**
 * How this run writes, decided once from the flags and the real terminal: the writer and every
 * renderer take it from here (renderers draw a table only for `format === 'table'`), and nothing
 * else looks at the flags or pretends the terminal is something it is not.
 */
export interface OutputChoice {
  /**
   * The format of results on stdout. Under `--quiet` it is `tsv`: the quiet writer prints only ids,
   * and what a renderer draws (tab-separated lines) is dropped.
   */
  readonly format: OutputFormat;
  /** True for json, yaml and ndjson: data only on stdout. */
  readonly machine: boolean;
  /** `--quiet`: stdout carries only the ids the writer picks out (src/output/quiet.ts); every other write to it is dropped. */
  readonly quiet: boolean;
  /** Colour on stdout and stderr: the terminal's (terminals only, `NO_COLOR`, `FORCE_COLOR`), and never with `--no-color`. */
  readonly color: boolean;
  /**
   * `--jq` or `--template`: every machine document is printed through it (the format is then
   * `json`: what the user picks from is the JSON document), and errors go to stderr only.
   */
  readonly pick?: OutputPick;
}

/**
 * The one decision of how a run writes (see {@link OutputChoice}): `--quiet`, else `--output`,
 * else `--json`, else `table` when stdout is a terminal and `tsv` otherwise.
 * @throws UsageError (exit 2) for `--quiet` with `--json` or `--output`, for `--json` with an
 *   `--output` other than json, and for an `--output` that is not a format
 */
export function resolveOutput(flags: OutputFlags, terminal: Pick<IOStreams, 'stdoutIsTTY' | 'color'>): OutputChoice {
  if (flags.quiet && (flags.json || flags.output !== undefined)) {
    throw new UsageError(`--quiet and ${flags.json ? '--json' : `--output ${flags.output}`} ask for two kinds of output`, { suggestion: 'Give one of them.' });
  }
  const pick = pickOf(flags);
  const format = flags.quiet ? 'tsv' : pick !== undefined ? 'json' : chooseFormat(flags, terminal.stdoutIsTTY);
  return { format, machine: isMachineFormat(format), quiet: flags.quiet === true, color: outputColor(flags, terminal), ...(pick ? { pick } : {}) };
}

/**
 * `--jq` or `--template`, checked against the other output flags: each picks from the JSON
 * document, so it goes with `--json` (or `--output json`) or alone.
 * @throws UsageError (exit 2) for both at once, or beside `--quiet` or another `--output`
 */
function pickOf(flags: OutputFlags): OutputPick | undefined {
  if (flags.jq !== undefined && flags.template !== undefined) {
    throw new UsageError('--jq and --template ask for two outputs', { suggestion: 'Give one of them.' });
  }
  const pick: OutputPick | undefined =
    flags.jq !== undefined ? { kind: 'jq', expression: flags.jq } : flags.template !== undefined ? { kind: 'template', expression: flags.template } : undefined;
  if (pick === undefined) return undefined;
  const flag = pick.kind === 'jq' ? '--jq' : '--template';
  if (flags.quiet) throw new UsageError(`--quiet and ${flag} ask for two kinds of output`, { suggestion: 'Give one of them.' });
  if (flags.output !== undefined && flags.output !== 'json') {
    throw new UsageError(`${flag} picks from the JSON document; --output ${flags.output} asks for another format`, {
      suggestion: `Leave out --output ${flags.output}.`,
    });
  }
  if (pick.expression.trim() === '')
    throw new UsageError(`${flag} needs an expression`, {
      suggestion: pick.kind === 'jq' ? 'For example --jq .order.id' : 'For example --template "{{order.id}}"',
    });
  return pick;
}

/**
 * Colour of this run ({@link OutputChoice.color}): the terminal's, and never with `--no-color`.
 * main applies it before anything can fail, so even an error about the other output flags is plain.
 */
export function outputColor(flags: Pick<OutputFlags, 'color'>, terminal: Pick<IOStreams, 'color'>): boolean {
  return terminal.color && flags.color !== false;
}

/** True for the formats meant for programs (json, yaml, ndjson): no tables, data only. */
export function isMachineFormat(format: OutputFormat): boolean {
  return format === 'json' || format === 'yaml' || format === 'ndjson';
}
