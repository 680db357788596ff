/**
 * Secrets against a service that repeats the request in its answers (test/helpers/fault-server.ts,
 * mode `echo`): the API key, card number and CVV are looked for in every output and file shipbook
 * writes (stdout in every format, stderr, --debug, report.json, JUnit, the journal), in plain,
 * JSON-escaped and PHP-escaped (`\/`) forms. The expected count is 0.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostileServiceEnv } from '../helpers/fault-server.js';
import { runCli, type CliResult } from '../helpers/cli.js';

// A key with a slash: PHP escapes it as \/ in JSON, a form a scrubber of the plain key misses.
const KEY = 'sk_test/echo_0123456789abcdefXYZ';
const CARD = '4111111111111111';
const CVV = '123';
const { server, env } = hostileServiceEnv(KEY);

/** Every form of the secrets that must not appear, with a name for the failure message. */
const FORMS: Array<[string, RegExp]> = [
  ['key', new RegExp(KEY.replace(/[/]/g, '\\/'))],
  ['key, PHP-escaped', new RegExp(KEY.replace(/\//g, '\\\\\\/'))],
  // Any 8 characters in a row of the key: a key cut in half (at a truncation) still counts.
  ['part of the key', new RegExp(Array.from({ length: KEY.length - 7 }, (_, i) => KEY.slice(i, i + 8).replace(/[/]/g, '\\\\?\\/')).join('|'))],
  ['card number', new RegExp(CARD)],
  ['card number with spaces', /4111 1111 1111 1111/],
  ['CVV', new RegExp(`(?<![A-Za-z0-9.,])${CVV}(?![A-Za-z0-9.,])`)],
];

/** The names of the forms found in `text`. */
function leaks(text: string): string[] {
  return FORMS.filter(([, re]) => re.test(text)).map(([name]) => name);
}

const ORDER = { id: 'ORD-ECHO1', status: 'NEW', shipments: [{ id: 'SHP-E1', status: 'NEW' }], price: { total: 47.3 } };

describe('a service that echoes the request in its answers', () => {
  it('never shows the key, card number or CVV in any format, on stdout, stderr or --debug', async () => {
    const runs: CliResult[] = [];
    for (const php of [false, true]) {
      server.set('POST /orders/', { mode: 'echo', result: { order: ORDER }, php });
      server.set('PUT /orders/ORD-ECHO1/accept/', { mode: 'echo', result: { order: { ...ORDER, status: 'ACC' } }, php });
      for (const format of [[], ['--json'], ['--output', 'yaml'], ['--output', 'ndjson'], ['--output', 'table'], ['--debug'], ['--debug', '--json']]) {
        // --again: every run creates (and shows the echoed answer), not the order the ledger knows.
        runs.push(await runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--again', ...format], { env: env() }));
        runs.push(await runCli(['order', 'accept', 'ORD-ECHO1', '--payment-file', 'fixtures/payments/credit-card.yaml', ...format], { env: env() }));
      }
    }
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect(leaks(r.stdout + r.stderr), r.stdout + r.stderr).toEqual([]);
    }
    // The service did get them, and did echo them back.
    expect(server.requests.some((q) => q.body.includes(`"cvv":"${CVV}"`))).toBe(true);
    // Twenty-eight commands: a test that outran its time would go on setting the server's routes under the next one.
  }, 240_000);

  it('never shows them in tab-separated or table output when the echo stands in a service name', async () => {
    const echoed = {
      ...ORDER,
      status: 'ACC',
      shipments: [{ id: 'SHP-E1', status: 'ACC', transient_id: 'T1', service: { code: 'EXP', name: '{{request}}' } }],
    };
    const runs: CliResult[] = [];
    for (const php of [false, true]) {
      server.set('POST /orders/', { mode: 'echo', result: { order: { ...echoed, status: 'NEW' } }, php });
      server.set('PUT /orders/ORD-ECHO1/accept/', { mode: 'echo', result: { order: echoed }, php });
      server.set('GET /orders/ORD-ECHO1/', { mode: 'echo', result: { order: echoed }, php });
      for (const format of [[], ['--output', 'tsv'], ['--output', 'table'], ['--debug', '--output', 'table']]) {
        runs.push(await runCli(['order', 'accept', 'ORD-ECHO1', '--payment-file', 'fixtures/payments/credit-card.yaml', ...format], { env: env() }));
      }
    }
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      // The shipments' table did print the echoed service name (scrubbed), so the check looked at it.
      expect(r.stdout).toContain('SHP-E1');
      expect(r.stdout).toMatch(/cvv/);
      expect(leaks(r.stdout + r.stderr), r.stdout + r.stderr).toEqual([]);
    }
  }, 120_000);

  it('scrubs an error that echoes the request before cutting it, also PHP-escaped', async () => {
    const runs: CliResult[] = [];
    for (let cut = 90; cut <= 125; cut += 7) {
      // A text answer (no envelope) whose echo straddles the 120-character snippet.
      server.set('PUT /orders/ORD-ECHO1/accept/', { mode: 'echo', status: 502, raw: true, php: cut % 2 === 0, prefix: 'x'.repeat(cut) });
      for (const format of [[], ['--json'], ['--debug']]) {
        runs.push(await runCli(['order', 'accept', 'ORD-ECHO1', '--payment-file', 'fixtures/payments/credit-card.yaml', ...format], { env: env() }));
      }
    }
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(3);
      expect(leaks(r.stdout + r.stderr), r.stdout + r.stderr).toEqual([]);
    }
  }, 240_000);

  it('writes none of them to report.json, JUnit or the journal of a batch whose answers and errors echo them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-echo-batch-'));
    const files = { report: join(dir, 'report.json'), junit: join(dir, 'junit.xml'), journal: join(dir, 'journal.ndjson') };
    server.set('POST /orders/', { mode: 'echo', result: { order: ORDER }, php: true });
    // The accept is refused with the request in the message and field errors: the order fails.
    server.set('PUT /orders/ORD-ECHO1/accept/', { mode: 'echo-error' });
    const r = await runCli(
      [
        'book',
        'fixtures/orders/domestic-syd-mel.yaml',
        '--journal',
        files.journal,
        '--report',
        files.report,
        '--junit',
        files.junit,
        '--payment-file',
        'fixtures/payments/credit-card.yaml',
        '--json',
      ],
      { env: env(), timeoutMs: 60_000 },
    );
    expect(r.code, r.stderr).toBe(8);
    expect(leaks(r.stdout + r.stderr)).toEqual([]);
    for (const path of Object.values(files)) {
      const text = readFileSync(path, 'utf8');
      expect(text.length).toBeGreaterThan(0);
      expect(leaks(text), `${path}:\n${text}`).toEqual([]);
    }
    // The echo did reach the report (scrubbed), so the check above looked at it.
    expect(readFileSync(files.report, 'utf8')).toContain('invalid request');
  });
});
