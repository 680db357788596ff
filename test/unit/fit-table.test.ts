import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { fitTable, tableOverhead, wrapCell, type FitColumn } from '../../src/output/fit.js';

const quoteColumns: FitColumn[] = [
  { header: 'code', atomic: true },
  { header: 'carrier', dropPriority: 5 },
  { header: 'service' },
  { header: 'global mail', dropPriority: 1 },
  { header: 'amount', align: 'right', atomic: true, dropPriority: 3 },
  { header: 'insurance', align: 'right', atomic: true, dropPriority: 2 },
  { header: 'GST', align: 'right', atomic: true, dropPriority: 2 },
  { header: 'total AUD', align: 'right', atomic: true },
];
const quoteRows = [
  ['AP-EXP-INTL-PRIORITY', 'Australia Post', 'Express International\nPriority (signature on delivery)', 'no', '118.20', '12.00', '13.02', '143.22'],
  ['DHL-ECONOMY-SELECT', 'DHL Express', 'Economy Select with a rather long descriptive name', 'yes', '88.00', '0.00', '8.80', '96.80'],
];
const widest = (text: string) =>
  Math.max(
    ...text
      .trimEnd()
      .split('\n')
      .map((l) => stringWidth(l)),
  );

describe('fitTable', () => {
  it('keeps a table that fits as it is, every column present', () => {
    const { text, dropped } = fitTable(quoteColumns, quoteRows, 400);
    expect(dropped).toEqual([]);
    expect(text).toContain('AP-EXP-INTL-PRIORITY');
    expect(text).toContain('Economy Select with a rather long descriptive name');
  });

  it('fits 80 columns: drops the least useful columns first and never splits a code', () => {
    const { text, dropped, width } = fitTable(quoteColumns, quoteRows, 80);
    expect(width).toBeLessThanOrEqual(80);
    expect(widest(text)).toBeLessThanOrEqual(80);
    expect(dropped[0]).toBe('global mail');
    expect(dropped).not.toContain('total AUD');
    expect(dropped).not.toContain('code');
    for (const id of ['AP-EXP-INTL-PRIORITY', 'DHL-ECONOMY-SELECT', '143.22', '96.80']) {
      expect(text.split('\n').some((line) => line.includes(id))).toBe(true);
    }
  });

  it('wraps a multi-line service name inside its cell instead of breaking the table', () => {
    const { text } = fitTable(quoteColumns, quoteRows, 80);
    const lines = text.trimEnd().split('\n');
    // every line is a table line: starts and ends with a border
    for (const line of lines) {
      expect(line[0]).toMatch(/[┌│└├]/);
      expect(line.at(-1)).toMatch(/[┐│┘┤]/);
    }
    expect(lines.some((l) => /│ Priority\s/.test(l))).toBe(true);
    expect(lines.some((l) => l.includes('delivery)'))).toBe(true);
  });

  it('never drops a column without a drop priority, even if the table ends wider than asked', () => {
    const cols: FitColumn[] = [
      { header: 'tracking', atomic: true },
      { header: 'note', dropPriority: 1 },
    ];
    const { text, dropped } = fitTable(cols, [['TRK-0123456789-ABCDEFGHIJ', 'x']], 20);
    expect(dropped).toEqual(['note']);
    expect(text).toContain('TRK-0123456789-ABCDEFGHIJ');
  });

  it('shortens a truncate column with an ellipsis', () => {
    const cols: FitColumn[] = [
      { header: 'id', atomic: true },
      { header: 'address', overflow: 'truncate', minWidth: 8 },
    ];
    const { text } = fitTable(cols, [['ORD-1', '1 Very Long Street Name, Somewhere Far Away 2000']], 30);
    expect(text).toContain('…');
    expect(widest(text)).toBeLessThanOrEqual(30);
  });

  it('counts borders as 3 per column plus 1', () => {
    expect(tableOverhead(3)).toBe(10);
    const { width } = fitTable([{ header: 'a' }, { header: 'b' }], [['xx', 'yyy']], 100);
    expect(width).toBe(2 + 3 + tableOverhead(2));
  });
});

describe('wrapCell', () => {
  it('wraps at spaces and keeps existing line breaks', () => {
    expect(wrapCell('one two three\nfour', 7)).toBe('one two\nthree\nfour');
  });
  it('breaks a word longer than the width only when it must', () => {
    expect(wrapCell('abcdefghij', 4).split('\n')).toEqual(['abcd', 'efgh', 'ij']);
  });
});

describe('breakAfter', () => {
  it('wraps a field path at its dots instead of mid-word', () => {
    expect(wrapCell('order.shipments[0].delivery.address_lines[1]', 20, 'wrap', '.]')).toBe('order.shipments[0].\ndelivery.\naddress_lines[1]');
  });
});

describe('words wrap whole', () => {
  /** The text of column `c` of a fitted table's body, cell line by cell line (borders removed). */
  const cellLines = (text: string, c: number) =>
    text
      .split('\n')
      .filter((l) => l.startsWith('│'))
      .slice(1) // the heading (one word in these tests; its further lines are blank and dropped)
      .map((l) => l.split('│')[c + 1]!.trim())
      .filter((l) => l !== '');

  const services = [
    ['SB-GLOBAL-MAIL', 'ShipBook Global Mail', 'Global Mail Consolidated', 'yes', '27.00', '0.00', '0.00', '27.00'],
    ['SB-INTL-ECO', 'Aramex', 'International Economy', 'no', '40.00', '0.00', '0.00', '40.00'],
    ['SB-INTL-EXP', 'DHL Express', 'Express Worldwide (Time Definite)', 'no', '62.50', '0.00', '0.00', '62.50'],
  ];
  const words = new Set(services.flatMap((r) => r.flatMap((cell) => cell.split(' '))));

  it('never splits a service or carrier name inside a word, at any width from 60 to 120 columns', () => {
    for (let width = 60; width <= 120; width++) {
      const { text } = fitTable(quoteColumns, services, width);
      expect(widest(text), `width ${width}`).toBeLessThanOrEqual(width);
      for (const column of [1, 2]) {
        for (const line of cellLines(text, column)) {
          for (const word of line.split(' ')) expect(words.has(word), `"${word}" at ${width} columns:\n${text}`).toBe(true);
        }
      }
    }
  });

  it('breaks a file location after /, ., - or : only, never in the middle of a name', () => {
    const columns: FitColumn[] = [
      { header: 'location', minWidth: 16, breakAfter: '/:.-' },
      { header: 'problem', minWidth: 20 },
    ];
    const { text } = fitTable(columns, [['fixtures/invalid/order-too-long.yaml:6:21', 'at most 35 characters (got 36)']], 40);
    const pieces = cellLines(text, 0);
    expect(pieces.join('')).toBe('fixtures/invalid/order-too-long.yaml:6:21');
    for (const piece of pieces.slice(0, -1)) expect(piece).toMatch(/[/:.-]$/);
  });

  it('splits a word only when no layout keeps it whole', () => {
    const { text } = fitTable([{ header: 'a', minWidth: 4 }], [['Supercalifragilistic']], 12);
    expect(widest(text)).toBeLessThanOrEqual(12);
    expect(cellLines(text, 0).join('')).toBe('Supercalifragilistic');
  });
});
