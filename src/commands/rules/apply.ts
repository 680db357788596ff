/**
 * The rules applied where orders are sent (`book`, a batch, `order create`): which rules file the
 * run uses (`--rules`, else the profile's `rules` setting or `SHIPBOOK_RULES`), and one order
 * document decided under it: each shipment quoted at the service, its service chosen by the rules
 * (src/booking/rules/), the choice written into a copy of the document. The document as written
 * stays the order's identity in the ledger, so a rerun finds the booking whatever the rules chose.
 */
import type { Context } from '../../context.js';
import { ValidationError, cmd } from '../../errors.js';
import { quoteServices } from '../../api/quote.js';
import type { LoadedDocument } from '../../input/loaded.js';
import { resolveSenders } from '../../input/senders.js';
import { quoteRequestFor } from '../../prompts/service.js';
import { isObject } from '../../schema/object.js';
import { formatPath } from '../../schema/issues.js';
import { aud, formatCents } from '../../schema/money.js';
import { isConsolidatedDocument } from '../../schema/consolidated.js';
import type { PriceCaps } from '../../booking/index.js';
import type { BatchInputOptions, BatchResult } from '../../booking/index.js';
import { runMail, type MailSetup } from './mail.js';
import {
  MailGroups,
  MIXED_ORDER,
  mailMember,
  type CollectionFields,
  applyDecision,
  decideOrder,
  decisionRecord,
  loadRules,
  orderShipments,
  ratedEntry,
  type OrderDecision,
  type RatedEntry,
  type RuleSet,
  type ServiceChoice,
} from '../../booking/index.js';

/** The `--rules <file>` flag. */
export interface RulesFlags {
  rules?: string;
}

/**
 * The rules of this run: `--rules`, else the profile's `rules` setting (or `SHIPBOOK_RULES`); none
 * when neither is given.
 * @throws ValidationError (exit 2) for a rules file with problems, each at file:line:col
 */
export async function runRules(flags: RulesFlags, ctx: Context): Promise<RuleSet | undefined> {
  const file = flags.rules ?? (await ctx.profile()).rules;
  return file === undefined ? undefined : loadRules(file);
}

/** An order document decided under the rules. */
interface RuledDocument {
  /** The document with each shipment's chosen service (and options the rules set) written in. */
  loaded: LoadedDocument;
  decision: OrderDecision;
  /** Each shipment's decision as machine-readable outputs and reports carry it. */
  records: ReturnType<typeof decisionRecord>[];
  /** What the booking carries of it: the records (written to the ledger with the create) and the order's cap. */
  choice: ServiceChoice;
  /** Set when the rules send the order by consolidated mail: `loaded` is then in the consolidated form, and `key` its collection and day. */
  mail?: { key: string };
}

/**
 * Decides the services of an order document under `rules`: every shipment is quoted, then decided.
 * @returns undefined when a shipment cannot be quoted yet (the guided booking asks its parts, or
 *   the flow reports what is wrong)
 * @param o.service `--service <code>`: the code of shipments that name none (`cheapest` is what the rules do anyway)
 * @param o.quote how a shipment is quoted (default: the run's service)
 * @throws RulesRefusedError (exit 2) when a rule removed a code the order names, or left a shipment no service; nothing is sent
 */
export async function decideDocument(
  loaded: LoadedDocument,
  rules: RuleSet,
  ctx: Context,
  o: { service?: string | undefined; quote?: (shipment: unknown, where: string) => Promise<RatedEntry[]>; mail?: MailSetup } = {},
): Promise<RuledDocument | undefined> {
  const profile = await ctx.profile();
  const written = structuredClone(loaded.data);
  const code = o.service !== undefined && o.service.trim().toLowerCase() !== 'cheapest' ? o.service.trim() : undefined;
  if (code !== undefined) {
    for (const s of orderShipments(written)) {
      if (isObject(s) && !(isObject(s.service) && typeof s.service.code === 'string')) s.service = { ...(isObject(s.service) ? s.service : {}), code };
    }
  }
  const resolved = resolveSenders({ ...loaded, data: written }, profile.senders, profile.name);
  const shipments = orderShipments(resolved.data);
  const quote = o.quote ?? (async (s: unknown, where: string) => (await quoteServices(await ctx.api(), quoteRequestFor(s as object, where))).map(ratedEntry));
  // A document whose shipments cannot all be quoted yet (parts the guided booking asks, a saved
  // sender unknown) is left to the flow that reports or asks them.
  if (resolved.issues.length > 0 || shipments.length === 0) return undefined;
  const where = (i: number) => (shipments.length > 1 ? `shipment ${i + 1}` : 'the shipment');
  try {
    shipments.forEach((s, i) => quoteRequestFor(s as object, where(i)));
  } catch {
    return undefined;
  }
  const quotes: RatedEntry[][] = [];
  for (const [i, s] of shipments.entries()) quotes.push(await quote(s, where(i)));
  let decision = decideOrder(rules, resolved.data, { quotes, written, ...(o.mail ? { globalMail: o.mail.path } : {}) });
  // An order goes by one path: consolidated mail for some of its shipments only is not applicable.
  const byMail = decision.shipments.filter((d) => d.ok && d.chosen.global_mail).length;
  if (byMail > 0 && byMail < decision.shipments.length)
    decision = decideOrder(rules, resolved.data, { quotes, written, globalMail: { usable: false, why: MIXED_ORDER } });
  const refused = decision.shipments.map((d, i) => ({ d, i })).filter(({ d }) => !d.ok);
  if (refused.length > 0) throw new RulesRefusedError(loaded, rules, refused);
  // The tags are for the rules only: the order sent is the document without them.
  const decided = applyDecision(written, decision);
  if (isObject(decided)) delete decided.tags;
  const records = decision.shipments.map(decisionRecord);
  const choice: ServiceChoice = {
    records: records.map((r, i) => ({ ...r, facts: decision.facts[i]! })),
    ...(decision.max_total ? { maxTotal: decision.max_total } : {}),
  };
  if (o.mail === undefined || byMail === 0 || byMail < decision.shipments.length) return { loaded: { ...loaded, data: decided }, decision, records, choice };
  // Every shipment goes by consolidated mail: the consolidated form, each collected as its service's data says.
  const fields = new Map<string, CollectionFields>();
  for (const d of decision.shipments) if (d.ok && !fields.has(d.chosen.code)) fields.set(d.chosen.code, await o.mail.collection(d.chosen.code));
  const sent = resolveSenders({ ...loaded, data: decided }, profile.senders, profile.name).data;
  const member = mailMember(sent, (c) => fields.get(c)!);
  return { loaded: { ...loaded, data: member.data }, decision, records, choice, mail: { key: member.key } };
}

/** The rules left a shipment of an order no service, or removed the code it names: nothing is sent. Exit 2. */
class RulesRefusedError extends ValidationError {
  constructor(loaded: LoadedDocument, rules: RuleSet, refused: ReadonlyArray<{ d: OrderDecision['shipments'][number]; i: number }>) {
    const issues = refused.map(({ d, i }) => {
      const path = ['order', 'shipments', i, ...(!d.ok && d.problem !== 'none_left' ? ['service', 'code'] : [])];
      const at = loaded.locate(path);
      return { file: loaded.file, path: formatPath(path), message: d.reason, severity: 'error' as const, ...(at ?? {}) };
    });
    const first = refused[0]!.d;
    const what = !first.ok && first.problem === 'written_removed' ? 'a rule denies the service it names' : 'the rules leave it no service';
    super(issues, `not sent: ${loaded.file}: ${what}`, {
      suggestion: ['Try the rules on this order with: ', cmd('rules', 'test', rules.file, loaded.file)],
    });
  }
}

/** The lines that say each shipment's choice: `service: <reason>` (with the shipment's number when there are several). */
function choiceLines(r: RuledDocument): string[] {
  const n = r.decision.shipments.length;
  return r.records.map((d, i) => `${n > 1 ? `shipment ${i + 1} ` : ''}service: ${d.reason}`);
}

/**
 * The rules hook of a sending command: when the run has rules and `loaded` is an order (not
 * consolidated mail), decides it ({@link decideDocument}), says each shipment's choice on stderr,
 * and lowers `caps.maxTotalCents` to a rule's `max_total` where that is lower.
 * @returns the decided document, or undefined when there are no rules or nothing to decide
 * @throws as {@link runRules} and {@link decideDocument}
 */
export async function ruleDocument(
  loaded: LoadedDocument | undefined,
  flags: RulesFlags & { service?: string | undefined },
  ctx: Context,
  caps?: PriceCaps,
  o: { mail?: boolean } = {},
): Promise<RuledDocument | undefined> {
  if (loaded === undefined || isConsolidatedDocument(loaded.data)) return undefined;
  const rules = await runRules(flags, ctx);
  if (rules === undefined) return undefined;
  const mail = o.mail === true ? await runMail(ctx) : undefined;
  const ruled = await decideDocument(loaded, rules, ctx, { service: flags.service, ...(mail ? { mail } : {}) });
  if (ruled === undefined) return undefined;
  for (const line of choiceLines(ruled)) ctx.io.err(`${line}\n`);
  // Consolidated mail for one order: a parent of one, with the saved main shipment (or none, under free pickup).
  if (ruled.mail !== undefined) {
    if (mail?.main !== undefined) (ruled.loaded.data as Record<string, unknown>).main_shipment = structuredClone(mail.main.data);
    ctx.io.err(
      `consolidated mail: shipment create, combine into a parent order ${mail?.main ? 'with the main shipment of the mail.main-shipment setting' : 'under free pickup (no main shipment)'}, accept\n`,
    );
  }
  const cap = ruled.decision.max_total;
  if (caps !== undefined && cap !== undefined && (caps.maxTotalCents === undefined || cap.cents < caps.maxTotalCents)) {
    caps.maxTotalCents = cap.cents;
    caps.maxTotalRule = cap.rule;
    ctx.io.err(`rule "${cap.rule}" caps the order at ${aud(cap.cents)}\n`);
  }
  return ruled;
}

/**
 * The rules hook of a batch: each order document decided as the batch checks it (a refusal makes
 * that order invalid, with the rule named), its choice carried to the booking (recorded with the
 * create; a rule's `max_total` caps that order), and each result given the choice of its order.
 * @returns undefined when the run has no rules
 * @throws as {@link runRules}
 */
export async function batchRules(
  flags: RulesFlags,
  ctx: Context,
): Promise<{ prepare: NonNullable<BatchInputOptions['prepare']>; withChoice: <R extends BatchResult>(r: R) => R; mail: MailGroups } | undefined> {
  const rules = await runRules(flags, ctx);
  if (rules === undefined) return undefined;
  const choices = new Map<string, RuledDocument['records']>();
  const mail = await runMail(ctx);
  return {
    // The orders the rules send by consolidated mail, combined per collection address and day.
    mail: new MailGroups(mail.main?.request),
    async prepare(doc, id) {
      const ruled = await decideDocument(doc, rules, ctx, { mail });
      if (ruled === undefined) return doc;
      choices.set(id, ruled.records);
      // The choice goes with the order to the booking: recorded with its create, its max_total its own cap.
      return { ...ruled.loaded, choice: ruled.choice, ...(ruled.mail ? { mail: ruled.mail } : {}) };
    },
    withChoice(r) {
      const choice = choices.get(r.id);
      return choice === undefined ? r : { ...r, service_choice: choice };
    },
  };
}
