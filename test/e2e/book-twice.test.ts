/**
 * Booking the same file twice: single bookings are recorded in the ledger of the target service
 * (`<state dir>/ledger/<target>.ndjson`). A second `book` of a document already booked
 * says which order it became and books nothing; `--again` books it once more; `kill -9` during a
 * `book` leaves the journal saying where the order stands and the next `book` continues it; a
 * create whose answer was lost is reported as unknown until `journal resolve` says what became of it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runShipbook } from '../helpers/run.js';
import { BIN, ROOT, isolatedEnv, runCli } from '../helpers/cli.js';

const ORDER = 'fixtures/orders/domestic-syd-mel.yaml';

/** An environment with its own state directory, kept across the commands of one test. */
function freshState(extra: Record<string, string> = {}): Record<string, string> {
  return { SHIPBOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'shipbook-twice-')), ...extra };
}

/** Every record of every ledger in the state directory (one ledger per target service). */
function records(env: Record<string, string>): Array<{ id: string; event: string; order_id?: string }> {
  const dir = join(env.SHIPBOOK_STATE_DIR!, 'ledger');
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { id: string; event: string; order_id?: string });
}

describe('book, twice, on the built-in sandbox', () => {
  it('books nothing the second time: says which order the file became, with its tracking number; --again books a second order', async () => {
    const env = freshState();
    const first = await runCli(['book', ORDER, '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const booked = (JSON.parse(first.stdout) as { order: { id: string; shipments: Array<{ tracking_number: string }> } }).order;

    const second = await runCli(['book', ORDER, '--json'], { env });
    expect(second.code, second.stderr).toBe(0);
    const again = JSON.parse(second.stdout) as {
      order: { id: string; state: string; shipments: Array<{ tracking_number: string }> };
      already_booked: { identity: string };
    };
    expect(again.order.id).toBe(booked.id);
    expect(again.order.state).toBe('processed');
    expect(again.order.shipments[0]!.tracking_number).toBe(booked.shipments[0]!.tracking_number);
    expect(again.already_booked.identity).toMatch(/^[0-9a-f]{16}-1$/);
    expect(second.stderr).toContain(
      `this document was booked before (${ORDER}): order ${booked.id}, processed, tracking ${booked.shipments[0]!.tracking_number}; nothing was sent`,
    );
    expect(records(env).filter((r) => r.event === 'create_sent')).toHaveLength(1);

    // The hint, pasted as printed (a tab-separated run this time), books a second order.
    const hint = /To book it a second time: shipbook (.+)$/m.exec(second.stderr)![1]!.split(' ');
    const third = await runCli(hint, { env });
    expect(third.code, third.stderr).toBe(0);
    const secondId = /^order\t(ORD-\w+)\tprocessed$/m.exec(third.stdout)![1];
    expect(secondId).not.toBe(booked.id);
    expect(records(env).filter((r) => r.event === 'create_sent')).toHaveLength(2);
  });

  it('books the same file against another service as a new booking (the identity holds the target)', async () => {
    const env = freshState();
    expect((await runShipbook(['book', ORDER], { env })).code).toBe(0);
    const other = await startSandbox({ processingDelayMs: 50 });
    try {
      const r = await runShipbook(['book', ORDER, '--poll', '50ms'], {
        env: { ...env, SHIPBOOK_BASE_URL: other.url, SHIPBOOK_API_KEY: 'sk_test_twice_0123456789' },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('booked before');
    } finally {
      await other.close();
    }
    expect(records(env).filter((r) => r.event === 'create_sent')).toHaveLength(2);
  });

  it('continues the order a killed book left accepted, instead of creating another', async () => {
    const env = freshState();
    const child = spawn(process.execPath, [BIN, 'book', ORDER], { cwd: ROOT, env: isolatedEnv({ ...env, SHIPBOOK_SANDBOX_DELAY_MS: '4000' }) });
    let stderr = '';
    const gone = new Promise<void>((resolve) => child.on('close', () => resolve()));
    await new Promise<void>((resolve) =>
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        if (stderr.includes('waiting for the booking result')) resolve();
      }),
    );
    child.kill('SIGKILL');
    await gone;
    const id = /order (ORD-\w+) accepted/.exec(stderr)![1]!;
    const shown = await runShipbook(['journal', 'show', '--json'], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).orders).toEqual([expect.objectContaining({ stage: 'accepted', order_id: id })]);

    const rerun = await runShipbook(['book', ORDER, '--json'], { env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`became order ${id}, accepted: continuing that order, not creating another`);
    expect((JSON.parse(rerun.stdout) as { order: { id: string; state: string } }).order).toMatchObject({ id, state: 'processed' });
    expect(records(env).filter((r) => r.event === 'create_sent')).toHaveLength(1);
  }, 30_000);
});

describe('a create whose answer was lost', () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('is unknown on the next book: nothing is sent until journal resolve says what became of it', async () => {
    const env = freshState({ SHIPBOOK_BASE_URL: server.url, SHIPBOOK_API_KEY: 'sk_test_twice_0123456789' });
    server.set('POST /orders/', { mode: 'close-after-request' });
    const first = await runShipbook(['book', ORDER], { env });
    expect(first.code).toBe(5);
    const second = await runShipbook(['book', ORDER, '--json'], { env });
    expect(second.code).toBe(5);
    const { error } = JSON.parse(second.stdout) as { error: { code: string; message: string; suggestion: string } };
    expect(error.code).toBe('booking_unknown');
    expect(error.message).toContain('its answer never came: the order may exist');
    expect(server.requests.filter((r) => r.path === '/orders/')).toHaveLength(1);

    // The resolve command of the hint, pasted with --not-created: the next book sends the create again.
    const resolve = /^ {2}shipbook (journal resolve \S+ --not-created)/m
      .exec(error.suggestion)![1]!
      .split(' ')
      .map((a) => a.replace(/^'|'$/g, ''));
    const resolved = await runShipbook([...resolve, '--yes'], { env });
    expect(resolved.code, resolved.stderr).toBe(0);
    const third = await runShipbook(['book', ORDER], { env });
    expect(third.code).toBe(5);
    expect(server.requests.filter((r) => r.path === '/orders/')).toHaveLength(2);
  });
});
