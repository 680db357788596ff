/**
 * Sets up a run's output from its decision (src/output/format.ts): loads what the format writes
 * with, and makes the writer.
 */
import type { IOStreams } from '../io.js';
import type { OutputChoice } from './format.js';
import { createQuietWriter } from './quiet.js';
import { prepareTables } from './table.js';
import { createWriter, prepareYaml, type OutputWriter } from './writer.js';

/**
 * Loads what `choice` writes with, before the command runs: the table fitter for `table`, the YAML
 * writer for `yaml` (the other formats need neither, so start-up stays light). Safe to call twice.
 */
export async function prepareOutput(choice: Pick<OutputChoice, 'format'>): Promise<void> {
  if (choice.format === 'table') await prepareTables();
  if (choice.format === 'yaml') await prepareYaml();
}

/**
 * The writer of `choice`: the quiet writer (ids only, on `realOut`, the stdout that `--quiet`
 * leaves to it) or a writer of the format on `io.out`.
 */
export function writerFor(choice: OutputChoice, io: Pick<IOStreams, 'out' | 'stdoutIsTTY' | 'stderrIsTTY'>, realOut: IOStreams['out']): OutputWriter {
  return choice.quiet ? createQuietWriter({ out: realOut }, choice) : createWriter(io, choice);
}
