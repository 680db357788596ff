/**
 * The words of `callback listen` around the callbacks themselves: where the receiver listens and
 * the callback URL to give the service (from this machine and, for a wildcard bind, from others),
 * and the note that the built-in sandbox only calls back while its own command runs.
 */
import type { IOStreams } from '../io.js';
import { urlHost } from '../http/server.js';
import { shellCommand, type HintStyle } from '../shell.js';
import { paint } from './style.js';

/** A receiver that listens: its bound host and port, its path and its local URL. */
interface ListeningReceiver {
  host: string;
  port: number;
  path: string;
  localUrl: string;
}

/**
 * Says on stderr where the receiver listens and its callback URLs: `remote` holds the addresses
 * other machines reach this one on (for a wildcard bind); a bind beyond loopback is warned about.
 */
export function printListening(io: IOStreams, r: ListeningReceiver, o: { loopback: boolean; remote: readonly string[]; forwardTo?: string | undefined }): void {
  const wildcard = r.host === '0.0.0.0' || r.host === '::';
  const bound = wildcard ? `${r.host === '::' ? '[::]' : r.host}:${r.port} (every ${r.host === '::' ? '' : 'IPv4 '}interface)` : `${urlHost(r.host)}:${r.port}`;
  if (!o.loopback) {
    io.err(`${paint(io, 'yellow', 'warning:')} listening on ${bound}, reachable from the network; only the token path is accepted\n`);
  }
  const remote = wildcard ? o.remote.map((a) => `http://${urlHost(a)}:${r.port}${r.path}`) : [];
  const remoteLines = !wildcard
    ? ''
    : remote.length > 0
      ? `Callback URL from other machines: ${remote.join('\n                                  ')}\n`
      : `Callback URL from other machines: none found (no network interface but loopback); use a tunnel or ingress\n`;
  io.err(
    `Listening for booking callbacks on ${bound} (Ctrl-C to stop)\n` +
      `Callback URL: ${r.localUrl}\n` +
      remoteLines +
      `  use it with: shipbook order accept ORD-… --callback ${remote[0] ?? r.localUrl}\n` +
      `  through a tunnel or ingress that forwards to port ${r.port}: https://<public host>${r.path}\n` +
      (o.forwardTo === undefined ? '' : `Forwarding each callback to ${o.forwardTo}\n`),
  );
}

/**
 * Says that with no base URL orders go to the built-in sandbox, which runs inside each command and
 * stops with it: a callback to this receiver comes only while that command is still running.
 */
export function printBuiltinSandboxNote(io: IOStreams, hints: HintStyle): void {
  io.err(
    `${paint(io, 'yellow', 'note:')} no base URL is configured, so orders go to the built-in sandbox, which runs inside each shipbook command and stops with it.\n` +
      `  ${shellCommand(hints, 'order', 'accept')} ORD-… --callback <url> stays until the sandbox has sent that callback (a few seconds); with --wait, shipbook waits with a receiver of its own.\n` +
      `  For a service that stays up and calls back at any time: ${shellCommand(hints, 'sandbox')} (in another terminal; set the SHIPBOOK_BASE_URL and SHIPBOOK_API_KEY it prints)\n`,
  );
}
