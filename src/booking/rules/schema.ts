/**
 * The rules file: service-selection rules read in order, each with a `name`, an optional `when`
 * (conditions on the document) and one or more actions over the entries of a quote (interface
 * document, "Quote service entry": code, name, carrier, `global_mail`, price). The zod schema
 * here checks a file and gives its JSON Schema (`shipbook schema rules`).
 */
import * as z from 'zod';
import { parseAmountInput } from '../../schema/money.js';
import { toInputJsonSchema, type JsonSchema } from '../../schema/jsonschema.js';

const textList = z.array(z.string().trim().min(1, { error: 'empty text' })).min(1, { error: 'at least one value' });
const oneText = z.string().trim().min(1, { error: 'empty text' });

const textCondition = z
  .union([oneText, textList, z.strictObject({ not: z.union([oneText, textList]) })], {
    error: 'expected a text, a list of texts, or {not: …}',
  })
  .describe('A value, any of a list of values, or {not: value-or-list}; compared without regard to case.');

/** Postcodes: `"6000"` or an inclusive range `"6700-6799"`. */
const POSTCODE = /^\s*[A-Za-z0-9]+(\s*-\s*[A-Za-z0-9]+)?\s*$/;
const postcodeText = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform((v) => String(v).trim())
  .refine((v) => POSTCODE.test(v), { error: 'expected a postcode ("6000") or a range ("6700-6799")' });
const postcodeCondition = z
  .union([postcodeText, z.array(postcodeText).min(1), z.strictObject({ not: z.union([postcodeText, z.array(postcodeText).min(1)]) })], {
    error: 'expected a postcode, a range ("6700-6799"), a list of them, or {not: …}',
  })
  .describe('A postcode ("6000") or an inclusive range ("6700-6799"), a list of them, or {not: …}.');

const finite = z.number({ error: 'expected a number' }).finite();
const numberCondition = z
  .union(
    [
      finite,
      z
        .strictObject({ gt: finite.optional(), gte: finite.optional(), lt: finite.optional(), lte: finite.optional(), eq: finite.optional() })
        .refine((o) => Object.keys(o).length > 0, { error: 'give at least one of gt, gte, lt, lte, eq' }),
    ],
    { error: 'expected a number or bounds such as {gt: 20}' },
  )
  .describe('A number (equal to it), or bounds that must all hold: {gt, gte, lt, lte, eq}.');

/** Conditions of a rule (`when`). */
const conditions = z
  .strictObject({
    delivery_country: textCondition.optional().describe('Two-letter country code(s) of the delivery address.'),
    delivery_state: textCondition.optional().describe('Australian state(s) of the delivery postcode: NSW, ACT, VIC, QLD, SA, WA, TAS, NT.'),
    delivery_postcode: postcodeCondition.optional(),
    collection_country: textCondition.optional().describe('Two-letter country code(s) of the collection address.'),
    collection_state: textCondition.optional().describe('Australian state(s) of the collection postcode.'),
    collection_postcode: postcodeCondition.optional(),
    weight_kg: numberCondition.optional().describe('Actual weight of all packages together, kg.'),
    cubic_weight_kg: numberCondition.optional().describe('Cubic weight of all packages together, kg (L×W×H cm / 4000).'),
    packages: numberCondition.optional().describe('Number of packages.'),
    largest_dimension_cm: numberCondition.optional().describe('Longest side of any package, cm.'),
    value_aud: numberCondition.optional().describe('Value of the goods (customs items), AUD.'),
    lithium: z.boolean({ error: 'expected true or false' }).optional().describe('The goods contain lithium batteries.'),
    sender: textCondition.optional().describe('The saved sender the collection names (without the @).'),
    collection_company: textCondition.optional().describe('Company of the collection address.'),
    tags: textCondition.optional().describe('Tags given with the order: a tag, any of a list, or {not: …}.'),
  })
  .describe('Conditions: every one given must hold.');

const selector = z
  .strictObject({
    carrier: z.union([oneText, textList]).optional().describe('Carrier name(s), as quotes give them (any case).'),
    service: z.union([oneText, textList]).optional().describe('Service code(s), as quotes give them (any case).'),
  })
  .refine((s) => s.carrier !== undefined || s.service !== undefined, { error: 'name a carrier or a service' });

/** AUD amounts with at most two decimals, read exactly. */
const aud = z.union([z.number(), z.string()], { error: 'expected an amount in AUD' }).transform((v, ctx) => {
  const read = parseAmountInput(v);
  if ('problem' in read) {
    ctx.addIssue({ code: 'custom', message: read.problem });
    return z.NEVER;
  }
  if (read.cents < 0) {
    ctx.addIssue({ code: 'custom', message: 'must not be negative' });
    return z.NEVER;
  }
  return read.cents;
});

const preference = z
  .strictObject({
    carrier: oneText.optional().describe('Prefer this carrier.'),
    service: oneText.optional().describe('Prefer this service code.'),
    global_mail: z.literal(true, { error: 'only global_mail: true can be preferred' }).optional().describe('Prefer a consolidated-mail service.'),
    within_percent: z
      .number({ error: 'expected a number' })
      .finite()
      .nonnegative({ error: 'must not be negative' })
      .optional()
      .describe('At most this many percent above the cheapest allowed.'),
    within_aud: aud.optional().describe('At most this many AUD above the cheapest allowed.'),
  })
  .refine((p) => [p.carrier, p.service, p.global_mail].filter((x) => x !== undefined).length === 1, {
    error: 'name exactly one of carrier, service or global_mail',
  });

const rule = z
  .strictObject({
    name: oneText.describe('Shown with every choice the rule makes, and recorded.'),
    when: conditions.optional(),
    allow: selector.optional().describe('Only these carriers or services remain (of those still allowed).'),
    deny: selector.optional().describe('These carriers or services are removed.'),
    prefer: preference.optional(),
    choose: z.literal('cheapest', { error: 'expected "cheapest"' }).optional().describe('Choose the cheapest allowed service.'),
    set: z
      .strictObject({
        insurance: z.boolean({ error: 'expected true or false' }).optional(),
        send_documents: z.boolean({ error: 'expected true or false' }).optional(),
      })
      .optional()
      .describe('Service options to set: insurance (create order), send_documents (accept order).'),
    max_total: aud.optional().describe('The largest total (AUD) an order this rule applies to may cost.'),
  })
  .refine((r) => !(r.prefer !== undefined && r.choose !== undefined), { error: 'a rule either prefers or chooses, not both' });

/** The actions a rule may have: at least one of them (checked by {@link rulesFileProblems}). */
const ACTIONS = ['allow', 'deny', 'prefer', 'choose', 'set', 'max_total'] as const;

/**
 * What the schema cannot say while other fields are wrong: a rule without an action, and two rules
 * of one name. Read from the document as written, so they are reported beside every other problem.
 */
export function rulesFileProblems(data: unknown): Array<{ segments: PropertyKey[]; message: string }> {
  const rules = typeof data === 'object' && data !== null ? (data as { rules?: unknown }).rules : undefined;
  if (!Array.isArray(rules)) return [];
  const out: Array<{ segments: PropertyKey[]; message: string }> = [];
  const seen = new Map<string, number>();
  rules.forEach((r: unknown, i) => {
    if (typeof r !== 'object' || r === null) return;
    const rule = r as Record<string, unknown>;
    if (!ACTIONS.some((a) => a in rule)) out.push({ segments: ['rules', i], message: `a rule needs an action: ${ACTIONS.join(', ')}` });
    if (typeof rule.name !== 'string') return;
    const key = rule.name.trim().toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) out.push({ segments: ['rules', i, 'name'], message: `the name of rule ${first + 1} again; names must differ` });
    else seen.set(key, i);
  });
  return out;
}

/** The schema of a rules file (`{rules: [rule, …]}`). */
export const rulesFile = z.strictObject({
  rules: z.array(rule, { error: 'expected a list of rules' }),
});

/** A rules file as {@link rulesFile} reads it: postcodes as text, amounts in cents. */
type RulesFile = z.output<typeof rulesFile>;
/** One rule as read. */
export type Rule = RulesFile['rules'][number];
/** The conditions of a rule as read. */
export type Conditions = NonNullable<Rule['when']>;

/** The JSON Schema (draft 2020-12) of a rules file, for editors (`shipbook schema rules`). */
export function rulesJsonSchema(): JsonSchema {
  const body = toInputJsonSchema(rulesFile);
  const props = (body.properties ?? {}) as Record<string, unknown>;
  return {
    ...body,
    title: 'shipbook rules file',
    description:
      'Service-selection rules, read in order: each has a name, optional conditions (when) and actions (allow, deny, prefer, choose, set, max_total). Read by shipbook book --rules, shipbook order create --rules and shipbook rules check|test. Generated by "shipbook schema rules".',
    properties: { $schema: { type: 'string', description: 'The JSON Schema of this file, for editors; shipbook ignores it.' }, ...props },
  };
}
