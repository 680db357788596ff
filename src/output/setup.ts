/**
 * Sets up a run's output from its decision (src/output/format.ts): loads what the format writes
 * with, and makes the writer.
 */
import type { IOStreams } from '../io.js';
import type { OutputChoice } from './format.js';
import { createQuietWriter } from './quiet.js';
import { prepareTables } from './table.js';
import { createWriter, prepareYaml, type OutputWriter } from './writer.js';
import { preparePick } from './pick.js';

/**
 * Loads what `choice` writes with, before the command runs: the table fitter for `table`, the YAML
 * writer for `yaml`, jq or the template engine for `--jq`/`--template` (the other formats need
 * none, so start-up stays light). Safe to call twice.
 * @throws UsageError (exit 2) for a `--jq` or `--template` that does not compile
 */
export async function prepareOutput(choice: Pick<OutputChoice, 'format' | 'pick'>): Promise<void> {
  if (choice.format === 'table') await prepareTables();
  if (choice.format === 'yaml') await prepareYaml();
  // --jq and --template: jq or the template engine loaded, and the expression checked before the command runs.
  if (choice.pick !== undefined) await preparePick(choice.pick);
}

/**
 * The writer of `choice`: the quiet writer (ids only, on `realOut`, the stdout that `--quiet`
 * leaves to it) or a writer of the format on `io.out`.
 */
export function writerFor(choice: OutputChoice, io: Pick<IOStreams, 'out' | 'stdoutIsTTY' | 'stderrIsTTY'>, realOut: IOStreams['out']): OutputWriter {
  return choice.quiet ? createQuietWriter({ out: realOut }, choice) : createWriter(io, choice);
}
