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
const widest = (text: string) => Math.max(...text.trimEnd().split('\n').map((l) => stringWidth(l)));

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
    const cols: FitColumn[] = [{ header: 'tracking', atomic: true }, { header: 'note', dropPriority: 1 }];
    const { text, dropped } = fitTable(cols, [['TRK-0123456789-ABCDEFGHIJ', 'x']], 20);
    expect(dropped).toEqual(['note']);
    expect(text).toContain('TRK-0123456789-ABCDEFGHIJ');
  });

  it('shortens a truncate column with an ellipsis', () => {
    const cols: FitColumn[] = [{ header: 'id', atomic: true }, { header: 'address', overflow: 'truncate', minWidth: 8 }];
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
