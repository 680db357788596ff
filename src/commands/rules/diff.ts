/**
 * `shipbook rules diff OLD NEW`: what a change of rules would have cost, from the ledger. Every
 * order the rules decided (recorded with its quote and facts on its create) is decided again under
 * both rule sets from the quote recorded at booking; nothing is sent (offline).
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { loadRules, rulesDiff, type RulesDiff } from '../../booking/index.js';
import { parseWhen } from '../history/index.js';

/** Flags of `rules diff`. */
interface RulesDiffOptions {
  old: string;
  new: string;
  since?: string;
}

/** The table of a diff: one line per service, then the total; columns aligned. */
function diffTable(d: RulesDiff): string {
  const rows = [
    ['service', 'carrier', 'old', 'old AUD', 'new', 'new AUD', 'change AUD'],
    ...d.services.map((s) => [s.service, s.carrier, String(s.old.shipments), s.old.total, String(s.new.shipments), s.new.total, s.change]),
    [
      'total',
      '',
      String(d.services.reduce((n, s) => n + s.old.shipments, 0)),
      d.total.old,
      String(d.services.reduce((n, s) => n + s.new.shipments, 0)),
      d.total.new,
      d.total.change,
    ],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  // Text columns to the left, counts and amounts to the right.
  return rows
    .map(
      (r) =>
        r
          .map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
          .join('  ')
          .trimEnd() + '\n',
    )
    .join('');
}

/**
 * Re-prices the ledger's orders (created since `--since`) under both rule sets and prints, per
 * service and in total, the shipments and what they cost under each (a table, or the
 * {@link RulesDiff} in a machine format), then what changed on stderr.
 * @throws ValidationError (exit 2) for a rules file with problems; UsageError (exit 2) for a `--since` that cannot be read
 */
async function runRulesDiff(o: RulesDiffOptions, ctx: Context): Promise<void> {
  const since = o.since !== undefined ? parseWhen('--since', o.since, ctx.now()) : undefined;
  const [oldRules, newRules] = [await loadRules(o.old), await loadRules(o.new)];
  const ledger = await ctx.ledger('query');
  const d = await rulesDiff(ledger.records({}), oldRules, newRules, since);
  ctx.output.write(d, () => {
    if (d.shipments > 0) ctx.io.out(diffTable(d));
    for (const c of d.changed) {
      const side = (s: RulesDiff['changed'][number]['old']) => ('refused' in s ? `refused (${s.refused})` : `${s.service} ${s.total}`);
      ctx.io.err(
        `${c.order_id}${c.shipment > 1 || d.changed.some((x) => x.order_id === c.order_id && x.shipment > 1) ? ` shipment ${c.shipment}` : ''}: ${side(c.old)} → ${side(c.new)}\n`,
      );
    }
  });
  const window = d.since !== undefined ? ` created since ${d.since}` : '';
  const skipped = d.skipped > 0 ? `; ${d.skipped} recorded without the facts to decide again, left out` : '';
  const refused = d.refused > 0 ? `; ${d.refused} refused by one of the rule sets, left out of the totals` : '';
  ctx.io.err(
    d.orders === 0
      ? `No orders decided by rules${window} in the ledger${skipped}.\n`
      : `${d.orders} order${d.orders === 1 ? '' : 's'} (${d.shipments} shipment${d.shipments === 1 ? '' : 's'})${window}, priced from the quotes recorded at booking: ` +
          `${o.old} ${d.total.old} AUD, ${o.new} ${d.total.new} AUD, change ${d.total.change} AUD; ${d.changed.length} shipment${d.changed.length === 1 ? '' : 's'} would change${refused}${skipped}\n`,
  );
}

/** The `rules diff` command. */
export function rulesDiffCommand(ctx: Context): Command {
  return new Command('diff')
    .summary("what a change of rules would have cost: the ledger's orders re-priced under both")
    .description(
      "Decide again, under the rules files OLD and NEW, every order the ledger recorded with the rules' choice (the quote the service " +
        'answered at booking, with every price, and the facts the rules saw), with no network. Prints per service and in total the ' +
        'shipments and their cost under each, and the change (NEW − OLD, AUD); stderr lists each shipment whose service would change. ' +
        'A shipment one of the rule sets refuses is listed and left out of both totals.',
    )
    .argument('<old>', 'the rules file as it is')
    .argument('<new>', 'the rules file as it would be')
    .option('--since <when>', 'orders created since: a date (2026-11-26), an ISO time, or a duration back from now (7d, 12h)')
    .addHelpText(
      'after',
      '\nExamples:\n  shipbook rules diff fixtures/rules/shipping.yaml fixtures/rules/shipping-cheapest.yaml --since 7d\n' +
        '  shipbook rules diff fixtures/rules/shipping.yaml fixtures/rules/shipping-cheapest.yaml --json\n',
    )
    .action(async (old: string, next: string, flags: { since?: string }) =>
      runRulesDiff({ old, new: next, ...(flags.since !== undefined ? { since: flags.since } : {}) }, ctx),
    );
}
