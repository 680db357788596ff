/**
 * End-to-end: a callback URL of the user's own on the built-in sandbox, which runs inside each
 * command and stops with it. `order accept --callback <url>` without `--wait` stays until the
 * sandbox has sent that callback (bounded), and says so; a callback that cannot be delivered is
 * warned about with `--wait` and `shipbook sandbox` as the ways out; `callback listen` with no base
 * URL says the same before a callback is awaited.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, isolatedEnv, runCli } from '../helpers/cli.js';

let receiver: Server;
let receiverUrl: string;
const received: string[] = [];
const home = mkdtempSync(join(tmpdir(), 'shipbook-e2e-builtin-cb-'));

beforeAll(async () => {
  // The user's own application that the callback is for.
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/shipbook`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  rmSync(home, { recursive: true, force: true });
});

/** The built-in sandbox (no base URL, no key), with one state directory for the test's commands. */
function builtinEnv(name: string): Record<string, string> {
  return { SHIPBOOK_CONFIG_DIR: join(home, name, 'config'), SHIPBOOK_STATE_DIR: join(home, name, 'state') };
}

describe('order accept --callback on the built-in sandbox', () => {
  it('stays until the sandbox has delivered the callback, and says so', async () => {
    const env = builtinEnv('delivered');
    const created = await runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '-q'], { env });
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    const before = received.length;
    const accepted = await runCli(['order', 'accept', id, '--payment', 'credit', '--callback', receiverUrl], { env });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stderr).toContain(`the built-in sandbox runs inside this command and stops with it: waiting up to`);
    expect(accepted.stderr).toContain(`callback of ${id} delivered (HTTP 200)`);
    // Delivered before the command ended: the application has it already.
    const mine = received.slice(before).filter((b) => b.includes(id));
    expect(mine).toHaveLength(1);
    expect((JSON.parse(mine[0]!) as { result: { order: { status: string } } }).result.order.status).toBe('processed');
  });

  it('warns, naming --wait and shipbook sandbox, when the callback cannot be delivered', async () => {
    const env = builtinEnv('refused');
    // A port that refuses: a server bound and closed again.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const id = (await runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '-q'], { env })).stdout.trim();
    const accepted = await runCli(['order', 'accept', id, '--payment', 'credit', '--callback', `http://127.0.0.1:${port}/x`], { env, timeoutMs: 40_000 });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stderr).toContain(`warning: the callback of ${id} was not delivered (`);
    expect(accepted.stderr).toContain('ECONNREFUSED');
    expect(accepted.stderr).toContain('add --wait to order accept');
    expect(accepted.stderr).toContain('For a service that stays up and calls back at any time: shipbook sandbox');
    // The hint that names the result works when pasted.
    const got = await runCli(['order', 'get', id], { env });
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toMatch(/processed/);
  }, 60_000);
});

describe('callback listen with no base URL', () => {
  it('says that the built-in sandbox stops with each command, naming --wait and shipbook sandbox', async () => {
    const env = isolatedEnv(builtinEnv('listen'));
    const child = spawn(process.execPath, [BIN, 'callback', 'listen', '--listen', '127.0.0.1:0'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const deadline = Date.now() + 15_000;
    while (!stderr.includes('shipbook sandbox') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('no base URL is configured, so orders go to the built-in sandbox, which runs inside each shipbook command and stops with it');
    expect(stderr).toContain('with --wait, shipbook waits with a receiver of its own');
    expect(stderr).toContain('For a service that stays up and calls back at any time: shipbook sandbox');
  });

  it('says nothing of the kind when a base URL is configured', async () => {
    const env = isolatedEnv({ ...builtinEnv('listen-url'), SHIPBOOK_BASE_URL: 'http://127.0.0.1:9/', SHIPBOOK_API_KEY: 'sk_test_e2e_0123456789' });
    const child = spawn(process.execPath, [BIN, 'callback', 'listen', '--listen', '127.0.0.1:0'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const deadline = Date.now() + 15_000;
    while (!stderr.includes('Callback URL') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('Callback URL');
    expect(stderr).not.toContain('built-in sandbox');
  });
});
