/**
 * Ctrl-C and SIGTERM under a machine format: the process prints an
 * `{"error": …}` object on stdout with the order id as a field, exits 130/143, and its stderr
 * message starts with `error:` like every other.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_API_KEY, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runShipbook } from '../helpers/run.js';
import { BIN, isolatedEnv, ROOT } from '../helpers/cli.js';

let slow: Sandbox;
let env: Record<string, string>;
beforeAll(async () => {
  slow = await startSandbox({ processingDelayMs: 60_000 });
  env = { SHIPBOOK_BASE_URL: slow.url, SHIPBOOK_API_KEY: SANDBOX_API_KEY };
});
afterAll(async () => {
  await slow.close();
});

describe.each([
  ['SIGINT', 130, 'json'],
  ['SIGTERM', 143, 'ndjson'],
] as const)('%s while waiting (exit %i, --output %s)', (signal, code, format) => {
  it("prints an error object with the order id and exits with the signal's code", async () => {
    const created = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--quiet'], { env });
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    const child = spawn(process.execPath, [BIN, 'order', 'accept', id, '--wait', '--output', format], { cwd: ROOT, env: isolatedEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise<void>((resolve) => {
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        if (stderr.includes('waiting for the booking result')) resolve();
      });
    });
    child.kill(signal);
    expect(await exited).toBe(code);
    expect(stderr).toMatch(new RegExp(`^error: ${signal === 'SIGINT' ? 'interrupted \\(Ctrl-C\\)' : 'terminated \\(SIGTERM\\)'}$`, 'm'));
    const { error } = JSON.parse(stdout) as { error: { code: string; order_id?: string; exit_code: number } };
    expect(error.code).toBe('interrupted');
    expect(error.order_id).toBe(id);
    // The exit code in the error object is the process's.
    expect(error.exit_code).toBe(code);
  });
});
