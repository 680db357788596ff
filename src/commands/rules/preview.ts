/**
 * `shipbook book <inputs…> --preview`: what a batch would cost, before it is booked. Every order
 * document is read and checked as a batch reads it, its services chosen by the rules (when the run
 * has rules), and each shipment quoted at the service (through the client, at its pace) for the
 * service it would be booked on; nothing is created. Prints each order's service and exact quoted
 * price, totals per carrier and overall, and, with `--max-total` and `--budget`, which orders would
 * be refused. Text, markdown (`--markdown`, for a CI job summary) or JSON.
 */
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { quoteServices } from '../../api/quote.js';
import { batchItems } from '../../booking/index.js';
import type { BatchInputOptions } from '../../booking/index.js';
import type { LoadedDocument } from '../../input/loaded.js';
import { resolveSenders } from '../../input/senders.js';
import { quoteRequestFor } from '../../prompts/service.js';
import { aud, formatCents } from '../../schema/money.js';
import { isObject } from '../../schema/object.js';
import { oneLine } from '../../schema/shipment.js';
import { orderShipments, type Decision } from '../../booking/index.js';
import { runCaps, type CapFlags } from '../common/caps.js';
import { decideDocument, runRules, type RulesFlags } from './apply.js';

/** Options of a preview. */
interface PreviewOptions extends RulesFlags, CapFlags {
  inputs: string[];
  /** `--markdown`: a markdown report (tables) instead of lines. */
  markdown?: boolean;
  /** How the inputs are read (CSV settings, standard input). */
  input: BatchInputOptions;
}

/** One shipment priced. */
interface PricedShipment {
  code: string;
  carrier: string;
  name: string;
  total_cents: number;
}

/** One order of the preview. */
interface PreviewRow {
  file: string;
  line: number;
  references: string[];
  shipments: PricedShipment[];
  total_cents: number;
  reasons: string[];
  /** Why this order would be refused: `over --max-total …` or `over --budget …`. */
  refused?: string;
  /** Why it could not be previewed (invalid, consolidated mail). */
  problem?: string;
}

/**
 * Quotes each shipment of an order document (as files write it, codes filled in) for its own
 * service code, insured when its options ask for insurance, as create order would price it.
 * @throws UsageError (exit 2) when a shipment's service is not in its quote
 */
async function priceDocument(doc: LoadedDocument, ctx: Context, decided?: ReadonlyArray<Decision>): Promise<PricedShipment[]> {
  const profile = await ctx.profile();
  const resolved = resolveSenders(doc, profile.senders, profile.name, ctx.settings.hints);
  const out: PricedShipment[] = [];
  for (const [i, s] of orderShipments(resolved.data).entries()) {
    const service = isObject(s) && isObject(s.service) ? s.service : {};
    const code = typeof service.code === 'string' ? service.code : '';
    const insured = Array.isArray(service.options) && service.options.includes('insurance');
    // The quote the rules chose from has the price, unless the order is insured (quoted again, insured).
    const d = decided?.[i];
    if (d?.ok && !insured && d.chosen.code === code) {
      out.push({ code, carrier: d.chosen.carrier, name: oneLine(d.chosen.name), total_cents: d.chosen.total_cents });
      continue;
    }
    const request = quoteRequestFor(s as object, `${doc.file} shipment ${i + 1}`);
    const entries = await quoteServices(await ctx.api(), insured ? { ...request, insurance: 'true' } : request);
    const entry = entries.find((e) => e.code.toLowerCase() === code.toLowerCase());
    if (entry === undefined) throw new UsageError(`${doc.file}: service ${code || '(none)'} is not in the quote of shipment ${i + 1}`);
    out.push({ code: entry.code, carrier: entry.carrier, name: oneLine(entry.name), total_cents: entry.price.total.cents });
  }
  return out;
}

/** The transient ids of an order document's shipments. */
function referencesOf(data: unknown): string[] {
  return orderShipments(data).flatMap((s) => (isObject(s) && typeof s.transient_id === 'string' ? [s.transient_id] : []));
}

/**
 * Runs the preview (see the module's description). Orders are read in input order, so the budget
 * refuses the same orders a batch at concurrency 1 would.
 * @throws ValidationError (exit 2) for a rules file with problems; UsageError as {@link priceDocument}
 */
export async function runPreview(o: PreviewOptions, ctx: Context): Promise<void> {
  const caps = await runCaps(o, ctx);
  const rules = await runRules(o, ctx);
  const priced = new Map<string, { shipments: PricedShipment[]; references: string[] }>();
  const choices = new Map<string, string[]>();
  const input: BatchInputOptions = {
    ...o.input,
    prepare: async (doc, id) => {
      const ruled = rules ? await decideDocument(doc, rules, ctx) : undefined;
      const decided = ruled?.loaded ?? doc;
      priced.set(id, { shipments: await priceDocument(decided, ctx, ruled?.decision.shipments), references: referencesOf(decided.data) });
      if (ruled)
        choices.set(
          id,
          ruled.records.map((c) => c.reason),
        );
      return decided;
    },
  };
  const started = Date.now();
  const rows: PreviewRow[] = [];
  let spent = 0;
  for await (const item of batchItems(o.inputs, undefined, ctx.now, input)) {
    const p = priced.get(item.id);
    if (item.issues || p === undefined) {
      const problem = item.issues ? item.issues.map((i) => i.message).join('; ') : 'consolidated mail: not previewed';
      rows.push({ file: item.file, line: item.line, references: [], shipments: [], total_cents: 0, reasons: [], problem });
      continue;
    }
    const total = p.shipments.reduce((sum, s) => sum + s.total_cents, 0);
    const row: PreviewRow = {
      file: item.file,
      line: item.line,
      references: p.references,
      shipments: p.shipments,
      total_cents: total,
      reasons: choices.get(item.id) ?? [],
    };
    if (caps.maxTotalCents !== undefined && total > caps.maxTotalCents) row.refused = `over --max-total ${formatCents(caps.maxTotalCents)}`;
    else if (caps.budget !== undefined && spent + total > caps.budget.limitCents)
      row.refused = `over --budget ${formatCents(caps.budget.limitCents)} (${formatCents(spent)} spent before it)`;
    else spent += total;
    rows.push(row);
  }
  const booked = rows.filter((r) => r.problem === undefined && r.refused === undefined);
  const carriers = new Map<string, { orders: number; total_cents: number }>();
  for (const r of booked) {
    for (const s of r.shipments) {
      const c = carriers.get(s.carrier) ?? { orders: 0, total_cents: 0 };
      c.total_cents += s.total_cents;
      c.orders++;
      carriers.set(s.carrier, c);
    }
  }
  const total = booked.reduce((sum, r) => sum + r.total_cents, 0);
  const seconds = (Date.now() - started) / 1000;
  const data = {
    preview: true,
    sent: false,
    orders: rows.map((r) => ({
      file: r.file,
      line: r.line,
      references: r.references,
      services: r.shipments.map((s) => ({ code: s.code, carrier: s.carrier, name: s.name, total: formatCents(s.total_cents) })),
      total: formatCents(r.total_cents),
      ...(r.reasons.length > 0 ? { reasons: r.reasons } : {}),
      ...(r.refused !== undefined ? { refused: r.refused } : {}),
      ...(r.problem !== undefined ? { problem: r.problem } : {}),
    })),
    carriers: [...carriers].map(([carrier, c]) => ({ carrier, shipments: c.orders, total: formatCents(c.total_cents) })),
    total: formatCents(total),
    orders_previewed: booked.length,
    refused: rows.filter((r) => r.refused !== undefined).length,
    problems: rows.filter((r) => r.problem !== undefined).length,
  };
  ctx.output.write(data, () => {
    const service = (r: PreviewRow) => r.shipments.map((s) => s.code).join(' ');
    if (o.markdown) {
      const cell = (t: string) => t.replace(/\|/g, '\\|');
      const lines = [
        '| order | references | service | total (AUD) | note |',
        '|---|---|---|--:|---|',
        ...rows.map(
          (r) =>
            `| ${cell(`${r.file}:${r.line}`)} | ${cell(r.references.join(' '))} | ${cell(service(r))} | ${formatCents(r.total_cents)} | ${cell(r.problem ?? r.refused ?? r.reasons.join(' / '))} |`,
        ),
        '',
        '| carrier | shipments | total (AUD) |',
        '|---|--:|--:|',
        ...data.carriers.map((c) => `| ${cell(c.carrier)} | ${c.shipments} | ${c.total} |`),
        `| **all** | | **${data.total}** |`,
        '',
      ];
      ctx.io.out(`${lines.join('\n')}\n`);
    } else {
      for (const r of rows)
        ctx.io.out(
          `${r.file}:${r.line}\t${r.references.join(' ')}\t${service(r)}\t${formatCents(r.total_cents)}\t${r.problem ?? r.refused ?? r.reasons.join(' | ')}\n`,
        );
      for (const c of data.carriers) ctx.io.out(`carrier\t${c.carrier}\t${c.shipments}\t${c.total}\n`);
      ctx.io.out(`total\t\t\t${data.total}\n`);
    }
  });
  ctx.io.err(
    `preview: ${booked.length} order(s) would cost ${aud(data.total)}${data.refused > 0 ? `; ${data.refused} would be refused by a cap` : ''}${data.problems > 0 ? `; ${data.problems} not previewed` : ''}; quoted in ${seconds.toFixed(1)} s; nothing was created\n`,
  );
}
