/**
 * Words a new user reads, end to end with the built program: doctor on the built-in sandbox says
 * it answered (not "HTTP 404"), `config list` says the built-in profile is a sandbox, a hand-over
 * sheet for a directory that does not exist says so, `examples` describes each file by what it is
 * (never by its `$schema` line), and the rules the interface document does not state (an e-mail
 * address in ASCII with a dot in its domain, no pickup time 24:00, the sandbox's 1,000 kg) are
 * named in their messages, refused the same way by the sandbox, and written in the docs.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { E2E_API_KEY, useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox();
const dir = mkdtempSync(join(tmpdir(), 'shipbook-words-'));
const fixture = readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8');

describe('the built-in sandbox in plain words', () => {
  it('doctor says the built-in sandbox answered, without an HTTP status that reads as a failure', async () => {
    const r = await runCli(['doctor'], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^base-url\tok\tthe built-in sandbox answered in \d+ ms\t/m);
    expect(r.stdout).not.toContain('HTTP 404');
  });

  it('config list says the built-in profile is a sandbox, and a base URL from the environment is not', async () => {
    const builtIn = await runCli(['config', 'list'], { env: {} });
    expect(builtIn.code, builtIn.stderr).toBe(0);
    expect(builtIn.stdout).toMatch(/^sandbox\ttrue\tbuilt-in \(the built-in sandbox\)$/m);
    const service = await runCli(['config', 'list'], { env: { SHIPBOOK_BASE_URL: 'https://api.example.com/v1/' } });
    expect(service.stdout).toMatch(/^sandbox\tfalse\tenv SHIPBOOK_BASE_URL$/m);
  });
});

describe('handover --pdf into a directory that does not exist', () => {
  it('says the directory does not exist (exit 2), not ENOENT', async () => {
    const r = await runCli(['handover', '--pdf', '/nonexistent/x.pdf'], { env: {} });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: cannot write --pdf /nonexistent/x.pdf: its directory /nonexistent does not exist');
    expect(r.stderr).toContain('hint: Create it first (mkdir -p /nonexistent)');
    expect(r.stderr).not.toContain('ENOENT');
  });
});

describe('shipbook examples', () => {
  it("describes each file by its first sentence, never by an editor's $schema line", async () => {
    const r = await runCli(['examples', '--json'], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    const files = (JSON.parse(r.stdout) as { files: Array<{ file: string; describes: string }> }).files;
    expect(files.filter((f) => /\$schema|yaml-language-server/.test(f.describes))).toEqual([]);
    expect(files.find((f) => f.file === 'fixtures/invalid/payment-bad-card.yaml')?.describes).toBe(
      'PLANTED MISTAKES: a card number that fails the Luhn check (the last digit is wrong), a CVV of two digits, and an expiry …',
    );
    expect(files.filter((f) => f.describes === '').map((f) => f.file)).toEqual([]);
  });
});

describe('rules the interface document does not state', () => {
  /** The domestic fixture with `from` replaced by `to`, as a file of this test. */
  function changed(name: string, from: string, to: string): string {
    expect(fixture).toContain(from);
    const file = join(dir, name);
    writeFileSync(file, fixture.replace(from, to));
    return file;
  }

  it('names the rule when an e-mail address is refused, and the sandbox refuses it the same way', async () => {
    const accented = await runCli(['validate', changed('accented.yaml', 'tom.nguyen@example.com.au', 'tomás@example.com.au')], { env: fx.env });
    expect(accented.code).toBe(2);
    expect(accented.stdout).toContain('not an e-mail address (got "tomás@example.com.au"): only ASCII characters are taken (no é, ü, ñ …)');
    const dotless = await runCli(['validate', changed('dotless.yaml', 'tom.nguyen@example.com.au', 'tom@localhost')], { env: fx.env });
    expect(dotless.stdout).toContain('not an e-mail address (got "tom@localhost"): its domain has no dot (write the full domain, e.g. example.com.au)');
    // Sent past the client, straight to the sandbox: 400 on the field, with the same words.
    const order = parse(fixture.replace('tom.nguyen@example.com.au', 'tom@localhost')) as unknown;
    const res = await fetch(`${fx.sandbox.url}orders/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${E2E_API_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ request: order }),
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('its domain has no dot');
  });

  it('refuses a pickup time of 24:00 with the time that is meant', async () => {
    const r = await runCli(['validate', changed('midnight.yaml', 'time_latest: "15:00"', 'time_latest: "24:00"')], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('(got "24:00"); 24:00 is not taken for the end of the day: write 23:59');
  });

  it("writes each rule down: the e-mail form, 24:00, the sandbox's 1,000 kg, and the address and pickup warnings", () => {
    const assumptions = readFileSync(join(ROOT, 'docs/assumptions.md'), 'utf8');
    for (const said of [
      '`tom@localhost`',
      '`tomás@example.com`',
      'pickup time `24:00`',
      '1,000 kg chargeable weight',
      '`--strict-addresses`',
      'a pickup date in the past or on a Sunday',
    ])
      expect(assumptions).toContain(said);
    expect(readFileSync(join(ROOT, 'docs/sandbox.md'), 'utf8')).toContain('a package over\n**1,000 kg chargeable weight**');
  });
});
