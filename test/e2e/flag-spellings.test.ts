/**
 * Flags spelled once across commands: gh's short flags (-q, -o), and an option given to a command
 * that does not take it names the commands that do.
 */
import { describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox({ processingDelayMs: 20 });

describe('short flags as gh has them', () => {
  it('-q is --quiet and -o is --output, before or after the command', async () => {
    const quiet = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '-q'], { env: fx.env });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toMatch(/^ORD-[A-Z0-9]+\n$/);
    const id = quiet.stdout.trim();
    const yaml = await runShipbook(['-o', 'yaml', 'order', 'get', id], { env: fx.env });
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(yaml.stdout).toContain(`id: ${id}`);
    const json = await runShipbook(['order', 'get', id, '-o', 'json'], { env: fx.env });
    expect((JSON.parse(json.stdout) as { order: { id: string } }).order.id).toBe(id);
  });
});

describe('an option of another command', () => {
  it('order create --callback is refused (exit 2) with a hint naming order accept and book, and the help that pastes', async () => {
    const r = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--callback', 'https://hooks.example.com/sb'], {
      env: fx.env,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error: unknown option '--callback'");
    expect(r.stderr).toContain('hint: --callback is an option of order accept and book; see:\n  shipbook order accept --help\n');
    const help = await runShipbook(['order', 'accept', '--help'], { env: fx.env });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--callback <url>');
    const none = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--bogus'], { env: fx.env });
    expect(none.code).toBe(2);
    expect(none.stderr).not.toContain('hint:');
  });
});

describe('the wait and the request deadline, named apart', () => {
  it('--wait-timeout bounds the wait (exit 7 when it passes); --timeout stays as its older spelling; both at once are refused', async () => {
    const id = (await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '-q'], { env: fx.env })).stdout.trim();
    const both = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--wait', '--poll', '50ms', '--wait-timeout', '5s', '--timeout', '5s'], {
      env: fx.env,
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --wait-timeout once (--timeout is its older spelling)');
    const bad = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--wait', '--wait-timeout', 'soon'], { env: fx.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--wait-timeout');
    const ok = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--wait', '--poll', '50ms', '--wait-timeout', '30s'], { env: fx.env });
    expect(ok.code, ok.stderr).toBe(0);
    const help = await runShipbook(['order', 'accept', '--help'], { env: fx.env });
    expect(help.stdout).toContain('--wait-timeout <duration>');
    // The older spelling is taken but no longer taught: the help shows one name.
    expect(help.stdout).not.toMatch(/--timeout <duration>/);
  });
});
