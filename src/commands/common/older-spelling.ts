/**
 * Older spellings of options: one name per option is taught (in the help, the docs and every hint),
 * while a name it had before keeps working, is left out of the help, and is warned about on stderr
 * when used, naming the spelling to use instead.
 */
import type { Command, Option } from 'commander';
import type { IOStreams } from '../../io.js';
import { paint } from '../../output/style.js';

/**
 * Adds `option` to `cmd` as an older spelling of `current` (e.g. `--callback-url` of
 * `--public-url`): hidden from the help, and a warning on stderr whenever the command line gives it.
 */
export function addOlderSpelling(cmd: Command, io: Pick<IOStreams, 'err' | 'color'>, option: Option, current: string): Command {
  cmd.addOption(option.hideHelp());
  cmd.on(`option:${option.name()}`, () => {
    io.err(`${paint(io, 'yellow', 'warning:')} ${option.long} is an older spelling of ${current}; it still works, but use ${current}\n`);
  });
  return cmd;
}
