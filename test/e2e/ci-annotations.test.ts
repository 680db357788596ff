/**
 * `--format github|gitlab` of `validate` and `book --dry-run`: every problem of an order file as a
 * GitHub workflow command at its file, line and column (warnings as `::warning`), or as a GitLab
 * code-quality report; exit 2 and nothing sent when there is an error.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { runShipbook } from '../helpers/run.js';
import { escapeData, escapeProperty } from '../../src/output/annotations.js';

const dir = mkdtempSync(join(tmpdir(), 'shipbook-annotations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Line and column (1-based) where `text` starts in `content`. */
function at(content: string, text: string): { line: number; col: number } {
  const lines = content.split('\n');
  const line = lines.findIndex((l) => l.includes(text));
  expect(line, text).toBeGreaterThanOrEqual(0);
  return { line: line + 1, col: lines[line]!.indexOf(text) + 1 };
}

/** The domestic fixture with two errors: a 36-character transient_id, a weight of 0. */
function twoErrors(): { file: string; content: string } {
  const content = readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8')
    .replace('transient_id: SO-10482', 'transient_id: SO-10482-ABCDEFGHIJKLMNOPQRSTUVWXYZ-')
    .replace('weight: 6.5', 'weight: 0');
  const file = join(dir, 'two-errors.yaml');
  writeFileSync(file, content);
  return { file, content };
}

/** The domestic fixture, valid, with two warnings: the phone number "12" and Perth's postcode for Melbourne. */
function twoWarnings(): { file: string; content: string } {
  const content = readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8')
    .replace('phone: "+61 412 555 019"', 'phone: "12"')
    .replace('postcode: "3000"', 'postcode: "6000"');
  const file = join(dir, 'two-warnings.yaml');
  writeFileSync(file, content);
  return { file, content };
}

describe('problems as CI annotations', () => {
  it('validate --format github prints two ::error lines at the right file, line and column (exit 2)', async () => {
    const { file, content } = twoErrors();
    const r = await runShipbook(['validate', file, '--format', 'github']);
    expect(r.code, r.stderr).toBe(2);
    const lines = r.stdout.trimEnd().split('\n');
    const errors = lines.filter((l) => l.startsWith('::error '));
    expect(errors).toHaveLength(2);
    const id = at(content, 'SO-10482-ABC');
    const weight = at(content, '0, unit: cm');
    expect(errors[0]).toBe(
      `::error file=${escapeProperty(file)},line=${id.line},col=${id.col},title=shipbook%3A order.shipments[0].transient_id (error)::at most 35 characters (got 36)`,
    );
    expect(errors[1]).toBe(
      `::error file=${escapeProperty(file)},line=${weight.line},col=${weight.col},title=shipbook%3A order.shipments[0].packages[0].weight (error)::must be greater than 0 (got 0)`,
    );
    expect(lines).toHaveLength(2);
  });

  it('address and phone warnings are ::warning lines at their place; a valid file exits 0', async () => {
    const { file, content } = twoWarnings();
    const r = await runShipbook(['validate', file, '--format', 'github']);
    expect(r.code, r.stderr).toBe(0);
    const phone = at(content, '"12"');
    const postcode = at(content, '"6000"');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.every((l) => l.startsWith('::warning '))).toBe(true);
    expect(r.stdout).toContain(
      `line=${phone.line},col=${phone.col},title=shipbook%3A order.shipments[0].delivery.phone (warning)::phone "12" is not a possible phone number`,
    );
    expect(r.stdout).toContain(
      `line=${postcode.line},col=${postcode.col},title=shipbook%3A order.shipments[0].delivery.postcode (warning)::postcode 6000 is WA`,
    );
  });

  it('book --dry-run --format github prints the same lines and sends nothing (exit 2); a valid file goes on to the planned requests (exit 0)', async () => {
    const { file } = twoErrors();
    const v = await runShipbook(['validate', file, '--format', 'github']);
    const b = await runCli(['book', file, '--dry-run', '--format', 'github']);
    expect(b.code, b.stderr).toBe(2);
    expect(b.stdout).toBe(v.stdout);
    expect(b.stdout).not.toContain('POST ');
    const ok = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--dry-run', '--format', 'github']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).not.toContain('::error');
    expect(ok.stdout).toContain('POST ');
  });

  it('--format github needs --dry-run on book, and is refused beside --json (exit 2)', async () => {
    const b = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--format', 'github']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('--dry-run');
    const j = await runShipbook(['validate', 'fixtures/orders/', '--format', 'github', '--json']);
    expect(j.code).toBe(2);
    expect(j.stderr).toContain('--format github and --json ask for two outputs');
  });

  it('validate --format gitlab writes a code-quality report: errors major, warnings minor, with path and line', async () => {
    const { file, content } = twoErrors();
    const warned = twoWarnings();
    const r = await runShipbook(['validate', file, warned.file, '--format', 'gitlab']);
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout) as Array<{
      severity: string;
      fingerprint: string;
      description: string;
      location: { path: string; lines: { begin: number } };
    }>;
    expect(report.map((e) => e.severity)).toEqual(['major', 'major', 'minor', 'minor']);
    expect(report[0]!.location).toEqual({ path: file, lines: { begin: at(content, 'SO-10482-ABC').line } });
    expect(report[0]!.description).toBe('order.shipments[0].transient_id: at most 35 characters (got 36)');
    expect(new Set(report.map((e) => e.fingerprint)).size).toBe(4);
  });

  it("escapes as the runner unescapes: %, CR and LF in the message; and ':' and ',' in a property", () => {
    expect(escapeData('50% off\r\nnext: a,b')).toBe('50%25 off%0D%0Anext: a,b');
    expect(escapeProperty('C:\\orders\\a,b.yaml\n')).toBe('C%3A\\orders\\a%2Cb.yaml%0A');
  });
});
