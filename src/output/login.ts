/**
 * The words of `auth login` once the credentials are stored: the profile, base URL and masked key,
 * where they were saved, how to use the profile, and the environment variables that override it.
 */
import { maskSecret } from '../api/redact.js';
import type { IOStreams } from '../io.js';
import { paint } from './style.js';

/** A login that was stored: the key is shown masked, never in full. */
interface StoredLogin {
  name: string;
  baseUrl: string;
  apiKey: string;
  verified: boolean;
  /** The profile became the default one (there was none). */
  becameDefault: boolean;
  /** The configuration file written. */
  path: string;
  /** The default profile before this login, if any. */
  defaultProfile: string | undefined;
}

/** Says on stderr what was stored, where, and how to use it. */
export function printLoggedIn(io: IOStreams, l: StoredLogin): void {
  io.err(`${paint(io, 'green', '✔')} Logged in: profile "${l.name}", ${l.baseUrl}, key ${maskSecret(l.apiKey)}${l.verified ? '' : ' (not checked)'}\n`);
  io.err(`  saved in ${l.path}\n`);
  if (l.becameDefault) io.err(`  "${l.name}" is now the default profile\n`);
  else if (l.defaultProfile !== l.name && !io.env.SHIPBOOK_PROFILE)
    io.err(`  use it with --profile ${l.name}, or: shipbook config set default-profile ${l.name}\n`);
  for (const variable of ['SHIPBOOK_BASE_URL', 'SHIPBOOK_API_KEY']) {
    if (io.env[variable]?.trim()) io.err(`${paint(io, 'yellow', 'note:')} ${variable} is set and overrides the stored setting while it stays set\n`);
  }
}
