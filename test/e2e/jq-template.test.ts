/**
 * `--jq` and `--template` on the commands that print JSON, against a sandbox on 127.0.0.1: what
 * they print is picked from the same document `--json` prints; a mistake in the expression exits 2
 * with jq's (or Handlebars') message, and a syntax error stops the run before anything is sent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';
import { runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox();
const state = mkdtempSync(join(tmpdir(), 'shipbook-jq-'));
afterAll(() => rmSync(state, { recursive: true, force: true }));
const QUOTE = 'fixtures/quotes/syd-mel-single.yaml';
const ORDER = 'fixtures/orders/domestic-syd-mel.yaml';

/** The environment of every run: the sandbox, and one state directory (one ledger, so `history` sees the orders). */
const env = () => ({ ...fx.env, SHIPBOOK_STATE_DIR: state });

interface QuoteDoc {
  services: Array<{ code: string; price: { total: string } }>;
}

describe('--jq and --template', () => {
  it('quote --jq prints one line per result, strings raw, picked from the --json document', async () => {
    const json = await runShipbook(['quote', QUOTE, '--json'], { env: env() });
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as QuoteDoc;
    expect(doc.services.length).toBeGreaterThan(1);
    const r = await runShipbook(['quote', QUOTE, '--jq', '.services[] | "\\(.code) \\(.price.total)"'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(doc.services.map((s) => `${s.code} ${s.price.total}\n`).join(''));
    const count = await runShipbook(['quote', QUOTE, '--jq', '.services | length'], { env: env() });
    expect(count.stdout).toBe(`${doc.services.length}\n`);
  });

  it('quote --template renders the document with Handlebars: #each, @last, nested fields, no HTML escaping', async () => {
    const doc = JSON.parse((await runShipbook(['quote', QUOTE, '--json'], { env: env() })).stdout) as QuoteDoc;
    const r = await runShipbook(['quote', QUOTE, '--template', '{{#each services}}{{code}}={{price.total}}{{#unless @last}} & {{/unless}}{{/each}}'], {
      env: env(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${doc.services.map((s) => `${s.code}=${s.price.total}`).join(' & ')}\n`);
  });

  it('order get --jq and --template pick the id, state and total of the order the sandbox holds', async () => {
    const created = await runShipbook(['order', 'create', ORDER, '--jq', '.order.id'], { env: env() });
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    expect(id).toMatch(/^ORD-/);
    const json = JSON.parse((await runShipbook(['order', 'get', id, '--json'], { env: env() })).stdout) as {
      order: { id: string; state: string; price: { total: string } };
      target: { base_url: string };
    };
    const jq = await runShipbook(['order', 'get', id, '--jq', '.order | [.id, .state, .price.total] | @tsv'], { env: env() });
    expect(jq.code, jq.stderr).toBe(0);
    expect(jq.stdout).toBe(`${id}\tpending\t${json.order.price.total}\n`);
    const t = await runShipbook(['order', 'get', id, '--template', '{{order.id}} is {{order.state}}: {{order.price.total}} AUD at {{target.base_url}}'], {
      env: env(),
    });
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toBe(`${id} is pending: ${json.order.price.total} AUD at ${json.target.base_url}\n`);
  });

  it('history --jq and --template list what the ledger recorded', async () => {
    const json = JSON.parse((await runShipbook(['history', '--json'], { env: env() })).stdout) as { history: Array<{ operation: string; order_id?: string }> };
    expect(json.history.length).toBeGreaterThan(0);
    const jq = await runShipbook(['history', '--jq', '.history[] | select(.operation == "order create") | .order_id'], { env: env() });
    expect(jq.code, jq.stderr).toBe(0);
    expect(jq.stdout).toBe(
      json.history
        .filter((h) => h.operation === 'order create')
        .map((h) => `${h.order_id}\n`)
        .join(''),
    );
    const t = await runShipbook(['history', '--template', '{{#each history}}{{operation}};{{/each}}'], { env: env() });
    expect(t.stdout).toBe(`${json.history.map((h) => `${h.operation};`).join('')}\n`);
  });

  it("a jq syntax error exits 2 with jq's message, before anything is sent: no order is created", async () => {
    const before = fx.sandbox.state.orders.size;
    const r = await runShipbook(['order', 'create', ORDER, '--jq', '.order['], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: --jq: jq: error: syntax error, unexpected end of file');
    expect(fx.sandbox.state.orders.size).toBe(before);
  });

  it("a filter that fails on the document exits 2 with jq's message; a template syntax error exits 2 with Handlebars'", async () => {
    const r = await runShipbook(['quote', QUOTE, '--jq', '.services.code'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: --jq: jq: error (at /dev/stdin:0): Cannot index array with string ("code")');
    const t = await runShipbook(['quote', QUOTE, '--template', '{{#each services}}'], { env: env() });
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('error: --template: Parse error on line 1');
  });

  it('--jq with --output yaml, --quiet or --template is refused (exit 2)', async () => {
    for (const extra of [['--output', 'yaml'], ['--quiet'], ['--template', '{{x}}']]) {
      const r = await runShipbook(['quote', QUOTE, '--jq', '.', ...extra], { env: env() });
      expect(r.code, extra.join(' ')).toBe(2);
    }
    const ok = await runShipbook(['quote', QUOTE, '--json', '--jq', '.services[0].code'], { env: env() });
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('schema --jq picks from the JSON Schema as from any document', async () => {
    const r = await runShipbook(['schema', 'order', '--jq', '.title']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('shipbook order file\n');
  });

  it('the built launcher carries jq and Handlebars (the vendored files of dist/)', async () => {
    const r = await runCli(['quote', QUOTE, '--jq', '.services[0].code'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^SB-[A-Z-]+\n$/);
    const t = await runCli(['quote', QUOTE, '--template', '{{services.0.code}}'], { env: env() });
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toBe(r.stdout);
  });
});
