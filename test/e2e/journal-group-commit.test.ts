/**
 * The journal's group commit keeps its promise: records of the orders under way share writes and
 * flushes, and still no request that changes something leaves before its intent record is in the
 * files. A checking server stands between `shipbook book --concurrency 8` and a sandbox: when a
 * create or an accept arrives, it reads the run's journal and the target's ledger from disk and
 * looks for that request's `create_sent` / `accept_sent` record in both, then passes the request
 * on. Its answers are held back a little, so many orders are under way at once and their records
 * fall into the same groups.
 */
import { readdirSync, readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { ROOT, runCli } from '../helpers/cli.js';

const KEY = 'sk_test_group_commit_0123456789';
const ORDERS = 48;

/** The records of an NDJSON journal file as it is on disk now (a torn last line is left out). */
function recordsOn(path: string): Array<Record<string, unknown>> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const out: Array<Record<string, unknown>> = [];
  for (const line of text.split('\n')) {
    try {
      if (line !== '') out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // a line being written: not a record yet
    }
  }
  return out;
}

let sandbox: Sandbox;
let checker: Server;
let checkerUrl: string;
let dir: string;
/** What the checking server found missing, one sentence per request. */
const missing: string[] = [];
/** Creates and accepts it checked. */
let checked = 0;
/** The most creates and accepts it held at once. */
let mostAtOnce = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shipbook-group-commit-'));
  sandbox = await startSandbox({ processingDelayMs: 20 });
  const journal = join(dir, 'journal.ndjson');
  const ledgerDir = join(dir, 'state', 'ledger');
  const ledger = () => {
    const files = (() => {
      try {
        return readdirSync(ledgerDir).filter((f) => f.endsWith('.ndjson'));
      } catch {
        return [];
      }
    })();
    return files.length === 1 ? join(ledgerDir, files[0]!) : undefined;
  };
  let atOnce = 0;
  checker = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? '/';
      const create = req.method === 'POST' && /^\/orders\/$/.test(path);
      const accept = /^\/orders\/([^/]+)\/accept\/$/.exec(path);
      const mutating = create || (req.method === 'PUT' && accept !== null);
      if (mutating) {
        checked++;
        mostAtOnce = Math.max(mostAtOnce, ++atOnce);
        // What the request announces, read from the files as any other process would see them.
        const wanted = create
          ? (r: Record<string, unknown>) =>
              r.event === 'create_sent' &&
              Array.isArray(r.transient_ids) &&
              r.transient_ids.includes(
                (JSON.parse(body.toString('utf8')) as { request: { order: { shipments: Array<{ transient_id: string }> } } }).request.order.shipments[0]!
                  .transient_id,
              )
          : (r: Record<string, unknown>) => r.event === 'accept_sent' && r.order_id === accept![1];
        const ledgerFile = ledger();
        for (const [name, file] of [
          ['journal', journal],
          ['ledger', ledgerFile],
        ] as const) {
          if (file === undefined || !recordsOn(file).some(wanted))
            missing.push(`${req.method} ${path}: no intent record in the ${name} when the request arrived`);
        }
      }
      const forward = async () => {
        const answer = await fetch(new URL(path.slice(1), sandbox.url), {
          method: req.method,
          headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
          ...(body.length > 0 ? { body } : {}),
        });
        const text = await answer.text();
        // Held back, so that many orders are under way at once.
        if (mutating) await new Promise((r) => setTimeout(r, 15));
        if (mutating) atOnce--;
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(text);
      };
      forward().catch((err: unknown) => {
        res.writeHead(502);
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => checker.listen(0, '127.0.0.1', resolve));
  checkerUrl = `http://127.0.0.1:${(checker.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  checker?.closeAllConnections();
  await new Promise<void>((resolve) => (checker ? checker.close(() => resolve()) : resolve()));
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the journal group commit', () => {
  it('sends no create or accept before its intent record is in the journal and the ledger, with 8 orders at once', async () => {
    const doc = parse(readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8')) as Record<string, any>;
    const lines: string[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const o = structuredClone(doc);
      o.order.shipments[0].transient_id = `GC-${i}`;
      lines.push(JSON.stringify(o));
    }
    const file = join(dir, 'orders.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await runCli(['book', file, '--concurrency', '8', '--poll', '20ms', '--journal', join(dir, 'journal.ndjson'), '--output', 'ndjson'], {
      env: { SHIPBOOK_BASE_URL: checkerUrl, SHIPBOOK_API_KEY: KEY, SHIPBOOK_STATE_DIR: join(dir, 'state') },
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const results = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string });
    expect(results.filter((x) => x.status === 'booked')).toHaveLength(ORDERS);
    // Every create and every accept was checked, and several were under way at once.
    expect(checked).toBe(2 * ORDERS);
    expect(mostAtOnce).toBeGreaterThan(1);
    expect(missing).toEqual([]);
    // Each file holds every record whole, once: five per order (create sent, created, accept sent, accepted, processed).
    for (const f of [
      join(dir, 'journal.ndjson'),
      join(
        dir,
        'state',
        'ledger',
        readdirSync(join(dir, 'state', 'ledger')).find((x) => x.endsWith('.ndjson'))!,
      ),
    ]) {
      // (the ledger also holds one claim per order, taken before its create: see below)
      const records = recordsOn(f).filter((x) => x.event !== 'target' && x.event !== 'claimed');
      expect(records).toHaveLength(5 * ORDERS);
      expect(readFileSync(f, 'utf8').endsWith('\n')).toBe(true);
    }
    // The ledger arbitrates between runs: each order was claimed once, before its create was sent.
    const ledger = join(
      dir,
      'state',
      'ledger',
      readdirSync(join(dir, 'state', 'ledger')).find((x) => x.endsWith('.ndjson'))!,
    );
    const all = recordsOn(ledger);
    const claims = all.filter((x) => x.event === 'claimed');
    expect(claims).toHaveLength(ORDERS);
    for (const c of claims) expect(all.indexOf(c)).toBeLessThan(all.findIndex((x) => x.id === c.id && x.event === 'create_sent'));
  }, 90_000);
});
