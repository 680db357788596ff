/**
 * `shipbook config sender set <name> <file> | list | show <name> | remove <name>`: sender
 * addresses saved in the active profile. A sender is the collection address of an order
 * (interface document, "Address object": first and last name, optional company, email, phone,
 * country, postcode, city, 1–3 address lines of at most 35 characters) without the pickup window,
 * which belongs to each booking.
 */
import { Command } from 'commander';
import { stringify } from 'yaml';
import { BUILTIN_PROFILE, nameProblem, senderAddress, setStoredSenders, storedSenders, type SenderAddress } from '../../config/schema.js';
import { documentWarnings } from '../../input/validate.js';
import { showWarnings } from '../common/input.js';
import type { Context } from '../../context.js';
import { UsageError, ValidationError, cmd, placeholder } from '../../errors.js';
import { hintText } from '../../output/hints.js';
import { loadDocument } from '../../input/load.js';
import { validateDocument } from '../../input/problems.js';
import { paint } from '../../output/style.js';
import { printTable } from '../../output/table.js';
import { activeProfile, openStore, unknownProfile, warnOn, writableProfile } from './shared.js';
import type { ProfileChoice } from '../../config/resolve.js';

function checkSenderName(name: string): void {
  const problem = nameProblem(name, 'sender');
  if (problem) throw new UsageError(problem);
}

/**
 * The profile whose senders a change goes to: a stored profile (created if needed), or the
 * built-in one, whose other settings cannot change (its senders are kept apart from the stored
 * profiles).
 * @throws UsageError (2) for an invalid profile name
 */
function senderProfile(choice: ProfileChoice, what: string): string {
  return choice.name === BUILTIN_PROFILE ? BUILTIN_PROFILE : writableProfile(choice, what);
}

/** One line for a sender: `Priya Raman, Harbour Homewares Pty Ltd, Unit 4, 18 Bourke Road, Alexandria 2015 AU`. */
function senderSummary(a: SenderAddress): string {
  const lines = Array.isArray(a.address_lines) ? a.address_lines.filter((l) => typeof l === 'string' && l.trim() !== '') : [];
  return [
    `${String(a.first_name ?? '')} ${String(a.last_name ?? '')}`.trim(),
    a.company,
    ...lines,
    `${String(a.city ?? '')} ${String(a.postcode ?? '')} ${String(a.country ?? '')}`.trim(),
  ]
    .filter((part) => typeof part === 'string' && part !== '')
    .join(', ');
}

/**
 * Runs `config sender set <name> <file>`: validates the address file (JSON or YAML, `-` for
 * stdin) and saves it under `name` in the active profile, replacing a sender of that name.
 * @throws ValidationError (2) with every problem of the file; UsageError (2) for a bad name or the built-in profile.
 */
async function runSenderSet(name: string, file: string, ctx: Context): Promise<void> {
  checkSenderName(name);
  const opened = openStore(ctx);
  const profile = senderProfile(activeProfile(ctx, opened.snapshot.data), `config sender set ${name} ${file}`);
  const doc = await loadDocument(file, ctx.io.stdin);
  let address: SenderAddress;
  try {
    address = validateDocument(doc, senderAddress) as SenderAddress;
  } catch (err) {
    // Saving sends nothing: say what did not happen here.
    if (!(err instanceof ValidationError)) throw err;
    const errors = err.issues.filter((i) => i.severity === 'error').length;
    throw new ValidationError(err.issues, `${errors} problem${errors === 1 ? '' : 's'} found; nothing was saved`, { suggestion: err.suggestion });
  }
  // Shown like every command that reads a file (an address has no pickup date or package today).
  showWarnings(ctx, { value: address, warnings: documentWarnings(doc, address, [], ctx.settings.addresses) });
  const replaced = storedSenders(opened.snapshot.data, profile)?.[name] !== undefined;
  await opened.store.update((d) => setStoredSenders(d, profile, { ...(storedSenders(d, profile) ?? {}), [name]: address }), warnOn(ctx));
  ctx.io.err(`${paint(ctx.io, 'green', '✔')} ${replaced ? 'replaced' : 'saved'} sender "${name}" in profile "${profile}": ${senderSummary(address)}\n`);
}

/** Runs `config sender list`: name and one-line address of every sender of the active profile. */
function runSenderList(ctx: Context): void {
  const { snapshot } = openStore(ctx);
  const choice = activeProfile(ctx, snapshot.data);
  if (choice.name !== BUILTIN_PROFILE && !snapshot.data.profiles?.[choice.name]) throw unknownProfile(choice, snapshot.data);
  const senders = storedSenders(snapshot.data, choice.name) ?? {};
  const names = Object.keys(senders).sort();
  if (ctx.json) return ctx.output.data({ profile: choice.name, senders });
  if (names.length === 0) {
    ctx.io.err(
      `No sender is saved in profile "${choice.name}". Save one with: ${hintText([cmd('config', 'sender', 'set', placeholder('name'), placeholder('address-file'))], ctx.settings.hints)}\n`,
    );
    return;
  }
  printTable(
    ctx.io,
    ctx.output.format,
    [{ header: 'NAME' }, { header: 'ADDRESS' }],
    names.map((n) => [n, senderSummary(senders[n]!)]),
  );
}

/** Runs `config sender show <name>`: the saved address, as YAML (as data in a machine format: `--json`, `--output yaml|ndjson`). */
function runSenderShow(name: string, ctx: Context): void {
  const { snapshot } = openStore(ctx);
  const choice = activeProfile(ctx, snapshot.data);
  const sender = storedSenders(snapshot.data, choice.name)?.[name];
  if (!sender)
    throw new UsageError(`no sender named "${name}" in profile "${choice.name}"`, { suggestion: ['List them with: ', cmd('config', 'sender', 'list')] });
  if (ctx.json) return ctx.output.data(sender);
  ctx.io.out(stringify(sender));
}

/** Runs `config sender remove <name>`. @throws UsageError (2) when there is no such sender. */
async function runSenderRemove(name: string, ctx: Context): Promise<void> {
  const opened = openStore(ctx);
  const choice = activeProfile(ctx, opened.snapshot.data);
  const profile = senderProfile(choice, `config sender remove ${name}`);
  if (!storedSenders(opened.snapshot.data, profile)?.[name]) {
    throw new UsageError(`no sender named "${name}" in profile "${profile}"`, { suggestion: ['List them with: ', cmd('config', 'sender', 'list')] });
  }
  await opened.store.update((d) => {
    const { [name]: _removed, ...rest } = storedSenders(d, profile) ?? {};
    setStoredSenders(d, profile, rest);
  }, warnOn(ctx));
  ctx.io.err(`${paint(ctx.io, 'green', '✔')} removed sender "${name}" from profile "${profile}"\n`);
}

/** The `config sender` group. */
export function configSenderCommand(ctx: Context): Command {
  return new Command('sender')
    .summary('saved sender addresses of the profile')
    .addCommand(
      new Command('set')
        .summary('save an address file (JSON or YAML) as a sender')
        .argument('<name>', 'sender name, e.g. warehouse')
        .argument('<file>', 'address file: first_name, last_name, company, email, phone, country, postcode, city, address_lines ("-" for stdin)')
        .addHelpText('after', '\nExample:\n  shipbook --profile production config sender set warehouse warehouse.yaml\n')
        .action(async (name: string, file: string) => runSenderSet(name, file, ctx)),
    )
    .addCommand(new Command('list').summary('list the saved senders').action(() => runSenderList(ctx)))
    .addCommand(
      new Command('show')
        .summary('print a saved sender (YAML; JSON with --json)')
        .argument('<name>', 'sender name')
        .action((name: string) => runSenderShow(name, ctx)),
    )
    .addCommand(
      new Command('remove')
        .summary('remove a saved sender')
        .argument('<name>', 'sender name')
        .action(async (name: string) => runSenderRemove(name, ctx)),
    );
}
