/**
 * Tables in a real terminal: shipbook runs inside tmux with a fixed window
 * size, and what the terminal shows is read back with capture-pane. A table line that the
 * terminal had to wrap would show as a row that does not start and end with a border.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
if (!hasTmux) console.warn('skipping terminal-width tests: tmux is not installed');
const home = mkdtempSync(join(tmpdir(), 'shipbook-tty-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
let n = 0;

/** Runs `shipbook <args>` in a tmux window of `cols` × 60 and returns the screen and the exit code. */
async function inTerminal(args: string[], cols: number): Promise<{ screen: string; code: number }> {
  const socket = `shipbook-tty-${process.pid}-${n++}`;
  const done = join(home, `${socket}.exit`);
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const env = `env NO_COLOR=1 SHIPBOOK_CONFIG_DIR=${q(join(home, 'config'))} SHIPBOOK_STATE_DIR=${q(join(home, 'state'))} SHIPBOOK_SANDBOX_DELAY_MS=100`;
  const command = `cd ${q(ROOT)} && ${env} ${q(process.execPath)} ${q(BIN)} ${args.map(q).join(' ')} 2>/dev/null; echo $? > ${q(done)}; sleep 60`;
  execFileSync('tmux', ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-x', String(cols), '-y', '60', command]);
  try {
    const deadline = Date.now() + 20_000;
    while (!existsSync(done) || readFileSync(done, 'utf8').trim() === '') {
      if (Date.now() > deadline) throw new Error(`shipbook ${args.join(' ')} did not finish in the terminal`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const screen = execFileSync('tmux', ['-L', socket, 'capture-pane', '-p', '-S', '-', '-t', '0'], { encoding: 'utf8' });
    return { screen, code: Number(readFileSync(done, 'utf8').trim()) };
  } finally {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
  }
}

/** The rows of the screen that belong to boxed tables: from a ┌ row to its └ row. */
function tableRows(screen: string): string[] {
  const rows: string[] = [];
  let inTable = false;
  for (const line of screen.split('\n')) {
    const t = line.trimEnd();
    if (t.startsWith('┌')) inTable = true;
    if (inTable) rows.push(t);
    if (t.startsWith('└')) inTable = false;
  }
  return rows;
}

function expectUnbroken(screen: string, cols: number): void {
  const rows = tableRows(screen);
  expect(rows.length, screen).toBeGreaterThan(2);
  for (const row of rows) {
    expect(row, screen).toMatch(/^[┌│└├]/);
    expect(row, screen).toMatch(/[┐│┘┤]$/);
    expect(stringWidth(row)).toBeLessThanOrEqual(cols);
  }
}

describe.skipIf(!hasTmux)('tables fit the terminal', () => {
  it('quote at 80 columns: no row wraps, every service code whole', async () => {
    const { screen, code } = await inTerminal(['quote', 'fixtures/quotes/syd-per-multi.yaml'], 80);
    expect(code).toBe(0);
    expectUnbroken(screen, 80);
    expect(screen).toContain('SB-DOM-ROAD');
    expect(screen).toContain('SB-DOM-EXP');
    expect(screen).toContain('total AUD');
    expect(screen).toContain('123.31');
  });

  it('quote at 150 columns keeps every column', async () => {
    const { screen } = await inTerminal(['quote', 'fixtures/quotes/syd-per-multi.yaml'], 150);
    expectUnbroken(screen, 150);
    for (const h of ['carrier', 'global mail', 'insurance', 'GST']) expect(screen).toContain(h);
  });

  it('book at 80 columns: order tables fit and tracking numbers are never split', async () => {
    const { screen, code } = await inTerminal(['book', 'fixtures/consolidated/three-parcels.yaml', '--poll', '100ms'], 80);
    expect(code, screen).toBe(0);
    expectUnbroken(screen, 80);
    const tracking = screen.match(/SBX[A-Z0-9-]+/g) ?? [];
    expect(tracking.length, screen).toBeGreaterThanOrEqual(3);
    for (const t of tracking) expect(t.length).toBeGreaterThanOrEqual(8);
  });

  it('validate at 80 columns: the problem table fits', async () => {
    const { screen, code } = await inTerminal(['validate', 'fixtures/invalid/'], 80);
    expect(code).toBe(2);
    expectUnbroken(screen, 80);
  });
});
