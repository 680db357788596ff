/** `shipbook auth …`: log in (store a base URL and key in a profile), show the status, log out. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { authLoginCommand } from './login.js';
import { authLogoutCommand } from './logout.js';
import { authStatusCommand } from './status.js';

/** The `auth` command group. */
export function authCommand(ctx: Context): Command {
  return new Command('auth')
    .summary('log in to a booking service, show the credentials in use, log out')
    .addCommand(authLoginCommand(ctx))
    .addCommand(authStatusCommand(ctx))
    .addCommand(authLogoutCommand(ctx));
}
