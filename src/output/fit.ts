/**
 * Tables that fit the terminal (issue 18 item 4, issue 14 item 1): given the width of the
 * terminal in columns, cells are wrapped (or shortened with `…`) inside their column, and when
 * even the narrowest layout is too wide the least useful columns are dropped first, the way `gh`
 * does. Columns marked `atomic` (ids, tracking numbers, codes) are never split or shortened.
 * Multi-line cells (a service name with a line break, a long address) stay inside their cell.
 *
 * Pure: takes strings and a width, returns the text of a boxed table (cli-table3 borders), so it
 * can be unit-tested without a terminal. Widths are display widths (string-width: ANSI colour
 * codes count 0, wide East Asian characters 2).
 */
import Table from 'cli-table3';
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';

/** One column of a fitted table. */
export interface FitColumn {
  /** Heading shown in the first row (may carry ANSI colour). */
  header: string;
  /** Alignment of the cells (default left). */
  align?: 'left' | 'right';
  /** Never wrap, shorten or split a value of this column (ids, tracking numbers, codes, amounts). */
  atomic?: boolean;
  /**
   * How useful the column is when space is short: columns with the lowest value are dropped first.
   * `undefined` means the column is never dropped.
   */
  dropPriority?: number;
  /** `wrap` (default) breaks long values over several lines; `truncate` keeps one line and ends it with `…`. */
  overflow?: 'wrap' | 'truncate';
  /** Narrowest width (in display columns) a wrapped column is squeezed to; default 10. */
  minWidth?: number;
  /**
   * Characters after which a value without spaces may also be broken (e.g. `./:` for file
   * locations and field paths), so `order.shipments[0].delivery` wraps at its dots, not mid-word.
   */
  breakAfter?: string;
}

/** What {@link fitTable} produced. */
export interface FittedTable {
  /** The table, lines joined by `\n`, with a trailing newline. */
  text: string;
  /** Headers of the columns left out to fit the width, in column order. */
  dropped: string[];
  /** Width in display columns of the widest line of `text`. */
  width: number;
}

/** Columns of border and padding a table with `n` columns adds: `│ a │ b │` → 3n + 1. */
export function tableOverhead(n: number): number {
  return n === 0 ? 0 : 3 * n + 1;
}

/** Display width of the widest line of a cell. */
export function cellWidth(text: string): number {
  let max = 0;
  for (const line of text.split('\n')) max = Math.max(max, stringWidth(line));
  return max;
}

/** Display width of the longest word (run without spaces) of a cell: the least a wrap can reach without splitting a word. */
function longestWord(text: string): number {
  let max = 0;
  for (const word of text.split(/\s+/)) max = Math.max(max, stringWidth(word));
  return max;
}

/**
 * Wraps one cell to `width` display columns: at spaces, breaking a word only when it alone is
 * longer than the width; existing line breaks are kept. With `truncate`, every line is cut to the
 * width and ends with `…`.
 */
export function wrapCell(text: string, width: number, overflow: 'wrap' | 'truncate' = 'wrap', breakAfter = ''): string {
  if (width <= 0) return text;
  const lines = text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').split('\n');
  if (overflow === 'truncate') {
    return lines.map((line) => truncate(line, width)).join('\n');
  }
  return lines.map((line) => wrapAnsi(breakAfter ? softBreaks(line, width, breakAfter) : line, width, { hard: true, trim: true, wordWrap: true })).join('\n');
}

/** Splits each too-long word after one of `chars`, packing the pieces greedily into lines of `width`. */
function softBreaks(line: string, width: number, chars: string): string {
  const escaped = chars.replace(/[\\\]^-]/g, '\\$&');
  const pieceRe = new RegExp(`[^${escaped}]*[${escaped}]|[^${escaped}]+$`, 'g');
  return line
    .split(' ')
    .map((word) => {
      if (stringWidth(word) <= width) return word;
      const out: string[] = [];
      let current = '';
      for (const piece of word.match(pieceRe) ?? [word]) {
        if (current !== '' && stringWidth(current + piece) > width) {
          out.push(current);
          current = piece;
        } else current += piece;
      }
      if (current !== '') out.push(current);
      return out.join(' ');
    })
    .join(' ');
}

function truncate(line: string, width: number): string {
  if (stringWidth(line) <= width) return line;
  let out = '';
  for (const ch of line) {
    if (stringWidth(out + ch) > width - 1) break;
    out += ch;
  }
  return `${out}…`;
}

/**
 * Lays out `rows` under `columns` in at most `maxWidth` display columns.
 *
 * 1. Each column wants its natural width (its widest cell or header line). An atomic column needs
 *    all of it; another can be squeezed to `minWidth` (or its longest header word, if wider).
 * 2. While even the squeezed layout is too wide, the droppable column with the lowest
 *    `dropPriority` is left out (ties: the rightmost first).
 * 3. The remaining excess is taken one column at a time from the widest squeezable column.
 * 4. Cells are wrapped or shortened to their column's width.
 *
 * If the atomic columns alone are wider than `maxWidth`, the table is wider than asked: an id is
 * never split.
 */
export function fitTable(columns: FitColumn[], rows: string[][], maxWidth: number): FittedTable {
  const keep = columns.map((_, i) => i);
  const natural = columns.map((c, i) => Math.max(cellWidth(c.header), ...rows.map((r) => cellWidth(r[i] ?? '')), 1));
  const min = columns.map((c, i) => {
    if (c.atomic) return natural[i]!;
    const floor = Math.max(c.minWidth ?? 10, longestWord(c.header));
    return Math.min(natural[i]!, floor);
  });
  const total = (idx: number[], widths: number[]) => idx.reduce((s, i) => s + widths[i]!, 0) + tableOverhead(idx.length);

  const dropped = new Set<number>();
  while (total(keep, min) > maxWidth) {
    let victim = -1;
    for (const i of keep) {
      const p = columns[i]!.dropPriority;
      if (p === undefined) continue;
      if (victim === -1 || p <= columns[victim]!.dropPriority!) victim = i;
    }
    if (victim === -1) break;
    keep.splice(keep.indexOf(victim), 1);
    dropped.add(victim);
  }

  // Dropping is greedy: give back, most useful first, any dropped column that now fits at its narrowest.
  for (const i of [...dropped].sort((x, y) => columns[y]!.dropPriority! - columns[x]!.dropPriority! || x - y)) {
    const trial = [...keep, i].sort((x, y) => x - y);
    if (total(trial, min) <= maxWidth) {
      keep.splice(0, keep.length, ...trial);
      dropped.delete(i);
    }
  }

  const widths = [...natural];
  let excess = total(keep, widths) - maxWidth;
  while (excess > 0) {
    let widest = -1;
    for (const i of keep) {
      if (widths[i]! <= min[i]!) continue;
      if (widest === -1 || widths[i]! > widths[widest]!) widest = i;
    }
    if (widest === -1) break;
    widths[widest]! -= 1;
    excess -= 1;
  }

  const table = new Table({
    head: keep.map((i) => wrapCell(columns[i]!.header, widths[i]!)),
    colAligns: keep.map((i) => columns[i]!.align ?? 'left'),
    colWidths: keep.map((i) => widths[i]! + 2),
    wordWrap: false,
    style: { head: [], border: [], 'padding-left': 1, 'padding-right': 1 },
    // No rule between body rows: compact, like gh and stripe.
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const row of rows) {
    table.push(keep.map((i) => {
      const cell = (row[i] ?? '').replace(/\r\n?/g, '\n');
      return columns[i]!.atomic ? cell : wrapCell(cell, widths[i]!, columns[i]!.overflow, columns[i]!.breakAfter);
    }));
  }
  const text = `${table.toString()}\n`;
  return {
    text,
    dropped: columns.filter((_, i) => dropped.has(i)).map((c) => c.header),
    width: cellWidth(text.replace(/\n$/, '')),
  };
}
