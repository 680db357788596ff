/**
 * The cost preview (src/booking/preview.ts) for people and programs: a Markdown report (the GitHub
 * job summary, and the table format), tab-separated lines (`order`, then `orders`, `total_aud`,
 * `over_limit` lines a shell reads with `cut`), and the JSON document; and the rules' preview
 * (`book --preview`: {@link ruledPreviewText}, {@link ruledPreviewData}).
 */
import type { Preview, PreviewOrder, RuledPreview, RuledPreviewRow } from '../booking/index.js';
import { formatCents } from '../schema/money.js';

/** A Markdown table cell: pipes and line breaks escaped. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** What a cap says of an order, for the tables. */
function limitWord(o: PreviewOrder, p: Preview): string {
  if (o.overMaxTotal) return `over --max-total ${formatCents(p.maxTotalCents ?? 0)}`;
  if (o.pastBudget) return `past --budget ${formatCents(p.budgetCents ?? 0)}`;
  return '';
}

/** The preview as Markdown: the orders, the totals per carrier and overall, and the orders a cap would refuse. */
export function previewMarkdown(p: Preview, title = 'shipbook: cost preview'): string {
  const lines = [`### ${title}`, ''];
  lines.push('| order | services | total (AUD) | limit |', '|---|---|---:|---|');
  for (const o of p.orders) {
    const services = o.problem ?? o.shipments.map((s) => `${s.code} (${s.carrier}${s.chosen === 'cheapest' ? ', cheapest' : ''})`).join(', ');
    lines.push(
      `| ${cell(`${o.file}:${o.line}`)} | ${cell(services)} | ${o.totalCents === undefined ? '—' : formatCents(o.totalCents)} | ${cell(limitWord(o, p))} |`,
    );
  }
  lines.push('', '| carrier | orders | total (AUD) |', '|---|---:|---:|');
  for (const c of p.carriers) lines.push(`| ${cell(c.carrier)} | ${c.orders} | ${formatCents(c.totalCents)} |`);
  lines.push(`| **all** | ${p.orders.filter((o) => o.totalCents !== undefined).length} | **${formatCents(p.totalCents)}** |`, '');
  if (p.overLimit > 0) lines.push(`**${p.overLimit} order${p.overLimit === 1 ? '' : 's'} over a limit** would be refused (cancelled before acceptance).`, '');
  const unpriced = p.orders.filter((o) => o.totalCents === undefined).length;
  if (unpriced > 0) lines.push(`${unpriced} order${unpriced === 1 ? '' : 's'} could not be priced.`, '');
  return `${lines.join('\n')}\n`;
}

/** The preview as tab-separated lines: `order<TAB>file:line<TAB>codes<TAB>carriers<TAB>total<TAB>limit`, then `orders`, `total_aud` and `over_limit`. */
export function previewTsv(p: Preview): string {
  const rows = p.orders.map((o) =>
    [
      'order',
      `${o.file}:${o.line}`,
      o.shipments.map((s) => s.code).join(',') || '-',
      [...new Set(o.shipments.map((s) => s.carrier))].join(',') || '-',
      o.totalCents === undefined ? '-' : formatCents(o.totalCents),
      o.overMaxTotal ? 'over_max_total' : o.pastBudget ? 'past_budget' : o.problem !== undefined ? 'unpriced' : 'ok',
    ].join('\t'),
  );
  rows.push(`orders\t${p.orders.length}`, `total_aud\t${formatCents(p.totalCents)}`, `over_limit\t${p.overLimit}`);
  return `${rows.join('\n')}\n`;
}

/** The preview as the JSON document (`preview`): amounts as two-decimal strings. */
export function previewData(p: Preview): { preview: Record<string, unknown> } {
  return {
    preview: {
      orders: p.orders.map((o) => ({
        id: o.id,
        file: o.file,
        line: o.line,
        shipments: o.shipments.map((s) => ({ code: s.code, name: s.name, carrier: s.carrier, total: formatCents(s.totalCents), chosen: s.chosen })),
        total: o.totalCents === undefined ? null : formatCents(o.totalCents),
        ...(o.problem !== undefined ? { problem: o.problem } : {}),
        ...(o.overMaxTotal ? { over_max_total: true } : {}),
        ...(o.pastBudget ? { past_budget: true } : {}),
      })),
      carriers: p.carriers.map((c) => ({ carrier: c.carrier, orders: c.orders, total: formatCents(c.totalCents) })),
      total_aud: formatCents(p.totalCents),
      over_limit: p.overLimit,
      ...(p.maxTotalCents !== undefined ? { max_total: formatCents(p.maxTotalCents) } : {}),
      ...(p.budgetCents !== undefined ? { budget: formatCents(p.budgetCents) } : {}),
    },
  };
}

/** The rules' preview (`book --preview`) as its JSON document: amounts as two-decimal strings. */
export function ruledPreviewData(p: RuledPreview): Record<string, unknown> {
  return {
    preview: true,
    sent: false,
    orders: p.rows.map((r) => ({
      file: r.file,
      line: r.line,
      references: r.references,
      services: r.shipments.map((s) => ({ code: s.code, carrier: s.carrier, name: s.name, total: formatCents(s.total_cents) })),
      total: formatCents(r.total_cents),
      ...(r.reasons.length > 0 ? { reasons: r.reasons } : {}),
      ...(r.refused !== undefined ? { refused: r.refused } : {}),
      ...(r.problem !== undefined ? { problem: r.problem } : {}),
    })),
    carriers: p.carriers.map((c) => ({ carrier: c.carrier, shipments: c.shipments, total: formatCents(c.total_cents) })),
    total: formatCents(p.total_cents),
    orders_previewed: p.booked,
    refused: p.refused,
    problems: p.problems,
  };
}

/**
 * The rules' preview for people: with `markdown` two tables (the orders, then the carriers and the
 * total); else tab-separated lines (`file:line`, references, services, total, note), a `carrier`
 * line each and a `total` line.
 */
export function ruledPreviewText(p: RuledPreview, markdown: boolean): string {
  const service = (r: RuledPreviewRow) => r.shipments.map((s) => s.code).join(' ');
  // Pipes escaped (this report has always kept line breaks as they are).
  const cell = (t: string) => t.replace(/\|/g, '\\|');
  if (markdown) {
    const lines = [
      '| order | references | service | total (AUD) | note |',
      '|---|---|---|--:|---|',
      ...p.rows.map(
        (r) =>
          `| ${cell(`${r.file}:${r.line}`)} | ${cell(r.references.join(' '))} | ${cell(service(r))} | ${formatCents(r.total_cents)} | ${cell(r.problem ?? r.refused ?? r.reasons.join(' / '))} |`,
      ),
      '',
      '| carrier | shipments | total (AUD) |',
      '|---|--:|--:|',
      ...p.carriers.map((c) => `| ${cell(c.carrier)} | ${c.shipments} | ${formatCents(c.total_cents)} |`),
      `| **all** | | **${formatCents(p.total_cents)}** |`,
      '',
    ];
    return `${lines.join('\n')}\n`;
  }
  return [
    ...p.rows.map(
      (r) =>
        `${r.file}:${r.line}\t${r.references.join(' ')}\t${service(r)}\t${formatCents(r.total_cents)}\t${r.problem ?? r.refused ?? r.reasons.join(' | ')}\n`,
    ),
    ...p.carriers.map((c) => `carrier\t${c.carrier}\t${c.shipments}\t${formatCents(c.total_cents)}\n`),
    `total\t\t\t${formatCents(p.total_cents)}\n`,
  ].join('');
}

/** The rules' preview's closing line on stderr: what the orders would cost, how many a cap refuses, how long the quotes took. */
export function ruledPreviewNote(p: RuledPreview, seconds: number): string {
  return `preview: ${p.booked} order(s) would cost ${formatCents(p.total_cents)} AUD${p.refused > 0 ? `; ${p.refused} would be refused by a cap` : ''}${p.problems > 0 ? `; ${p.problems} not previewed` : ''}; quoted in ${seconds.toFixed(1)} s; nothing was created\n`;
}
