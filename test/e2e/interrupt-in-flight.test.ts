/**
 * Ctrl-C and SIGTERM while a request is in flight: the process
 * stops within the grace period, says what was sent and that its outcome is unknown, names what to
 * run to find out, and never suggests repeating a create. A real process (signals), against the
 * fault server, which reads the request and then never answers.
 */
import { settleFixturePickups } from '../helpers/pickup-days.js';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { BIN, ROOT } from '../helpers/cli.js';

const KEY = 'sk_test_interrupt_0123456789';
let server: FaultServer;
let sandbox: Sandbox;
const configDir = mkdtempSync(join(tmpdir(), 'shipbook-interrupt-'));

beforeAll(async () => {
  server = await startFaultServer();
  sandbox = await startSandbox({ processingDelayMs: 100 });
});
afterEach(() => server.reset());
afterAll(async () => {
  await server.close();
  await sandbox.close();
});

/** Starts shipbook (with `extraEnv`), sends `signal` once the server has received `requests` requests, and collects the outcome. */
async function interruptAfter(args: string[], requests: number, signal: NodeJS.Signals, extraEnv: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: configDir,
      SHIPBOOK_CONFIG_DIR: configDir,
      NO_COLOR: '1',
      CI: '1',
      SHIPBOOK_BASE_URL: server.url,
      SHIPBOOK_API_KEY: KEY,
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await server.received(requests);
  child.kill(signal);
  const code = await exited;
  return { code, stdout, stderr };
}

/** A real create-order answer, from the sandbox, for the fault server to give back. */
async function createdOrderResult(): Promise<unknown> {
  const { parse } = await import('yaml');
  const { readFileSync } = await import('node:fs');
  const doc = settleFixturePickups(parse(readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8'))) as Record<string, unknown>;
  const body = 'request' in doc ? doc : { request: doc };
  const res = await fetch(new URL('orders/', sandbox.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk_sandbox_builtin' },
    body: JSON.stringify(body),
  });
  return ((await res.json()) as { result: unknown }).result;
}

describe('an interrupt while a request is in flight', () => {
  it('Ctrl-C during order create: exit 130, the create was sent and may have created the order, no "try again"', async () => {
    server.set('POST /orders/', { mode: 'stall' });
    // A state directory of its own: the create left unanswered makes the document unknown in the
    // ledger, which the books of the same file below must not meet.
    const state = mkdtempSync(join(tmpdir(), 'shipbook-interrupt-state-'));
    const r = await interruptAfter(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml'], 1, 'SIGINT', { SHIPBOOK_STATE_DIR: state });
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/interrupted/);
    expect(r.stderr).toMatch(/order may have been created/i);
    expect(r.stderr).not.toMatch(/did not answer in time/);
    expect(r.stderr).not.toMatch(/try again/i);
    expect(server.requests.filter((q) => q.path === '/orders/')).toHaveLength(1);
  });

  it('SIGTERM during the accept of book: the accept already sent is let finish, so the order is known to be accepted (exit 143)', async () => {
    const result = (await createdOrderResult()) as { order: { id: string } };
    const created = result.order;
    server.set('POST /orders/', { mode: 'ok', result });
    // The accept answers 1.5 s after it arrives: after the signal.
    server.set(`PUT /orders/${created.id}/accept/`, { mode: 'ok', result: { order: { ...created, status: 'ACC' } }, delayMs: 1500 });
    server.set('*', { mode: 'stall' });
    const r = await interruptAfter(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--poll', '1s'], 2, 'SIGTERM');
    expect(r.code).toBe(143);
    expect(r.stderr).toMatch(/terminated/);
    expect(r.stderr).toContain('no new request is sent; a request already sent is given its deadline to answer');
    expect(r.stderr).toMatch(new RegExp(`${created.id}.*accepted`));
    expect(r.stderr).not.toMatch(/outcome is unknown/);
    expect(r.stderr).toMatch(/shipbook order get ORD-/);
    // Nothing after the accept: no wait began.
    expect(server.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['POST /orders/', `PUT /orders/${created.id}/accept/`]);
  });

  it('a second SIGTERM while the accept of book is still unanswered stops at once (exit 143), one accept sent', async () => {
    server.set('POST /orders/', { mode: 'ok', result: await createdOrderResult() });
    server.set('*', { mode: 'stall' });
    const child = spawn(process.execPath, [BIN, 'book', 'fixtures/orders/domestic-syd-mel.yaml', '--poll', '1s'], {
      cwd: ROOT,
      // A ledger of its own: the booking of the same file by the test before is not this one's.
      env: {
        PATH: process.env.PATH,
        HOME: configDir,
        SHIPBOOK_CONFIG_DIR: configDir,
        SHIPBOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'shipbook-interrupt-state-')),
        NO_COLOR: '1',
        CI: '1',
        SHIPBOOK_BASE_URL: server.url,
        SHIPBOOK_API_KEY: KEY,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await server.received(2);
    child.kill('SIGTERM');
    while (!stderr.includes('no new request is sent')) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(
      server.requests.filter((q) => q.path.endsWith('/accept/')),
      stderr,
    ).toHaveLength(1);
  });
});
