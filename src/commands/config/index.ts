/** `shipbook config …`: settings of profiles (list, get, set, unset), sender addresses, the file's path. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { configPathCommand } from './path.js';
import { configSenderCommand } from './sender.js';
import { configGetCommand, configListCommand, configSetCommand, configUnsetCommand } from './settings.js';

/** The `config` command group. */
export function configCommand(ctx: Context): Command {
  return new Command('config')
    .summary('profile settings, saved senders and the configuration file')
    .description(
      'Read and change the settings of the active profile (--profile, then ' +
        'SHIPBOOK_PROFILE, then default-profile) and the default profile itself. ' +
        'Stored in config.json (mode 0600) under SHIPBOOK_CONFIG_DIR, else ' +
        '$XDG_CONFIG_HOME/shipbook, else ~/.config/shipbook ("shipbook config path"). ' +
        'API keys are stored with "shipbook auth login", never with "config set".',
    )
    .addCommand(configListCommand(ctx))
    .addCommand(configGetCommand(ctx))
    .addCommand(configSetCommand(ctx))
    .addCommand(configUnsetCommand(ctx))
    .addCommand(configSenderCommand(ctx))
    .addCommand(configPathCommand(ctx));
}
