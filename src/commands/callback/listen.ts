/**
 * `shipbook callback listen`: a standalone receiver for the processing callback (interface
 * document, "Events"), like `stripe listen`. It prints each callback as a line (in a machine format
 * one record each: a compact JSON line for json and ndjson, a YAML document for yaml), optionally forwards the same body to another URL, and runs until
 * Ctrl-C. The receiver is the one `book` uses (`src/booking/receiver.ts`): POST only, on
 * `<path>/<token>`, bodies up to 1 MiB, malformed bodies answered 400 and reported on stderr.
 */
import { Command, Option } from 'commander';
import { createHash } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import type { Agent } from '../../http/undici.js';
import { isLoopbackHost } from '../../api/base-url.js';
import { VERSION } from '../../version.js';
import { REFUSAL_INTERVAL_MS, RefusalLog, TOKEN_PATTERN, startCallbackReceiver, type ReceivedCallback, callbackRecorder } from '../../booking/index.js';
import { urlHost } from '../../http/server.js';
import { checkHttpUrl, parsePortFlag } from '../../input/flags.js';
import { serialize } from '../../output/writer.js';
import type { OutputFormat } from '../../output/format.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseListen } from '../common/wait-options.js';
import { addOlderSpelling } from '../common/older-spelling.js';
import { openLedgerFor } from '../common/record.js';
import type { IOStreams } from '../../io.js';
import { printable } from '../../output/printable.js';
import { paint } from '../../output/style.js';
import { printBuiltinSandboxNote, printListening } from '../../output/callback-listen.js';
import { trackingNumberOf } from '../../schema/shipment.js';
import { orderStatusWord } from '../../schema/status.js';

/** Options of `callback listen`. */
interface CallbackListenOptions {
  /** Interface to bind (default 127.0.0.1). */
  host: string;
  /** Port (0 = any free port; default 8787). */
  port: number;
  /** Path prefix before the token, e.g. `/hooks`. */
  path: string;
  /** A fixed token (so the URL stays the same across restarts); default: a new random one. */
  token?: string;
  /** POST every valid callback's body to this URL as well. */
  forwardTo?: string;
}

/** One callback as a machine format prints it (one record per callback). */
interface CallbackSummary {
  received_at: string;
  order_id: string | null;
  code: number;
  message: string;
  /** The order status as sent (e.g. `processed`, `failed`), or null. */
  status: string | null;
  tracking_numbers: string[];
  /** The body as received. */
  body: unknown;
  /** 1 for the first callback with this exact body, 2 for its first repeat (the service retries), … */
  repeat: number;
}

/** The facts of a callback: order id, code, status, tracking numbers (assigned ones only); `repeat` 1. */
function summariseCallback(cb: ReceivedCallback, repeat = 1): CallbackSummary {
  const order = cb.body.result?.order ?? undefined;
  return {
    received_at: cb.receivedAt.toISOString(),
    order_id: order?.id ?? null,
    code: cb.body.code,
    message: cb.body.message,
    status: order?.status ?? null,
    tracking_numbers: (order?.shipments ?? []).map((s) => trackingNumberOf(s)).filter((t): t is string => t !== undefined),
    body: cb.raw,
    repeat,
  };
}

/**
 * Counts callbacks by their exact body, so a repeat (the service retries until it gets a 2xx, or
 * sends the same result twice) is marked as such rather than printed as news. Remembers at most
 * `limit` bodies (by SHA-256), forgetting the oldest first.
 */
class RepeatCounter {
  private readonly seen = new Map<string, number>();
  constructor(private readonly limit = 10_000) {}
  /** How many times this body has now been seen, this one included (1 the first time). */
  count(text: string): number {
    const key = createHash('sha256').update(text).digest('base64');
    const n = (this.seen.get(key) ?? 0) + 1;
    this.seen.delete(key);
    this.seen.set(key, n);
    if (this.seen.size > this.limit) this.seen.delete(this.seen.keys().next().value as string);
    return n;
  }
}

/**
 * The addresses other machines can reach this one on, for a receiver bound to a wildcard address
 * (`0.0.0.0`: IPv4 only; `::`: IPv4 and IPv6): every non-internal interface address, IPv4 first.
 */
function externalAddresses(bound: string): string[] {
  const families = bound === '::' ? ['IPv4', 'IPv6'] : ['IPv4'];
  const found: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.internal || !families.includes(a.family)) continue;
      if (a.family === 'IPv6' && a.address.toLowerCase().startsWith('fe80')) continue; // link-local: needs a zone id
      found.push(a.address);
    }
  }
  return found.sort((a, b) => Number(a.includes(':')) - Number(b.includes(':')));
}

/**
 * One line per callback: time, order id, code, status, tracking numbers, message. In the `table`
 * format the columns are padded and the time is local `HH:MM:SS`; otherwise tab-separated with an ISO time.
 */
function callbackLine(io: Pick<IOStreams, 'color'>, format: OutputFormat, s: CallbackSummary): string {
  const ok = s.code >= 200 && s.code < 300 && orderStatusWord(s.status ?? undefined) === 'processed';
  // Everything below came from outside: control characters are shown, never sent to the terminal.
  const message = printable(s.message.replace(/[\t\r\n]+/g, ' '));
  const orderId = s.order_id === null ? null : printable(s.order_id);
  const statusText = s.status === null ? null : printable(s.status);
  const trackingNumbers = s.tracking_numbers.map((t) => printable(t));
  const repeat = s.repeat > 1 ? `repeat ${s.repeat}` : '';
  if (format !== 'table') {
    return `${[s.received_at, orderId ?? '', String(s.code), statusText ?? '', trackingNumbers.join(','), message, repeat].join('\t')}\n`;
  }
  const time = new Date(s.received_at).toLocaleTimeString('en-GB', { hour12: false });
  const status = paint(io, ok ? 'green' : 'red', (statusText ?? '—').padEnd(10));
  const tracking = trackingNumbers.length > 0 ? trackingNumbers.join(', ') : '—';
  const mark = repeat === '' ? '' : `  ${paint(io, 'dim', `(${repeat}: same body as before)`)}`;
  return `${paint(io, 'dim', time)}  ${(orderId ?? '—').padEnd(14)} ${String(s.code).padEnd(4)} ${status} ${tracking}${ok ? '' : `  ${message}`}${mark}\n`;
}

/**
 * POSTs the callback's body, as received, to `url`.
 * @returns the HTTP status of the answer
 * @throws the transport error (refused, timeout …)
 */
async function forwardCallback(url: string, cb: ReceivedCallback, dispatcher: Agent): Promise<number> {
  const { request } = await import('../../http/undici.js');
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': `shipbook/${VERSION} (callback listen)` },
    body: cb.text,
    dispatcher,
    signal: AbortSignal.timeout(10_000),
  });
  await res.body.dump().catch(() => {});
  return res.statusCode;
}

/**
 * What forwards each callback to `--forward-to` (nothing without it), saying on stderr how the
 * other end answered or why it could not be reached; a callback is never held up by it.
 */
function forwarder(io: IOStreams, target: string | undefined, agent: Agent): (cb: ReceivedCallback) => void {
  return (cb) => {
    if (target === undefined) return;
    forwardCallback(target, cb, agent).then(
      (status) => {
        const ok = status >= 200 && status < 300;
        io.err(`${paint(io, ok ? 'dim' : 'yellow', `  → forwarded ${cb.orderId ?? 'callback'} to ${target}: ${status}${ok ? '' : ' (not 2xx)'}`)}\n`);
      },
      (err: unknown) => {
        const e = err as { code?: string; name?: string; message?: string };
        const why = e.name === 'TimeoutError' ? 'timed out' : (e.code ?? e.message ?? String(err));
        io.err(`${paint(io, 'yellow', 'warning:')} forwarding ${cb.orderId ?? 'a callback'} to ${target} failed (${why})\n`);
      },
    );
  };
}

/** Runs the receiver until main closes the context (Ctrl-C or SIGTERM). */
async function runCallbackListen(o: CallbackListenOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const { Agent } = await import('../../http/undici.js');
  const agent = new Agent({ connect: { timeout: 10_000 } });
  ctx.defer(() => agent.close());
  const forward = forwarder(io, o.forwardTo, agent);
  const repeats = new RepeatCounter();
  const refusals = new RefusalLog((line) => io.err(`${paint(io, 'yellow', 'refused:')} ${line}\n`), `in the last ${REFUSAL_INTERVAL_MS / 1000} s`);
  const summariser = setInterval(() => refusals.flush(), REFUSAL_INTERVAL_MS);
  summariser.unref();
  ctx.defer(() => {
    clearInterval(summariser);
    refusals.flush();
  });
  // What a callback says of an order (processed with its tracking numbers, failed) goes into the
  // ledger of the profile's target, one record after the other, when the ledger does not know it yet.
  const ledger = await openLedgerFor(ctx, { op: 'callback', command: 'shipbook callback listen' }).catch((err: unknown) => {
    io.err(`note: callbacks are not recorded in the ledger: ${(err as Error).message}\n`);
    return undefined;
  });
  const recorder =
    ledger && callbackRecorder(ledger, (id, err) => io.err(`note: the ledger could not record the callback of order ${printable(id)}: ${err.message}\n`));
  if (recorder !== undefined) ctx.defer(() => recorder.settled());
  let receiver;
  try {
    receiver = await startCallbackReceiver({
      host: o.host,
      port: o.port,
      basePath: o.path,
      ...(o.token === undefined ? {} : { token: o.token }),
      // Every refusal comes here, summarised below with its remote address and method.
      refusalSummaryMs: 0,
      onCallback(cb) {
        const summary = summariseCallback(cb, repeats.count(cb.text));
        // A stream of records: one compact JSON line each for json/ndjson, one YAML document each for yaml.
        const { format } = ctx.output;
        if (format === 'yaml') io.out(`---\n${serialize('yaml', summary)}`);
        else io.out(ctx.json ? serialize('ndjson', summary) : callbackLine(io, format, summary));
        forward(cb);
        recorder?.record(cb);
        return { accepted: true };
      },
      onProblem(p) {
        refusals.add(p.status, printable(`${p.method} from ${p.remote} answered ${p.status}: ${p.reason}`));
      },
    });
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err instanceof Error ? err.message : String(err));
    throw new UsageError(`cannot listen on ${urlHost(o.host)}:${o.port} (${code})`, {
      suggestion: `Choose another port with --listen ${urlHost(o.host)}:<port>, or --listen ${urlHost(o.host)}:0 for any free port.`,
      cause: err,
    });
  }
  const r = receiver;
  ctx.defer(() => r.close());
  const wildcard = r.host === '0.0.0.0' || r.host === '::';
  printListening(io, r, { loopback: isLoopbackHost(o.host), remote: wildcard ? externalAddresses(r.host) : [], forwardTo: o.forwardTo });
  // With no base URL the orders go to the built-in sandbox: a callback comes only while its command runs.
  const profile = await ctx.profile().catch(() => undefined);
  if (profile !== undefined && !profile.baseUrl) printBuiltinSandboxNote(io, ctx.settings.hints);
  // Runs until Ctrl-C or SIGTERM; main then closes what it opened.
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** The `callback listen` command. */
export function callbackListenCommand(ctx: Context): Command {
  const cmd = new Command('listen');
  // --host and --port, the older spellings, still work (warned about); the help teaches --listen, as every command that listens spells it.
  addOlderSpelling(cmd, ctx.io, new Option('--port <port>', 'port to listen on (0 = any free port); the same as --listen :<port>').default('8787'), '--listen');
  addOlderSpelling(cmd, ctx.io, new Option('--host <host>', 'address to bind; the same as --listen <host>:8787').default('127.0.0.1'), '--listen');
  return cmd
    .summary('receive booking callbacks and print them (like stripe listen)')
    .description(
      'Start a callback receiver on this machine and print every booking callback it receives: one line each ' +
        '(time, order id, code, status, tracking numbers, message), or one JSON object per line with --json. ' +
        'Only POST on the printed URL (which ends in a secret token) is accepted. Runs until Ctrl-C.',
    )
    .option('--listen <host:port>', 'where to listen, as book and order accept spell it: host:port, :port or port (default 127.0.0.1:8787)')
    .option('--path <path>', 'path prefix before the token, e.g. /hooks (to match a tunnel or ingress path)')
    .option('--token <token>', 'use this token (16-128 letters, digits, - or _) instead of a random one, to keep the URL across restarts')
    .option('--forward-to <url>', 'also POST each valid callback, as received, to this URL (e.g. your application)')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  shipbook callback listen --listen 127.0.0.1:8787\n' +
        '  shipbook callback listen --listen 127.0.0.1:8787 --path /hooks\n' +
        '  shipbook callback listen --listen 8787 --forward-to http://localhost:3000/hooks\n' +
        '  shipbook callback listen --listen 0 --json | jq .tracking_numbers\n',
    )
    .action(async (flags: { listen?: string; port: string; host: string; path?: string; token?: string; forwardTo?: string }, cmd: Command) => {
      // --listen host:port is the spelling of every command that listens; --host and --port stay.
      if (flags.listen !== undefined && (cmd.getOptionValueSource('port') === 'cli' || cmd.getOptionValueSource('host') === 'cli')) {
        throw new UsageError('give --listen, or --host and --port, not both', { suggestion: `For example --listen ${flags.host}:${flags.port}` });
      }
      const listen = flags.listen === undefined ? undefined : parseListen(flags.listen);
      if (listen !== undefined) flags.host = listen.host;
      const port = listen !== undefined ? listen.port : parsePortFlag('--port', flags.port);
      if (flags.token !== undefined && !TOKEN_PATTERN.test(flags.token)) {
        throw new UsageError('--token must be 16-128 letters, digits, "-" or "_"', { suggestion: 'Leave it out for a random token.' });
      }
      if (flags.path !== undefined && !/^\/?[A-Za-z0-9._~\-/]*$/.test(flags.path))
        throw new UsageError(`--path "${flags.path}" may only hold letters, digits, "/", ".", "_", "~" and "-"`);
      if (flags.forwardTo !== undefined) {
        // Credentials in the URL are the user's own application's business: only the form is checked.
        const checked = checkHttpUrl(flags.forwardTo);
        if ('problem' in checked && checked.problem !== 'credentials') {
          throw new UsageError(`--forward-to "${flags.forwardTo}" is not an http(s) URL`, {
            suggestion: 'For example --forward-to http://localhost:3000/hooks',
          });
        }
      }
      await runCallbackListen(
        {
          host: flags.host,
          port,
          path: flags.path ?? '',
          ...(flags.token ? { token: flags.token } : {}),
          ...(flags.forwardTo ? { forwardTo: flags.forwardTo } : {}),
        },
        ctx,
      );
    });
}
