/**
 * `shipbook rules test <rules> <inputs…>`: the rules tried with no network, over case files
 * (`cases:` with `expect:`) and order files, each quoted from a quote answer in a file or from the
 * sandbox's own price list (in-process, the prices a booking against the sandbox gets). Each
 * order's choice and reason is printed; a case whose `expect:` disagrees makes the run exit 8.
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { ShipbookError, UsageError } from '../../errors.js';
import { decisionRecord, loadQuoteFile, loadRules, ratedEntry, runRuleCases, type CaseResult, type PriceList } from '../../booking/index.js';
import { quoteResult } from '../../schema/quote.js';
import { sandboxQuoteResult } from '../../sandbox/price-list.js';

/** Options of `rules test`. */
interface RulesTestOptions {
  rules: string;
  inputs: string[];
  /** `--quote FILE`: a quote answer every order without its own is decided from. */
  quote?: string;
}

/** The sandbox's price list, in-process. @throws UsageError (exit 2) for packages the sandbox does not price */
const sandboxPrices: PriceList = (q) => {
  const answer = sandboxQuoteResult(q);
  if ('problem' in answer) throw new UsageError(`the sandbox does not price this order: ${answer.problem}`);
  return quoteResult.parse(JSON.parse(answer.json)).services.map(ratedEntry);
};

/** `ok`, `FAIL`, or `-` when nothing was expected. */
const verdict = (c: CaseResult) => (c.expect === undefined ? '-' : c.mismatch === undefined ? 'ok' : 'FAIL');

/** One line of a case: verdict, name, service(s), and the reason (or the disagreement). */
function caseLine(c: CaseResult): string {
  const services = c.decision.shipments.map((s) => (s.ok ? s.chosen.code : 'none')).join(',');
  const why = c.mismatch ?? c.decision.shipments.map((s) => s.reason).join(' | ');
  return `${verdict(c)}\t${c.name}\t${services}\t${why}\n`;
}

/**
 * Runs the cases and prints each one (a line, or `{rules, cases, summary}` in a machine format).
 * @throws ValidationError (exit 2) for a bad rules file, case file, order or quote file;
 *   ShipbookError `rules_disagree` (exit 8) when an expectation disagrees
 */
async function runRulesTest(o: RulesTestOptions, ctx: Context): Promise<void> {
  const rules = await loadRules(o.rules);
  const profile = await ctx.profile();
  const quote = o.quote !== undefined ? await loadQuoteFile(o.quote) : undefined;
  const results = await runRuleCases(rules, o.inputs, {
    ...(profile.senders ? { senders: profile.senders } : {}),
    profile: profile.name,
    priceList: sandboxPrices,
    ...(quote ? { quote } : {}),
  });
  const failed = results.filter((c) => c.mismatch !== undefined);
  const expected = results.filter((c) => c.expect !== undefined).length;
  const summary = { orders: results.length, expected, agree: expected - failed.length, disagree: failed.length };
  ctx.output.write(
    {
      rules: o.rules,
      cases: results.map((c) => ({
        name: c.name,
        at: c.at,
        ...(c.expect ? { expect: c.expect, agrees: c.mismatch === undefined } : {}),
        ...(c.mismatch !== undefined ? { mismatch: c.mismatch } : {}),
        shipments: c.decision.shipments.map(decisionRecord),
      })),
      summary,
    },
    () => {
      for (const c of results) ctx.io.out(caseLine(c));
    },
  );
  const line = `${results.length} order${results.length === 1 ? '' : 's'} tried under ${o.rules}; ${expected} with an expectation: ${summary.agree} agree, ${summary.disagree} disagree`;
  if (failed.length === 0) {
    ctx.io.err(`${line}\n`);
    return;
  }
  throw new ShipbookError('rules_disagree', `${line}: ${failed.map((c) => `${c.at} "${c.name}"`).join(', ')}`, 'incomplete', {
    suggestion: 'Each FAIL line above says what was expected and what the rules chose, with the reason.',
  });
}

/** The `rules test` command. */
export function rulesTestCommand(ctx: Context): Command {
  return new Command('test')
    .summary('try rules offline over case files and orders: each choice and its reason')
    .description(
      'Apply a rules file to orders with no network: case files (cases: each with an order, an optional quote answer and expect:) ' +
        'and order files. Orders without a quote are priced with the sandbox price list, in-process: the prices a booking against ' +
        "the sandbox gets. Prints each order's service and reason; exit 8 when a case's expect: disagrees (the line says FAIL and why).",
    )
    .argument('<rules>', 'the rules file')
    .argument('<inputs...>', 'case files (cases:) and order files')
    .option('--quote <file>', "a quote answer (the service's JSON, or a list of services) for the orders that have none of their own")
    .addHelpText(
      'after',
      '\nExamples:\n  shipbook rules test fixtures/rules/shipping.yaml fixtures/rules/cases.yaml\n  shipbook rules test fixtures/rules/shipping.yaml fixtures/orders/domestic-syd-mel.yaml --json\n',
    )
    .action(async (rules: string, inputs: string[], flags: { quote?: string }) =>
      runRulesTest({ rules, inputs, ...(flags.quote !== undefined ? { quote: flags.quote } : {}) }, ctx),
    );
}
