/**
 * A batch on a terminal, read back from the screen of a real pseudo-terminal (tmux): the finished
 * orders scroll above one progress line redrawn in place, and when the batch ends the progress line
 * is gone and the summary is the last thing before the shell's prompt. Every line of the screen is
 * one whole thing (a sandbox line, an order line, the summary): none fused with the progress line.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { batchFixture } from '../helpers/batch.js';
import { hasTmux, killTerminals, Terminal } from '../helpers/terminal.js';
import { runCli } from '../helpers/cli.js';

if (!hasTmux) console.warn('skipping the pseudo-terminal tests of the batch screen: tmux is not installed (apt-get install tmux)');
afterAll(killTerminals);

/** A directory of its own (home and state: the built-in sandbox) holding `orders.ndjson` with `n` orders. */
function batchOf(n: number): { dir: string; env: Record<string, string>; args: string[]; here: string[] } {
  const { dir } = batchFixture(n, { dir: mkdtempSync(join(tmpdir(), 'shipbook-screen-')), prefix: 'SCREEN' });
  return {
    dir,
    env: { HOME: dir, XDG_CONFIG_HOME: dir, SHIPBOOK_STATE_DIR: dir, SHIPBOOK_SANDBOX_DELAY_MS: '300' },
    // The batch's journal in the test's own directory, not in the repository.
    args: ['book', join(dir, 'orders.ndjson'), '--journal', join(dir, 'journal.ndjson')],
    // The same, run from that directory, as a person at a terminal types it.
    here: ['book', 'orders.ndjson'],
  };
}

const ORDER = /^✔ booked +(\S*orders\.ndjson):(\d+) {2}ORD-\w+ {2}SBX\d+ {2}\d+\.\d{2} AUD$/;
const SUMMARY = /^batch: 30 booked, 0 already booked, 0 failed, 0 unknown, 0 skipped as invalid; total \d+\.\d{2} AUD$/;
const SANDBOX = /^\[sandbox\] /;

/** The screen's lines up to the shell's `__EXIT=`, each checked to be exactly one thing. */
function readBack(screen: string): string[] {
  const lines = screen
    .slice(0, screen.indexOf('__EXIT='))
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '');
  // The summary is last: from its first line ("batch: …", broken between words at the width) to
  // the closing line that says a sandbox booked nothing really (itself on its own line).
  const at = lines.findIndex((l) => l.startsWith('batch: '));
  expect(at, screen).toBeGreaterThan(0);
  const closing = lines.findIndex((l) => l.startsWith('[sandbox] nothing was really booked'));
  expect(closing, screen).toBeGreaterThan(at);
  expect(lines.slice(at, closing).join(' ')).toMatch(SUMMARY);
  expect(lines.slice(closing).join(' ')).toMatch(/^\[sandbox\] nothing was really booked: this run booked on the built-in sandbox, a simulated service$/);
  // The [sandbox] line is broken between words at the width: its pieces read back as one line.
  const before: string[] = [];
  for (const line of lines.slice(0, at)) {
    const last = before.at(-1);
    if (last !== undefined && SANDBOX.test(last) && !last.endsWith('nothing is really booked')) before[before.length - 1] = `${last} ${line}`;
    else before.push(line);
  }
  for (const line of before) expect(SANDBOX.test(line) || ORDER.test(line), `a line that is not one thing: ${JSON.stringify(line)}`).toBe(true);
  const orders = lines.filter((l) => ORDER.test(l)).map((l) => Number(ORDER.exec(l)![2]));
  expect(orders.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  expect(screen).not.toContain('▕');
  return lines;
}

describe.skipIf(!hasTmux)('a batch of 30 orders on a terminal', () => {
  it('at 80 columns: order lines above one progress line, the summary last', async () => {
    const { dir, env, here } = batchOf(30);
    const t = Terminal.start(here, env, 80, 24, dir);
    // While it runs, the last line of the screen is the progress line, never longer than the width.
    const running = await t.waitFor(/orders · \d+ failed/);
    const bar = running.split('\n').find((l) => l.includes('orders · '))!;
    expect(bar).toMatch(/^▕[█░]+▏ \d+\/30 orders · 0 failed · \d+\.\d\/s/);
    expect(bar.length).toBeLessThan(80);
    const { code, screen } = await t.exit(60_000);
    expect(code, screen).toBe(0);
    const lines = readBack(screen);
    console.log(`a batch's last screen at 80 columns:\n${t.visible().trimEnd()}`);
    expect(lines.filter((l) => SANDBOX.test(l)).length).toBeGreaterThan(0);
  });

  it('at 120 columns, resized to 80 while it runs: still one progress line, redrawn to the new width', async () => {
    const { env, args } = batchOf(30);
    const t = Terminal.start(args, env, 120, 30);
    await t.waitFor(/orders\.ndjson:\d+ {2}ORD-/);
    t.resize(80, 30);
    const after = await t.waitFor(/orders · \d+ failed/);
    expect(after).toContain('orders · ');
    const { code, screen } = await t.exit(60_000);
    expect(code, screen).toBe(0);
    readBack(screen);
    for (const row of t.visible().split('\n')) expect(row.length).toBeLessThanOrEqual(80);
  });
});

describe('a batch with --quiet', () => {
  it('prints the booked order ids on stdout, one a line, and nothing else', async () => {
    const { env, args } = batchOf(3);
    const r = await runCli([...args, '--quiet'], { env, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const ids = r.stdout.trimEnd().split('\n');
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(id).toMatch(/^ORD-\w+$/);
    expect(new Set(ids).size).toBe(3);
    expect(r.stderr).toContain('batch: 3 booked');
  });
});
