/** `shipbook rules check <file>`: reads a rules file and reports every problem at file:line:col. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { loadRules } from '../../booking/index.js';

/**
 * Checks the rules file and lists its rules (name and line) in the run's format.
 * @throws ValidationError (exit 2) with every problem of the file
 */
async function runRulesCheck(file: string, ctx: Context): Promise<void> {
  const set = await loadRules(file);
  const rules = set.rules.map((r, i) => ({ name: r.name, line: set.lines[i] }));
  ctx.output.write({ file, valid: true, rules }, () => {
    for (const r of rules) ctx.io.out(`${file}:${r.line}\t${r.name}\n`);
    ctx.io.err(`${file}: ${rules.length} rule${rules.length === 1 ? '' : 's'}, no problems\n`);
  });
}

/** The `rules check` command. */
export function rulesCheckCommand(ctx: Context): Command {
  return new Command('check')
    .summary('check a rules file: every problem with its line and column')
    .description('Read a rules file (YAML or JSON) and report every problem at file:line:col (exit 2); when it is right, list its rules in order.')
    .argument('<file>', 'the rules file')
    .addHelpText('after', '\nExamples:\n  shipbook rules check fixtures/rules/shipping.yaml\n  shipbook rules check fixtures/rules/shipping.yaml --json\n')
    .action(async (file: string) => runRulesCheck(file, ctx));
}
