/**
 * The cost preview (src/booking/preview.ts `previewBatch`) for people and programs: a Markdown
 * report (`--markdown`, the table format on a terminal, and the `--summary` file: a GitHub job
 * summary), tab-separated lines (an `order` line each, a `carrier` line each, then `orders`,
 * `total_aud`, `quoted_aud` and `over_limit` lines a shell reads with `cut` or awk), the JSON
 * document `{ preview }`, and the closing line on stderr.
 */
import type { Preview, PreviewRow } from '../booking/index.js';
import { formatCents } from '../schema/money.js';

/** A Markdown table cell: pipes and line breaks escaped. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** What the row's note says: why it was not priced, why a cap refuses it, else why the rules chose its services. */
function note(r: PreviewRow, sep: string): string {
  return r.problem ?? r.refused?.why ?? r.reasons.join(sep);
}

/** The row's state in one word: `ok`, `over_max_total`, `past_budget`, `invalid`, `unpriceable` or `consolidated`. */
function state(r: PreviewRow): string {
  if (r.unpriced !== undefined) return r.unpriced;
  if (r.refused !== undefined) return r.refused.cap === 'max_total' ? 'over_max_total' : 'past_budget';
  return 'ok';
}

/** `total (AUD)`: the order's total, or `-` when it was not priced. */
function totalOf(r: PreviewRow): string {
  return r.total_cents === undefined ? '-' : formatCents(r.total_cents);
}

/** The closing words of the Markdown report and of the stderr line: refused and unpriced orders. */
function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The preview as Markdown: the orders (file:line, references, services with their carriers, total,
 * note), the carriers of the orders that would be booked with the total they would spend, and what
 * was quoted in all, refused by a cap or not priced.
 */
export function previewMarkdown(p: Preview, title = 'shipbook: cost preview'): string {
  const lines = [`### ${title}`, '', '| order | references | services | total (AUD) | note |', '|---|---|---|--:|---|'];
  for (const r of p.rows) {
    const services = r.shipments.map((s) => `${s.code} (${s.carrier}${s.chosen === 'cheapest' ? ', cheapest' : ''})`).join(', ');
    lines.push(`| ${cell(`${r.file}:${r.line}`)} | ${cell(r.references.join(' '))} | ${cell(services)} | ${totalOf(r)} | ${cell(note(r, ' / '))} |`);
  }
  lines.push('', '| carrier | orders | shipments | total (AUD) |', '|---|--:|--:|--:|');
  for (const c of p.carriers) lines.push(`| ${cell(c.carrier)} | ${c.orders} | ${c.shipments} | ${formatCents(c.total_cents)} |`);
  lines.push(`| **all** | ${p.booked} | ${p.carriers.reduce((n, c) => n + c.shipments, 0)} | **${formatCents(p.total_cents)}** |`, '');
  lines.push(`Quoted for every priced order: ${formatCents(p.quoted_cents)} AUD.`, '');
  if (p.over_limit > 0) lines.push(`**${plural(p.over_limit, 'order')} over a limit** would be refused (cancelled before acceptance): not in the total.`, '');
  if (p.problems > 0) lines.push(`**${plural(p.problems, 'order')} could not be priced** (invalid, or no price for it).`, '');
  return `${lines.join('\n')}\n`;
}

/**
 * The preview as tab-separated lines: `order<TAB>file:line<TAB>references<TAB>codes<TAB>carriers<TAB>total<TAB>state<TAB>note`
 * (state: ok, over_max_total, past_budget, invalid, unpriceable, consolidated), `carrier<TAB>name<TAB>orders<TAB>shipments<TAB>total`,
 * then `orders`, `total_aud` (what booking would spend), `quoted_aud` (every priced order) and `over_limit`.
 */
export function previewTsv(p: Preview): string {
  const flat = (t: string) => t.replace(/[\t\r\n]+/g, ' ');
  const rows = p.rows.map((r) =>
    [
      'order',
      `${r.file}:${r.line}`,
      r.references.join(' ') || '-',
      r.shipments.map((s) => s.code).join(',') || '-',
      [...new Set(r.shipments.map((s) => s.carrier))].join(',') || '-',
      totalOf(r),
      state(r),
      flat(note(r, ' | ')),
    ].join('\t'),
  );
  for (const c of p.carriers) rows.push(['carrier', c.carrier, c.orders, c.shipments, formatCents(c.total_cents)].join('\t'));
  rows.push(
    `orders\t${p.rows.length}`,
    `total_aud\t${formatCents(p.total_cents)}`,
    `quoted_aud\t${formatCents(p.quoted_cents)}`,
    `over_limit\t${p.over_limit}`,
  );
  return `${rows.join('\n')}\n`;
}

/** The preview as the JSON document (`{ preview }`): amounts as two-decimal strings (docs/book.md, "The cost preview"). */
export function previewData(p: Preview): { preview: Record<string, unknown> } {
  return {
    preview: {
      orders: p.rows.map((r) => ({
        id: r.id,
        file: r.file,
        line: r.line,
        references: r.references,
        shipments: r.shipments.map((s) => ({ code: s.code, name: s.name, carrier: s.carrier, total: formatCents(s.total_cents), chosen: s.chosen })),
        total: r.total_cents === undefined ? null : formatCents(r.total_cents),
        state: state(r),
        ...(r.reasons.length > 0 ? { reasons: r.reasons } : {}),
        ...(r.refused !== undefined ? { refused: r.refused.why } : {}),
        ...(r.problem !== undefined ? { problem: r.problem } : {}),
      })),
      carriers: p.carriers.map((c) => ({ carrier: c.carrier, orders: c.orders, shipments: c.shipments, total: formatCents(c.total_cents) })),
      total_aud: formatCents(p.total_cents),
      quoted_total_aud: formatCents(p.quoted_cents),
      orders_booked: p.booked,
      over_limit: p.over_limit,
      problems: p.problems,
      ...(p.maxTotalCents !== undefined ? { max_total: formatCents(p.maxTotalCents) } : {}),
      ...(p.budgetCents !== undefined ? { budget: formatCents(p.budgetCents) } : {}),
      sent: false,
    },
  };
}

/** The closing line on stderr: what booking would spend, what was quoted, how many a cap refuses or could not be priced, how long the quotes took. */
export function previewNote(p: Preview, seconds: number): string {
  const refused = p.over_limit > 0 ? `; ${p.over_limit} would be refused by a cap` : '';
  const problems = p.problems > 0 ? `; ${p.problems} could not be priced` : '';
  return `preview: ${plural(p.booked, 'order')} would cost ${formatCents(p.total_cents)} AUD (${formatCents(p.quoted_cents)} AUD quoted)${refused}${problems}; quoted in ${seconds.toFixed(1)} s; nothing was created\n`;
}
