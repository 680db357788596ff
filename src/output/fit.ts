/**
 * Tables that fit the terminal: given the width of the
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
interface FittedTable {
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
function cellWidth(text: string): number {
  let max = 0;
  for (const line of text.split('\n')) max = Math.max(max, stringWidth(line));
  return max;
}

/**
 * Display width of the longest word (run without spaces) of a cell: the least a wrap can reach
 * without splitting a word. With `breakAfter`, a word counts by its longest piece between those
 * characters (`fixtures/invalid/order-too-long.yaml` by `order-too-long.`).
 */
function longestWord(text: string, breakAfter = ''): number {
  let max = 0;
  for (const word of text.split(/\s+/)) {
    const pieces = breakAfter === '' ? [word] : (word.match(piecePattern(breakAfter)) ?? [word]);
    for (const piece of pieces) max = Math.max(max, stringWidth(piece));
  }
  return max;
}

/** Pieces of a word, each ending after one of `chars` (the last one may not). */
function piecePattern(chars: string): RegExp {
  const escaped = chars.replace(/[\\\]^-]/g, '\\$&');
  return new RegExp(`[^${escaped}]*[${escaped}]|[^${escaped}]+$`, 'g');
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
  return lines.map((line) => (breakAfter ? softBreaks(line, width, breakAfter) : wrapAnsi(line, width, { hard: true, trim: true, wordWrap: true }))).join('\n');
}

/**
 * Wraps a line at spaces and, inside a word too long for a line, after one of `chars`: the pieces
 * of one word join without a space, words with one. A piece still longer than `width` is split.
 */
function softBreaks(line: string, width: number, chars: string): string {
  const pieceRe = piecePattern(chars);
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    const pieces = stringWidth(word) <= width ? [word] : (word.match(pieceRe) ?? [word]);
    pieces.forEach((piece, k) => {
      const joined = k === 0 && current !== '' ? `${current} ${piece}` : current + piece;
      if (current !== '' && stringWidth(joined) > width) {
        lines.push(current);
        current = piece;
      } else current = joined;
    });
  }
  lines.push(current);
  return lines.map((l) => (stringWidth(l) > width ? wrapAnsi(l, width, { hard: true, trim: true }) : l)).join('\n');
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
 *    all of it; another can be squeezed to `minWidth` (or its longest header word, if wider), but
 *    not below its longest word (`International`, or a path's longest piece between `breakAfter`
 *    characters), so words wrap whole.
 * 2. While even the squeezed layout is too wide, the droppable column with the lowest
 *    `dropPriority` is left out (ties: the rightmost first). When nothing is left to drop and the
 *    words still do not fit, they may be split (down to `minWidth`) rather than overflow.
 * 3. The remaining excess is taken one column at a time from the squeezable column where it adds
 *    the fewest lines to the table (the widest on a tie; just the widest for tables over 200 rows).
 * 4. Cells are wrapped or shortened to their column's width.
 *
 * If the atomic columns alone are wider than `maxWidth`, the table is wider than asked: an id is
 * never split.
 */
export function fitTable(columns: FitColumn[], rows: string[][], maxWidth: number): FittedTable {
  const keep = columns.map((_, i) => i);
  const natural = columns.map((c, i) => Math.max(cellWidth(c.header), ...rows.map((r) => cellWidth(r[i] ?? '')), 1));
  // The narrowest a column goes without splitting a word, and the narrowest at all (a word longer
  // than the terminal allows is split only when no layout keeps it whole).
  const hard = columns.map((c, i) => {
    if (c.atomic) return natural[i]!;
    const floor = Math.max(c.minWidth ?? 10, longestWord(c.header));
    return Math.min(natural[i]!, floor);
  });
  const whole = columns.map((c, i) => (c.overflow === 'truncate' ? hard[i]! : Math.max(hard[i]!, ...rows.map((r) => longestWord(r[i] ?? '', c.breakAfter)))));
  const total = (idx: number[], widths: number[]) => idx.reduce((s, i) => s + widths[i]!, 0) + tableOverhead(idx.length);

  const dropped = new Set<number>();
  let min = whole;
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

  // Nothing left to drop and words still too long: split them rather than overflow the terminal,
  // in as few columns as it takes (the one with the most to give first).
  if (total(keep, min) > maxWidth) {
    min = [...whole];
    for (const i of [...keep].sort((a, b) => whole[b]! - hard[b]! - (whole[a]! - hard[a]!))) {
      const over = total(keep, min) - maxWidth;
      if (over <= 0) break;
      min[i] = Math.max(hard[i]!, whole[i]! - over);
    }
  }
  const widths = [...natural];
  let excess = total(keep, widths) - maxWidth;
  // Lines each row of column i takes at width w (memoised): the table's height is, row by row, the
  // most lines of any of its cells.
  const memo = new Map<string, number[]>();
  const linesAt = (i: number, w: number): number[] => {
    const key = `${i}:${w}`;
    let lines = memo.get(key);
    if (!lines) {
      const c = columns[i]!;
      lines = rows.map((r) =>
        c.atomic
          ? cellWidth(r[i] ?? '') && (r[i] ?? '').split('\n').length
          : wrapCell((r[i] ?? '').replace(/\r\n?/g, '\n'), w, c.overflow, c.breakAfter).split('\n').length,
      );
      memo.set(key, lines);
    }
    return lines;
  };
  const headerLines = (i: number, w: number) => wrapCell(columns[i]!.header, w).split('\n').length;
  const height = (except: number, w: number): number =>
    Math.max(...keep.map((j) => headerLines(j, j === except ? w : widths[j]!))) +
    rows.reduce((sum, _, r) => sum + Math.max(...keep.map((j) => (j === except ? linesAt(j, w)[r]! : linesAt(j, widths[j]!)[r]!))), 0);
  // Small tables: take each column of width from where it costs the fewest extra lines (the
  // widest on a tie), so a short carrier name is not wrapped over three lines to keep a long one
  // whole. Large tables: from the widest column (the same idea without counting lines).
  const balance = rows.length <= 200;
  while (excess > 0) {
    let pick = -1;
    let cost = Infinity;
    for (const i of keep) {
      if (widths[i]! <= min[i]!) continue;
      const c = balance ? height(i, widths[i]! - 1) : -widths[i]!;
      if (pick === -1 || c < cost || (c === cost && widths[i]! > widths[pick]!)) {
        pick = i;
        cost = c;
      }
    }
    if (pick === -1) break;
    widths[pick]! -= 1;
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
    table.push(
      keep.map((i) => {
        const cell = (row[i] ?? '').replace(/\r\n?/g, '\n');
        return columns[i]!.atomic ? cell : wrapCell(cell, widths[i]!, columns[i]!.overflow, columns[i]!.breakAfter);
      }),
    );
  }
  const text = `${table.toString()}\n`;
  return {
    text,
    dropped: columns.filter((_, i) => dropped.has(i)).map((c) => c.header),
    width: cellWidth(text.replace(/\n$/, '')),
  };
}
