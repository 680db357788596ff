/** `shipbook sandbox`: run the simulated booking service in the foreground. */
import { Command } from 'commander';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { parseDuration } from '../input/flags.js';

/** Options of `sandbox`. */
export interface SandboxCommandOptions {
  host: string;
  port: number;
  apiKey?: string;
  delayMs: number;
  freePickup: boolean;
}

/** Starts the sandbox and keeps it running until Ctrl-C (SIGINT) or SIGTERM. */
export async function runSandbox(o: SandboxCommandOptions, ctx: Context): Promise<void> {
  const { startSandbox, SANDBOX_API_KEY } = await import('../sandbox/index.js');
  const sandbox = await startSandbox({
    host: o.host,
    port: o.port,
    apiKey: o.apiKey,
    processingDelayMs: o.delayMs,
    freePickup: o.freePickup,
    log: (line: string) => ctx.io.err(`${line}\n`),
  });
  ctx.io.err(
    `[sandbox] simulated booking service listening on ${sandbox.url}\n` +
      `[sandbox] ${o.apiKey ? 'requires the API key given with --api-key' : `accepts any API key (the built-in profile sends ${SANDBOX_API_KEY})`}; booking completes ${o.delayMs} ms after acceptance\n` +
      `[sandbox] use it with: SHIPBOOK_BASE_URL=${sandbox.url} shipbook quote …   (Ctrl-C to stop)\n`,
  );
  if (ctx.json) ctx.io.out(`${JSON.stringify({ url: sandbox.url, port: sandbox.port })}\n`);
  ctx.defer(async () => {
    ctx.io.err('[sandbox] stopping\n');
    await sandbox.close();
  });
  // Runs until main's signal handler closes the context (Ctrl-C or SIGTERM).
  await new Promise<never>(() => {});
}

/** The `sandbox` command. */
export function sandboxCommand(ctx: Context): Command {
  return new Command('sandbox')
    .summary('run the simulated booking service on this machine')
    .description('Run the built-in sandbox (a real HTTP server) in the foreground, for trying shipbook or testing against it.')
    .option('--port <port>', 'port to listen on (0 = any free port)', '8787')
    .option('--host <host>', 'address to bind (loopback by default)', '127.0.0.1')
    .option('--api-key <key>', 'require this API key on operations that need authorization')
    .option('--delay <duration>', 'time from acceptance to the booking result', '1500ms')
    .option('--free-pickup', 'the sandbox account has the free-pickup option (combine without main_shipment)', false)
    .addHelpText('after', '\nExamples:\n  shipbook sandbox --port 8787\n  SHIPBOOK_BASE_URL=http://127.0.0.1:8787/ shipbook quote fixtures/quotes/syd-mel-single.yaml\n')
    .action(async (flags: { port: string; host: string; apiKey?: string; delay: string; freePickup: boolean }) => {
      const port = Number(flags.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number 0-65535 (got "${flags.port}")`);
      await runSandbox({ host: flags.host, port, apiKey: flags.apiKey, delayMs: parseDuration('--delay', flags.delay), freePickup: flags.freePickup }, ctx);
    });
}
