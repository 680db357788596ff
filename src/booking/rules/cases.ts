/**
 * Trying rules offline (`shipbook rules test`): orders, each with the quote it would get (a quote
 * answer from a file, or a price list the caller supplies: the sandbox's, in-process) and what the
 * rules are expected to choose. A case file lists such cases:
 *
 *   cases:
 *     - name: heavy parcel to Perth goes StarTrack
 *       order: orders/heavy-perth.yaml        # a file (relative to the case file) or the document itself
 *       quote: quotes/heavy-perth.json        # optional: a quote answer; else the price list
 *       expect: { service: SB-ST-ROAD, rule: heavy to WA by StarTrack }
 *
 * `expect.service` is a code (every shipment), a list (one per shipment), or `none` (no service left).
 */
import { dirname, resolve } from 'node:path';
import * as z from 'zod';
import { ValidationError, type InputIssue } from '../../errors.js';
import { loadDocument } from '../../input/load.js';
import type { LoadedDocument } from '../../input/loaded.js';
import { resolveSenders, type SenderRecord } from '../../input/senders.js';
import { quoteRequestFor } from '../../prompts/service.js';
import { formatPath, schemaProblems } from '../../schema/issues.js';
import { isObject } from '../../schema/object.js';
import { quoteResult, type QuoteRequest } from '../../schema/quote.js';
import type { RatedEntry } from './decide.js';
import { decideOrder, orderShipments, ratedEntry, type OrderDecision } from './order.js';
import type { RuleSet } from './load.js';

/** What a case expects. */
interface Expectation {
  /** One code for every shipment, one per shipment, or `none`. */
  service?: string | string[];
  /** The rule expected to choose (of the first shipment). */
  rule?: string;
}

/** One order tried under the rules. */
export interface CaseResult {
  /** The case's name, or the order file's. */
  name: string;
  /** Where the case (or the order) is written: `file:line`. */
  at: string;
  decision: OrderDecision;
  expect?: Expectation;
  /** Why the decision disagrees with `expect`; absent when it agrees or nothing was expected. */
  mismatch?: string;
}

/** Where quotes come from when a case gives none: the price list for a quote request. */
export type PriceList = (q: QuoteRequest) => RatedEntry[];

const caseFile = z.strictObject({
  cases: z.array(
    z.strictObject({
      name: z.string().trim().min(1),
      order: z.union([z.string().min(1), z.record(z.string(), z.unknown())], { error: 'expected an order file or an order document' }),
      quote: z.union([z.string().min(1), z.array(z.unknown()), z.record(z.string(), z.unknown())]).optional(),
      expect: z
        .strictObject({
          service: z.union([z.string().trim().min(1), z.array(z.string().trim().min(1)).min(1)]).optional(),
          rule: z.string().trim().min(1).optional(),
        })
        .optional(),
    }),
  ),
});

/** Reads a quote answer (`{code, message, result: {services}}`, `{services}` or a bare list) into entries. */
function quoteEntries(data: unknown, where: string): RatedEntry[] {
  const inner = isObject(data) && isObject(data.result) ? data.result : Array.isArray(data) ? { services: data } : data;
  const parsed = quoteResult.safeParse(inner);
  if (!parsed.success) {
    const issues = schemaProblems(parsed.error).map((p) => ({ path: p.path, message: `${where}: ${p.message}`, severity: 'error' as const }));
    throw new ValidationError(issues, `${where} is not a quote answer`);
  }
  return parsed.data.services.map(ratedEntry);
}

/** What runs need beyond the rules: the saved senders, and the price list for cases without a quote. */
interface CaseOptions {
  senders?: Readonly<Record<string, SenderRecord>>;
  profile: string;
  priceList: PriceList;
  /** Entries that every order without a quote of its own is decided from (`--quote FILE`). */
  quote?: RatedEntry[];
}

/** The quote file of `--quote`, as entries. @throws ValidationError (exit 2) */
export async function loadQuoteFile(file: string): Promise<RatedEntry[]> {
  return quoteEntries((await loadDocument(file)).data, file);
}

/** Decides one order document. @throws ValidationError for an unknown saved sender or a shipment that cannot be quoted */
function decideDocument(rules: RuleSet, doc: LoadedDocument, o: CaseOptions, quote: RatedEntry[] | undefined): OrderDecision {
  const resolved = resolveSenders(doc, o.senders, o.profile);
  if (resolved.issues.length > 0) throw new ValidationError(resolved.issues);
  const shipments = orderShipments(resolved.data);
  if (shipments.length === 0) {
    throw new ValidationError([
      { file: doc.file, path: 'order.shipments', message: 'expected an order document: {order: {shipments: […]}}', severity: 'error' },
    ]);
  }
  const quotes = shipments.map((s, i) => quote ?? o.priceList(quoteRequestFor(s as object, `${doc.file} shipment ${i + 1}`)));
  return decideOrder(rules, resolved.data, { quotes, written: doc.data });
}

/** Why a decision disagrees with what was expected, or undefined when it agrees. */
function mismatchOf(d: OrderDecision, e: Expectation): string | undefined {
  const got = d.shipments.map((s) => (s.ok ? s.chosen.code : 'none'));
  if (e.service !== undefined) {
    const want = Array.isArray(e.service) ? e.service : got.map(() => e.service as string);
    if (want.length !== got.length) return `expected ${want.length} shipment(s), the order has ${got.length}`;
    const i = want.findIndex((w, k) => w.toLowerCase() !== got[k]!.toLowerCase());
    if (i >= 0) {
      const s = d.shipments[i]!;
      return `${got.length > 1 ? `shipment ${i + 1}: ` : ''}expected ${want[i]}, got ${got[i]} (${s.reason})`;
    }
  }
  if (e.rule !== undefined) {
    const first = d.shipments[0];
    const rule = first?.ok ? first.rule : first?.rule;
    if (rule?.toLowerCase() !== e.rule.toLowerCase())
      return `expected rule "${e.rule}", got ${rule === undefined ? 'no rule' : `rule "${rule}"`} (${first?.reason ?? 'no shipment'})`;
  }
  return undefined;
}

/**
 * Runs the rules over `inputs`: case files (with `cases:`) and order files. Every input is read
 * and checked before any is decided.
 * @throws ValidationError (exit 2) for an input that cannot be read, a case file that does not fit
 *   its form (every problem at file:line:col), or an order that cannot be quoted
 */
export async function runRuleCases(rules: RuleSet, inputs: readonly string[], o: CaseOptions): Promise<CaseResult[]> {
  const out: CaseResult[] = [];
  const issues: InputIssue[] = [];
  const work: Array<() => Promise<void>> = [];
  for (const file of inputs) {
    const doc = await loadDocument(file);
    if (!(isObject(doc.data) && 'cases' in doc.data)) {
      work.push(async () => {
        out.push({ name: file, at: `${file}:${doc.locate([])?.line ?? 1}`, decision: decideDocument(rules, doc, o, o.quote) });
      });
      continue;
    }
    const parsed = caseFile.safeParse(doc.data);
    if (!parsed.success) {
      for (const p of schemaProblems(parsed.error)) {
        const at = doc.locate(p.segments, { key: p.message === 'unknown field' });
        issues.push({ file, path: formatPath(p.segments), message: p.message, severity: 'error', ...(at ?? {}) });
      }
      continue;
    }
    const base = dirname(resolve(file));
    parsed.data.cases.forEach((c, i) => {
      const at = `${file}:${doc.locate(['cases', i])?.line ?? 1}`;
      work.push(async () => {
        const order: LoadedDocument =
          typeof c.order === 'string'
            ? await loadDocument(resolve(base, c.order))
            : { file: `${file} (case "${c.name}")`, data: c.order, wrapper: [], locate: (p) => doc.locate(['cases', i, 'order', ...p]) };
        const quote =
          c.quote === undefined
            ? o.quote
            : typeof c.quote === 'string'
              ? quoteEntries((await loadDocument(resolve(base, c.quote))).data, c.quote)
              : quoteEntries(c.quote, `${at} quote`);
        const decision = decideDocument(rules, order, o, quote);
        const mismatch = c.expect ? mismatchOf(decision, c.expect) : undefined;
        out.push({ name: c.name, at, decision, ...(c.expect ? { expect: c.expect } : {}), ...(mismatch !== undefined ? { mismatch } : {}) });
      });
    });
  }
  if (issues.length > 0) throw new ValidationError(issues);
  for (const step of work) await step();
  return out;
}
