/**
 * `shipbook sandbox` as a new user runs it: the banner's line works as
 * pasted, a busy port is a usage error with a hint (exit 2), and the default port is not the
 * callback receiver's 8787.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, ROOT, runCli } from '../helpers/cli.js';
import { runShipbook } from '../helpers/run.js';

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGTERM');
  child = undefined;
});

/** Starts `shipbook sandbox <args>` and resolves with its stderr once the banner's "use it with" line is out. */
function startSandboxProcess(args: string[]): Promise<string> {
  child = spawn(process.execPath, [BIN, 'sandbox', ...args], { cwd: ROOT, env: isolatedEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    child!.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      if (/use it with: .*\n/.test(err)) resolve(err);
    });
    child!.on('exit', (code) => reject(new Error(`sandbox exited ${code}: ${err}`)));
  });
}

describe('shipbook sandbox', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)("stops on %s, closing its server, with the signal's exit code", async (signal) => {
    await startSandboxProcess(['--port', '0', '--no-log']);
    const running = child!;
    let err = '';
    running.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((resolve) => running.once('close', (code) => resolve(code)));
    running.removeAllListeners('exit');
    running.kill(signal);
    expect(await exited).toBe(signal === 'SIGTERM' ? 143 : 130);
    expect(err).toContain('[sandbox] stopping');
  });

  it('prints a line that works as pasted: base URL and key', async () => {
    const banner = await startSandboxProcess(['--port', '0', '--no-log']);
    const line = /use it with: export (SHIPBOOK_BASE_URL=\S+) (SHIPBOOK_API_KEY=\S+)/.exec(banner);
    expect(line, banner).not.toBeNull();
    const env = Object.fromEntries([line![1]!, line![2]!].map((kv) => kv.split('=', 2) as [string, string]));
    const r = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^order\tORD-\w+\tpending$/m);
  });

  it('prints no placeholder for a key given with --api-key, and nothing after the command on its line', async () => {
    const banner = await startSandboxProcess(['--port', '0', '--no-log', '--api-key', 'sk_test_banner_0123456789']);
    expect(banner).not.toMatch(/<the key|<[^>]*key[^>]*>/);
    expect(banner).not.toContain('sk_test_banner_0123456789');
    const line = /use it with: (.*)\n/.exec(banner)![1]!;
    expect(line).toMatch(/^export SHIPBOOK_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(banner).toContain('requires the API key given with --api-key: set SHIPBOOK_API_KEY to it');
  });

  it('reports a busy port as a usage error with a hint (exit 2), not an internal error', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as AddressInfo;
    try {
      const r = await runCli(['sandbox', '--port', String(port), '--no-log']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`cannot listen on 127.0.0.1:${port} (the port is in use)`);
      expect(r.stderr).toContain('hint: Choose another port with --port');
      expect(r.stderr).not.toContain('internal error');
    } finally {
      busy.close();
    }
  });

  it("has its own default port, not the callback receiver's 8787", async () => {
    const r = await runShipbook(['sandbox', '--help']);
    expect(r.stdout).toContain('(default: 8788)');
  });
});
