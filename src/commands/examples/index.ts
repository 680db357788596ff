/**
 * `shipbook examples`: the example input files that every `--help` example names
 * (`fixtures/orders/domestic-syd-mel.yaml` …), shipped inside shipbook itself, so that a user who
 * installed it (from npm, as a single executable or a Debian package) has them too:
 * - `shipbook examples` lists them, with the first line of each file's own comment;
 * - `shipbook examples <file>` prints one (`> order.yaml` to start a file of your own);
 * - `shipbook examples --copy [dir]` writes them all under `<dir>/fixtures/`, so that every help
 *   example runs as printed from `<dir>`.
 * The files are built into `dist/examples.json` (scripts/build.mjs) and read by this command only.
 */
import { hintText } from '../../output/hints.js';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { makeDirectory } from '../../dirs.js';
import { ShipbookError, UsageError, cmd } from '../../errors.js';
import { printTable } from '../../output/table.js';
import { shellArg } from '../../shell.js';

/** The example files, by their path relative to a directory where the help examples run (`fixtures/orders/…`). */
function exampleFiles(): Record<string, string> {
  const require = createRequire(import.meta.url);
  return (require('./examples.json') as { files: Record<string, string> }).files;
}

/**
 * What a file is for: the first sentence of its leading comment (`# …` in YAML and CSV maps; an
 * editor's `yaml-language-server: $schema=…` line is not a description and is skipped), cut
 * between words after 120 characters, else its kind by folder.
 */
function describe(path: string, text: string): string {
  const comment: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^#\s?(.*)$/.exec(line);
    if (!m) break;
    if (/^\s*yaml-language-server:/.test(m[1]!) || /\$schema=/.test(m[1]!)) continue;
    comment.push(m[1]!.trim());
  }
  const said = comment.join(' ').replace(/\s+/g, ' ').trim();
  if (said !== '') {
    // The first sentence, at most about a line of a wide terminal (then cut between words).
    const sentence = /^(.*?[.!?])(?:\s|$)/.exec(said)?.[1] ?? said;
    return sentence.length <= 120 ? sentence : `${sentence.slice(0, 120).replace(/\s+\S*$/, '')} …`;
  }
  if (text.startsWith('data:image/')) return 'an image (a signature drawn on the customs papers: shipbook documents --signature)';
  if (path.endsWith('/catalogue.csv'))
    return 'a product catalogue: the tariff (HS) code and origin of items, for the customs papers (shipbook documents --catalogue)';
  if (path.endsWith('/rules.schema.json')) return 'the JSON Schema of a rules file (as shipbook schema rules prints it)';
  const folder = path.split('/')[1] ?? '';
  const kinds: Record<string, string> = {
    batch: 'orders, one JSON document per line (a batch for shipbook book)',
    csv: 'a spreadsheet of orders, one row per package (shipbook book)',
    schemas: 'the JSON Schema of an input kind (as shipbook schema prints it)',
    quotes: 'a quote request (shipbook quote)',
    invalid: 'PLANTED MISTAKES, for shipbook validate to report',
    api: 'a request body for shipbook api (--input)',
  };
  return kinds[folder] ?? '';
}

/** Options of `examples`. */
interface ExamplesOptions {
  /** `--copy [dir]`: true for the working directory. */
  copy?: string | true;
  /** `--force`: replace files that differ. */
  force?: boolean;
}

/**
 * Writes every example file under `dir` (as `dir/fixtures/…`). A file already there with the same
 * text is left as it is; one with other text is replaced only with `force`.
 * @returns how many files were written and how many were already there
 * @throws ShipbookError (exit 2) naming the files that differ, without `force`, before writing anything
 */
/** The bytes of an example file: an image is kept as a data URL (see scripts/build.mjs), the rest as text. */
function bytesOf(text: string): Buffer {
  const image = /^data:image\/(?:png|jpeg);base64,(.*)$/s.exec(text);
  return image ? Buffer.from(image[1]!, 'base64') : Buffer.from(text, 'utf8');
}

function copyExamples(files: Record<string, string>, dir: string, force: boolean): { written: number; same: number } {
  const differ: string[] = [];
  let same = 0;
  for (const [path, text] of Object.entries(files)) {
    const target = join(dir, path);
    if (!existsSync(target)) continue;
    if (readFileSync(target).equals(bytesOf(text))) same++;
    else differ.push(target);
  }
  if (differ.length > 0 && !force)
    throw new ShipbookError(
      'examples_differ',
      `${differ.length} file(s) under ${join(dir, 'fixtures')} differ from shipbook's examples (${differ.slice(0, 3).join(', ')}${differ.length > 3 ? ', …' : ''}); nothing was copied`,
      'input',
      { suggestion: `Copy them into another directory (shipbook examples --copy <dir>), or replace them with --force.` },
    );
  let written = 0;
  for (const [path, text] of Object.entries(files)) {
    const target = join(dir, path);
    if (existsSync(target) && readFileSync(target).equals(bytesOf(text))) continue;
    makeDirectory(dirname(target));
    writeFileSync(target, bytesOf(text));
    written++;
  }
  return { written, same };
}

/** Runs `examples`: lists, prints one, or copies. @throws UsageError (exit 2) for an unknown file */
function runExamples(file: string | undefined, o: ExamplesOptions, ctx: Context): void {
  const files = exampleFiles();
  if (file !== undefined) {
    const wanted = file.replace(/^\.\//, '');
    const path = [wanted, `fixtures/${wanted}`].find((p) => files[p] !== undefined);
    if (path === undefined) {
      const name = wanted.split('/').pop() ?? wanted;
      const like = Object.keys(files).filter((p) => p.includes(name));
      throw new UsageError(`no example file ${file}`, {
        suggestion: like.length > 0 ? `Did you mean ${like.slice(0, 3).join(', ')}? ` : 'shipbook examples lists them.',
      });
    }
    const text = files[path]!;
    if (text.startsWith('data:image/')) ctx.io.stdout.write(bytesOf(text));
    else ctx.io.out(text);
    return;
  }
  if (o.copy !== undefined) {
    const dir = o.copy === true ? '.' : o.copy;
    const { written, same } = copyExamples(files, resolve(dir), o.force === true);
    const into = join(dir, 'fixtures');
    ctx.output.write({ directory: resolve(into), written, unchanged: same }, () => {
      ctx.io.out(`copied ${written} example file(s) into ${into}${same > 0 ? ` (${same} already there)` : ''}\n`);
      const cd = dir === '.' ? '' : `cd ${shellArg(dir, ctx.settings.hints.shell)} && `;
      ctx.io.err(`Every --help example runs from there, e.g.: ${cd}shipbook book fixtures/orders/domestic-syd-mel.yaml --dry-run\n`);
    });
    return;
  }
  const rows = Object.entries(files).map(([path, text]) => ({ file: path, describes: describe(path, text) }));
  ctx.output.write({ files: rows }, () => {
    if (ctx.output.format === 'table') {
      printTable(
        ctx.io,
        ctx.output.format,
        [{ header: 'FILE', atomic: true }, { header: 'WHAT IT IS' }],
        rows.map((r) => [r.file, r.describes]),
      );
      ctx.io.err(
        `Print one with "${hintText([cmd('examples')], ctx.settings.hints)} <file>"; put them all in this directory with "${hintText([cmd('examples', '--copy')], ctx.settings.hints)}".\n`,
      );
    } else ctx.io.out(rows.map((r) => `${r.file}\t${r.describes}`).join('\n') + '\n');
  });
}

/** The `examples` command. */
export function examplesCommand(ctx: Context): Command {
  return new Command('examples')
    .summary('the example files that the help examples use: list, print or copy them')
    .description(
      'The example input files that every --help example names (fixtures/orders/…),\n' +
        'shipped inside shipbook. Lists them; prints one; or copies them all into\n' +
        '<dir>/fixtures/ (--copy), so every help example runs as printed from <dir>.\n' +
        'A file already there with other text is replaced only with --force.',
    )
    .argument('[file]', 'print this example file (e.g. fixtures/orders/domestic-syd-mel.yaml)')
    .option('--copy [dir]', 'copy every example into <dir>/fixtures/ (default: this directory)')
    .option('--force', 'with --copy: replace files that differ from the examples')
    .addHelpText(
      'after',
      '\nExamples:\n  shipbook examples\n  shipbook examples fixtures/orders/domestic-syd-mel.yaml > my-order.yaml\n  shipbook examples --copy shipbook-examples\n',
    )
    .action((file: string | undefined, o: ExamplesOptions) => runExamples(file, o, ctx));
}
