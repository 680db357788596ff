/** `shipbook rules …`: check service-selection rules and try them offline. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { rulesCheckCommand } from './check.js';
import { rulesTestCommand } from './test.js';
import { rulesDiffCommand } from './diff.js';

/** The `rules` command group. */
export function rulesCommand(ctx: Context): Command {
  return new Command('rules')
    .summary('service-selection rules: check them, try them offline')
    .description(
      'A rules file (YAML or JSON) chooses the service of orders that name none, and checks those that do: ' +
        'rules read in order, with conditions on the route, weight, value and tags, and actions allow, deny, prefer, choose, set and max_total ' +
        '(see docs/rules.md; "shipbook schema rules" prints its JSON Schema). book and order create use it with --rules FILE, ' +
        'the profile setting rules, or SHIPBOOK_RULES.',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  shipbook rules check fixtures/rules/shipping.yaml\n  shipbook rules test fixtures/rules/shipping.yaml fixtures/rules/cases.yaml\n  shipbook rules diff fixtures/rules/shipping.yaml fixtures/rules/shipping-cheapest.yaml --since 7d\n',
    )
    .addCommand(rulesCheckCommand(ctx))
    .addCommand(rulesTestCommand(ctx))
    .addCommand(rulesDiffCommand(ctx));
}
