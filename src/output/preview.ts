/**
 * The cost preview (src/booking/preview.ts) for people and programs: a Markdown report (the GitHub
 * job summary, and the table format), tab-separated lines (`order`, then `orders`, `total_aud`,
 * `over_limit` lines a shell reads with `cut`), and the JSON document.
 */
import type { Preview, PreviewOrder } from '../booking/index.js';
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
