/** `shipbook config path`: where the configuration file is (it is not read, so this works even when it is corrupt). */
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { configFilePath } from '../../config/paths.js';
import type { Context } from '../../context.js';

/** Runs `config path`: prints the absolute path of the configuration file on stdout. */
function runConfigPath(ctx: Context): void {
  const file = configFilePath(ctx.io.env);
  if (ctx.json) return ctx.output.data({ config_file: file, exists: existsSync(file) });
  ctx.io.out(`${file}\n`);
}

/** `config path`. */
export function configPathCommand(ctx: Context): Command {
  return new Command('path')
    .summary('print the path of the configuration file')
    .description(
      'Print the path of the configuration file: $SHIPBOOK_CONFIG_DIR/config.json, ' +
        'else $XDG_CONFIG_HOME/shipbook/config.json, else ~/.config/shipbook/config.json.',
    )
    .action(() => runConfigPath(ctx));
}
