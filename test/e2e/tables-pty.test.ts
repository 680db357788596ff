/**
 * Tables on a real terminal (tmux) at 80 and 120 columns: every row fits the width, service and
 * carrier names wrap at spaces (never inside a word), codes and amounts stay whole, and the price
 * box of a booked order names its currency once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasTmux, killTerminals, Terminal } from '../helpers/terminal.js';

if (!hasTmux) console.warn('skipping the pseudo-terminal tests of tables: tmux is not installed (apt-get install tmux)');
afterAll(killTerminals);

/** A home and state directory of its own: the built-in sandbox. */
function ownEnv(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-tables-'));
  return { HOME: dir, XDG_CONFIG_HOME: dir, SHIPBOOK_STATE_DIR: dir };
}

/** The body cells of a boxed table on the screen, column by column, line by line. */
function cells(screen: string): string[][] {
  return screen
    .split('\n')
    .filter((l) => l.startsWith('│'))
    .map((l) =>
      l
        .split('│')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
}

const QUOTE = ['quote', '--from', 'AU:2015:Alexandria', '--to', 'NZ:6011:Wellington', '--package', '30x20x15cm:2.5kg'];
/** Every word of the sandbox's carriers and service names for this route. */
const NAMES = [
  'ShipBook Global Mail',
  'Global Mail Consolidated',
  'Aramex',
  'International Economy',
  'Australia Post',
  'International Standard',
  'DHL Express',
  'Express Worldwide (Time Definite)',
];

describe.skipIf(!hasTmux)('tables on a terminal', () => {
  for (const columns of [80, 120]) {
    it(`the quote table at ${columns} columns wraps names at spaces and fits the width`, async () => {
      const t = Terminal.start(QUOTE, ownEnv(), columns, 40);
      const { code } = await t.exit();
      expect(code).toBe(0);
      const screen = t.visible();
      const rows = cells(screen);
      expect(rows.length).toBeGreaterThan(3);
      for (const row of screen.split('\n')) expect(row.length).toBeLessThanOrEqual(columns);
      const words = new Set(NAMES.flatMap((n) => n.split(' ')));
      const [header, ...body] = rows;
      const carrier = header!.indexOf('carrier');
      const service = header!.indexOf('service');
      for (const row of body) {
        for (const i of [carrier, service])
          for (const word of row[i]!.split(' ').filter(Boolean)) expect(words.has(word), `"${word}" in:\n${screen}`).toBe(true);
      }
      for (const code of ['SB-GLOBAL-MAIL', 'SB-INTL-ECO', 'SB-AP-INTL', 'SB-INTL-EXP']) expect(body.some((r) => r[0] === code)).toBe(true);
    });
  }

  it('the price box of a booked order says the currency once: price │ AUD', async () => {
    const t = Terminal.start(['book', 'fixtures/orders/domestic-syd-mel.yaml'], ownEnv(), 80, 50);
    const { code, screen } = await t.exit(40_000);
    expect(code, screen).toBe(0);
    expect(screen).toMatch(/│ price +│ +AUD │/);
    expect(screen).not.toContain('price (AUD)');
  });
});
