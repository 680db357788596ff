/** `shipbook quote [file]`: prices for a route and packages, from a file or from flags. */
import { hintText } from '../../output/hints.js';
import { Command, Option } from 'commander';
import { quoteServices, quoteServicesSinglePackage } from '../../api/quote.js';
import type { Context, RunSettings } from '../../context.js';
import { UsageError, ValidationError, type InputIssue, cmd } from '../../errors.js';
import { collectWarnings } from '../../input/warnings.js';
import { printWarnings } from '../../output/report.js';
import { parsePackageSpec, parsePlace } from '../../input/flags.js';
import { loadValidated } from '../common/input.js';
import { printQuote, sortServices } from '../../output/quote.js';
import { schemaProblems } from '../../schema/issues.js';
import { quoteRequest, quoteRequestOf, type QuoteRequest } from '../../schema/quote.js';
import { askQuote, missingQuoteParts, type PartialQuote } from '../../prompts/quote.js';
import { withWarnings } from '../common/warnings.js';
import { priceWarnings } from '../../booking/index.js';
import { rememberServiceCodes } from '../common/completion-cache.js';
import { shellArg, type HintShell, type HintStyle } from '../../shell.js';

/** Options of `quote`: a file, or a route and packages from flags. */
interface QuoteOptions {
  file?: string;
  from?: string;
  to?: string;
  packages: string[];
  value?: string;
  insurance?: string;
  /** Use `GET /quote/` (single package only). */
  get?: boolean;
}

/** What the flags give of a quote (parsed; a malformed flag is an error at once). */
function partialQuote(o: QuoteOptions): PartialQuote {
  return {
    ...(o.from ? { from: parsePlace('--from', o.from) } : {}),
    ...(o.to ? { to: parsePlace('--to', o.to) } : {}),
    ...(o.packages.length > 0 ? { packages: o.packages.map(parsePackageSpec) } : {}),
  };
}

/** The flag a field of the quote request came from. */
function flagOf(path: string): string {
  return path.startsWith('collection_') ? '--from' : path.startsWith('delivery_') ? '--to' : path.startsWith('packages') ? '--package' : `--${path}`;
}

/**
 * Where a problem of the route is, in what the user typed: `--to AU:2150:Paramatta` for a flag,
 * `To` for a place answered at the prompts; the field within it (`postcode`, `city`) without the
 * wire name's prefix. Other fields keep their flag.
 */
function typedPlace(path: string, o: Pick<QuoteOptions, 'from' | 'to'>, shell: HintShell): { where: string; field: string } {
  const m = /^(collection|delivery)_(\w+)/.exec(path);
  if (!m) return { where: flagOf(path), field: path };
  const flag = m[1] === 'collection' ? '--from' : '--to';
  const typed = m[1] === 'collection' ? o.from : o.to;
  return { where: typed !== undefined ? `${flag} ${shellArg(typed, shell)}` : m[1] === 'collection' ? 'From' : 'To', field: m[2]! };
}

/**
 * The address checks of a route given by flags (postcode, suburb and state of each place), as
 * issues naming the flag and the place as typed: warnings, or errors under `--strict-addresses`.
 * The message is the same as a file's (one suggestion rule: src/address/checks.ts).
 */
function routeIssues(quote: QuoteRequest, now: Date, o: Pick<QuoteOptions, 'from' | 'to'>, settings: RunSettings): InputIssue[] {
  const strict = settings.addresses.strict;
  return collectWarnings(quote)
    .filter((w) => w.address)
    .map((w) => ({
      path: typedPlace(w.path, o, settings.hints.shell).where,
      message: w.message,
      severity: strict ? ('error' as const) : ('warning' as const),
    }));
}

/** Builds the quote request from flags (and answers, when the missing parts were asked). @throws UsageError / ValidationError (exit 2) */
function quoteFromFlags(o: QuoteOptions, shell: HintShell, asked?: Required<PartialQuote>): QuoteRequest {
  if (!asked && (!o.from || !o.to || o.packages.length === 0)) {
    const missing = missingQuoteParts(partialQuote(o));
    throw new UsageError(`give a quote file, or --from, --to and at least one --package; missing:\n  ${missing.join('\n  ')}`, {
      suggestion:
        'For example: shipbook quote --from AU:2000:Sydney --to AU:3000:Melbourne --package 30x20x15cm:2.5kg (on a terminal, the missing parts are asked).',
    });
  }
  const from = asked?.from ?? parsePlace('--from', o.from!);
  const to = asked?.to ?? parsePlace('--to', o.to!);
  const raw = quoteRequestOf({ from, to, packages: asked?.packages ?? o.packages.map(parsePackageSpec), value: o.value, insurance: o.insurance });
  const parsed = quoteRequest.safeParse(raw);
  if (!parsed.success) {
    throw new ValidationError(
      schemaProblems(parsed.error).map((p) => {
        const { where, field } = typedPlace(p.path, o, shell);
        return { path: where, message: `${field}: ${p.message}`, severity: 'error' as const };
      }),
    );
  }
  return parsed.data;
}

/** Runs `quote`: validates, asks the service, prints services cheapest first. */
async function runQuote(o: QuoteOptions, ctx: Context): Promise<void> {
  const usesFlags = o.from !== undefined || o.to !== undefined || o.packages.length > 0;
  if (o.file && usesFlags) throw new UsageError('give either a quote file or --from/--to/--package, not both');
  const partial = o.file ? undefined : partialQuote(o);
  // No file and not every flag: on a terminal, the missing parts are asked (src/prompts/quote.ts).
  const asked =
    partial && missingQuoteParts(partial).length > 0 && ctx.io.canPrompt
      ? await askQuote({ prompter: ctx.prompter(), say: (t) => ctx.io.err(`${t}\n`), now: () => ctx.now() }, partial)
      : undefined;
  const quote = o.file ? await loadValidated(o.file, 'quote', ctx) : quoteFromFlags(o, ctx.settings.hints.shell, asked);
  if (!o.file) {
    const issues = routeIssues(quote, ctx.now(), o, ctx.settings);
    if (issues.some((i) => i.severity === 'error')) throw new ValidationError(issues);
    printWarnings(ctx.io, issues);
  }
  if (o.get && quote.packages.length !== 1) {
    throw new UsageError(`--get quotes exactly one package (this quote has ${quote.packages.length})`);
  }
  const api = await ctx.api();
  const services = o.get ? await quoteServicesSinglePackage(api, quote, {}, (await ctx.profile()).quoteParams) : await quoteServices(api, quote);
  const warnings = services.flatMap((s) => priceWarnings(`service ${s.code}`, s.price));
  rememberServiceCodes(
    ctx.stateDir(),
    services.map((s) => s.code),
  );
  ctx.output.write(withWarnings(ctx, { services: sortServices(services) }, warnings), () => {
    if (services.length === 0) ctx.io.err('No service is offered for this route and these packages.\n');
    else printQuote(ctx.io, ctx.output.format, services);
  });
  // A pickup from Australia: the day a booking made now would be collected (`--pickup-date next`).
  if (services.length > 0 && quote.collection_country.toUpperCase() === 'AU') {
    const rule = await ctx.usePickupRule({});
    const place = { country: 'AU', postcode: quote.collection_postcode, city: quote.collection_city };
    const [day] = rule.days(place, 1);
    if (day !== undefined)
      ctx.io.err(`Pickup: booked now, it is collected on the next collection day, ${day.words} (${day.date}); book with --pickup-date next\n`);
  }
  // Answered at the prompts: the line that asks the same without a question, for next time.
  if (asked) ctx.io.err(`Quote the same again with: ${quoteCommandLine(quote, o, ctx.settings.hints)}\n`);
}

/** `shipbook quote --from AU:2015:Alexandria --to NZ:6011:Wellington --package 30x20x15cm:2.5kg …` for a quote request. */
function quoteCommandLine(q: QuoteRequest, o: Pick<QuoteOptions, 'value' | 'insurance' | 'get'>, hints: HintStyle): string {
  const place = (country: string, postcode: string, city: string) => `${country}:${postcode}:${city}`;
  const args = [
    'quote',
    '--from',
    place(q.collection_country, q.collection_postcode, q.collection_city),
    '--to',
    place(q.delivery_country, q.delivery_postcode, q.delivery_city),
  ];
  for (const p of q.packages) {
    const [size, mass] = p.unit === 'in' ? ['in', 'lb'] : ['cm', 'kg'];
    args.push('--package', `${p.length}x${p.width}x${p.height}${size}:${p.weight}${mass}`);
  }
  if (o.value !== undefined) args.push('--value', o.value);
  if (o.insurance !== undefined) args.push('--insurance', o.insurance);
  if (o.get) args.push('--get');
  return hintText([cmd(...args)], hints);
}

/** The `quote` command. */
export function quoteCommand(ctx: Context): Command {
  return new Command('quote')
    .summary('get prices for a route and packages')
    .description(
      'Ask for price quotes (POST /quote/) from a JSON or YAML file, or from flags.\n' +
        'Packages are LxWxH<cm|in>:<weight><kg|lb>; cm goes with kg, in with lb. Prices in AUD.',
    )
    .argument('[file]', 'quote request file (JSON or YAML, "-" for standard input); without file or flags on a terminal: asked')
    .option('--from <place>', 'collection as COUNTRY:POSTCODE:CITY, e.g. AU:2000:Sydney')
    .option('--to <place>', 'delivery as COUNTRY:POSTCODE:CITY, e.g. AU:3000:Melbourne')
    .option('--package <spec>', 'a package, e.g. 30x20x15cm:2.5kg (repeat for more)', (v: string, all: string[] | undefined) => [...(all ?? []), v])
    .option('--value <aud>', 'value of the goods in AUD')
    .option('--insurance <aud>', 'amount to insure in AUD')
    .addOption(new Option('--get', 'use GET /quote/ (single package only)'))
    .addHelpText(
      'after',
      '\nExamples:\n  shipbook quote fixtures/quotes/syd-mel-single.yaml\n  shipbook quote --from AU:2000:Sydney --to AU:3000:Melbourne --package 30x20x15cm:2.5kg\n',
    )
    .action(async (file: string | undefined, flags: Omit<QuoteOptions, 'file' | 'packages'> & { package?: string[] }) => {
      await runQuote({ ...flags, file, packages: flags.package ?? [] }, ctx);
    });
}
