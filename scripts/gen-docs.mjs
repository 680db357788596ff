#!/usr/bin/env node
// Writes the command reference (docs/reference/*.md) and the man pages (man/*.1) from the command
// tree of the built program (dist/main.cjs, `npm run build` first; `npm run docs` does both), so
// that `shipbook … --help` and the manual cannot disagree: every command, argument, option and
// example comes from the same commander objects the help is printed from, through commander's own
// Help (terms, descriptions with their choices and defaults). A page per top-level command, with
// every subcommand on it; docs/reference/README.md and shipbook(1) hold the global options and the
// list of commands; package.json's `man` field is kept listing every page. test/e2e/reference.test.ts
// regenerates the files into a scratch directory and fails when the committed ones differ.
//
// Usage: node scripts/gen-docs.mjs [--out <dir>]   (default: the repository; writes <dir>/docs/reference and <dir>/man)
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';

const root = resolve(import.meta.dirname, '..');
const outArg = process.argv.indexOf('--out');
const out = outArg === -1 ? root : resolve(process.argv[outArg + 1]);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const { loadBundle } = createRequire(import.meta.url)('../bin/code-cache.js');

// ---------------------------------------------------------------------------------------------
// The command tree, read from the program itself

let captured = '';
const sink = new Writable({ write: (_chunk, _enc, done) => done() });
/** Streams of a run with no terminal and no colour; what the program prints is captured. */
const io = {
  stdin: undefined,
  stdout: sink,
  stderr: sink,
  env: { NO_COLOR: '1' },
  color: false,
  stdoutIsTTY: false,
  stderrIsTTY: false,
  canPrompt: false,
  out: (t) => void (captured += t),
  err: (t) => void (captured += t),
};

const bundle = loadBundle(join(root, 'dist', 'main.cjs'), [], { NODE_DISABLE_COMPILE_CACHE: '1' });
let ctx;
// A run that only prints the version hands over the context the program is built with.
await bundle.main(['node', 'shipbook', '--version'], io, { onContext: (c) => (ctx = c) });
const program = await bundle.buildProgram(ctx, {});

/** Everything one command's help shows, as data. */
function describe(cmd, path) {
  const help = cmd.createHelp();
  const info = cmd.helpInformation();
  captured = '';
  cmd.outputHelp();
  const full = captured;
  const at = full.indexOf(info);
  const after = at === -1 ? '' : full.slice(at + info.length);
  return {
    path,
    name: ['shipbook', ...path].join(' '),
    usage: help.commandUsage(cmd),
    summary: cmd.summary() || help.commandDescription(cmd).split('\n')[0],
    description: help.commandDescription(cmd),
    arguments: help.visibleArguments(cmd).map((a) => ({ term: help.argumentTerm(a), description: help.argumentDescription(a) })),
    // Every command takes -h, --help: the reference says so once.
    options: help
      .visibleOptions(cmd)
      .filter((o) => path.length === 0 || o.long !== '--help')
      .map((o) => ({ term: help.optionTerm(o), description: help.optionDescription(o) })),
    sections: sectionsOf(after),
    commands: help
      .visibleCommands(cmd)
      .filter((c) => c.name() !== 'help' || path.length === 0)
      .map((c) => describe(c, [...path, c.name()])),
  };
}

/** The text after a command's help (examples, notes), as titled sections: `{title, lines}`. */
function sectionsOf(text) {
  const sections = [];
  let current;
  for (const line of text.replace(/\s+$/, '').split('\n')) {
    const title = /^(Global flags for this command)\b.*:$/.exec(line) ?? /^(\S[^:]*):$/.exec(line);
    if (title) {
      current = { title: title[1], lines: [] };
      sections.push(current);
    } else if (current) current.lines.push(line);
    else if (line.trim() !== '') {
      current = { title: '', lines: [line] };
      sections.push(current);
    }
  }
  for (const s of sections) {
    while (s.lines.length > 0 && s.lines.at(-1).trim() === '') s.lines.pop();
    while (s.lines.length > 0 && s.lines[0].trim() === '') s.lines.shift();
    const indent = Math.min(...s.lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)[0].length));
    s.lines = s.lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
  }
  // The global flags that matter to a command: their names on one line (each is described once,
  // with the root's options on the index page).
  for (const s of sections) {
    if (!/^Global flags for this command/.test(s.title)) continue;
    const names = s.lines.map((l) => /^(?:-\w, )?(--[\w-]+)/.exec(l)?.[1]).filter((n) => n !== undefined);
    s.title = 'Global flags';
    s.lines = [`${names.join(', ')} (every global flag: shipbook help flags)`];
  }
  // Examples given in two places (the command's own and the shared ones) are shown as one list.
  const merged = [];
  for (const s of sections.filter((x) => x.lines.length > 0)) {
    const same = merged.find((m) => m.title === s.title && s.title !== '');
    if (same) same.lines.push(...s.lines.filter((l) => !same.lines.includes(l)));
    else merged.push(s);
  }
  return merged;
}

const top = describe(program, []);
const groups = top.commands;

// A section every command prints alike (the global flags, say) is shown once, on the index page.
const everyCommand = [];
const walkAll = (c) => c.commands.forEach((s) => (everyCommand.push(s), walkAll(s)));
walkAll(top);
const key = (s) => JSON.stringify(s);
const shared = (everyCommand[0]?.sections ?? []).filter((s) => everyCommand.every((c) => c.sections.some((x) => key(x) === key(s))));
for (const c of everyCommand) c.sections = c.sections.filter((s) => !shared.some((x) => key(x) === key(s)));
const sharedSections = shared.filter((s) => !top.sections.some((x) => key(x) === key(s)));

// ---------------------------------------------------------------------------------------------
// Markdown

/** Text for a Markdown paragraph or table cell: `<`, `>`, `|`, `*` and backslashes kept as written (backticks mark code in help too). */
const md = (text) => text.replace(/([\\*<>|])/g, '\\$1');
/** An option's or argument's term as code in a table cell (GitHub splits cells at `|` even in code). */
const code = (term) => `\`${term.replace(/\|/g, '\\|')}\``;
const cell = (text) => md(text).replace(/\n+/g, ' ');
const fence = (lang, lines) => ['```' + lang, ...lines, '```'];

function mdCommand(c, level) {
  const h = '#'.repeat(level);
  const lines = [`${h} ${c.name}`, '', ...fence('text', [`Usage: ${c.usage}`]), '', md(c.description), ''];
  if (c.arguments.length > 0)
    lines.push('| argument | description |', '|---|---|', ...c.arguments.map((a) => `| ${code(a.term)} | ${cell(a.description)} |`), '');
  if (c.options.length > 0) lines.push('| option | description |', '|---|---|', ...c.options.map((o) => `| ${code(o.term)} | ${cell(o.description)} |`), '');
  if (c.commands.length > 0)
    lines.push('| command | summary |', '|---|---|', ...c.commands.map((s) => `| [\`${s.name}\`](#${anchor(s.name)}) | ${cell(s.summary)} |`), '');
  for (const s of c.sections) {
    if (s.title !== '') lines.push(`${s.title}:`, '');
    lines.push(...fence(s.title === 'Examples' ? 'sh' : 'text', s.lines), '');
  }
  for (const s of c.commands) lines.push(...mdCommand(s, level + 1));
  return lines;
}

/** GitHub's anchor of a heading. */
const anchor = (heading) =>
  heading
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');
const GENERATED = '<!-- generated by scripts/gen-docs.mjs from the command tree (npm run docs); do not edit -->';
const markdownFiles = new Map();
markdownFiles.set(
  'README.md',
  [
    GENERATED,
    '# shipbook command reference',
    '',
    `Every command of shipbook ${pkg.version}, as its \`--help\` shows it: one page per command with its subcommands, their arguments, options and examples (every command also takes \`-h, --help\`). The same text is in the man pages (\`man shipbook\`, \`man shipbook-<command>\`).`,
    '',
    ...fence('text', [`Usage: ${top.usage}`]),
    '',
    md(top.description),
    '',
    '## Global options',
    '',
    'They go before or after the command (`shipbook --json order get ORD-…` or `shipbook order get ORD-… --json`).',
    '',
    '| option | description |',
    '|---|---|',
    ...top.options.map((o) => `| ${code(o.term)} | ${cell(o.description)} |`),
    '',
    '## Commands',
    '',
    '| command | summary |',
    '|---|---|',
    ...groups.map((g) => `| [\`${g.name}\`](${g.path[0]}.md) | ${cell(g.summary)} |`),
    '',
    ...top.sections.flatMap((s) => [`## ${s.title}`, '', ...fence(s.title === 'Examples' ? 'sh' : 'text', s.lines), '']),
    ...sharedSections.flatMap((s) => [`## ${s.title}`, '', 'Every command prints this at the end of its help:', '', ...fence('text', s.lines), '']),
  ].join('\n'),
);
for (const g of groups) markdownFiles.set(`${g.path[0]}.md`, [GENERATED, ...mdCommand(g, 1), 'See also: [the command reference](README.md).', ''].join('\n'));

// ---------------------------------------------------------------------------------------------
// roff (man(7))

/** Text for roff: backslashes, hyphens and a leading dot or quote escaped. */
const roff = (text) =>
  text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .split('\n')
    .map((l) => (/^[.']/.test(l) ? `\\&${l}` : l))
    .join('\n');
const bold = (text) => `\\fB${roff(text)}\\fR`;

/** A command in roff: under `.SH SYNOPSIS` and `.SH DESCRIPTION` for the page's own command, `.SS` for its subcommands. */
function manCommand(c, own) {
  const lines = own
    ? ['.SH SYNOPSIS', '.nf', roff(c.usage), '.fi', '.SH DESCRIPTION', roff(c.description)]
    : [`.SS ${roff(c.name)}`, '.nf', roff(c.usage), '.fi', '.PP', roff(c.description)];
  const list = (title, items) => {
    if (items.length === 0) return;
    lines.push('.PP', `${title}:`, '.RS 4');
    for (const i of items) lines.push('.TP', bold(i.term), roff(i.description));
    lines.push('.RE');
  };
  list('Arguments', c.arguments);
  list('Options', c.options);
  list(
    'Commands',
    c.commands.map((s) => ({ term: s.name, description: s.summary })),
  );
  for (const s of c.sections) {
    if (s.title !== '') lines.push('.PP', `${roff(s.title)}:`);
    lines.push('.RS 4', '.nf', ...s.lines.map(roff), '.fi', '.RE');
  }
  for (const s of c.commands) lines.push(...manCommand(s, false));
  return lines;
}

const th = (name) => `.TH ${roff(name.toUpperCase())} 1 "" "shipbook ${pkg.version}" "shipbook manual"`;
const manFiles = new Map();
manFiles.set(
  'shipbook.1',
  [
    `.\\" generated by scripts/gen-docs.mjs from the command tree (npm run docs); do not edit`,
    th('shipbook'),
    '.SH NAME',
    `shipbook \\- ${roff(pkg.description)}`,
    '.SH SYNOPSIS',
    '.nf',
    roff(top.usage.replace(/^/, 'shipbook ').replace(/^shipbook shipbook/, 'shipbook')),
    '.fi',
    '.SH DESCRIPTION',
    roff(top.description),
    '.SH OPTIONS',
    ...top.options.flatMap((o) => ['.TP', bold(o.term), roff(o.description)]),
    '.SH COMMANDS',
    ...groups.flatMap((g) => ['.TP', bold(g.name), `${roff(g.summary)} (see \\fBshipbook\\-${roff(g.path[0])}\\fR(1))`]),
    ...[...top.sections, ...sharedSections].flatMap((s) => [`.SH ${roff(s.title.toUpperCase())}`, '.RS 4', '.nf', ...s.lines.map(roff), '.fi', '.RE']),
    '.SH SEE ALSO',
    groups.map((g) => `\\fBshipbook\\-${roff(g.path[0])}\\fR(1)`).join(', '),
    '',
  ].join('\n'),
);
for (const g of groups) {
  manFiles.set(
    `shipbook-${g.path[0]}.1`,
    [
      `.\\" generated by scripts/gen-docs.mjs from the command tree (npm run docs); do not edit`,
      th(`shipbook-${g.path[0]}`),
      '.SH NAME',
      `shipbook\\-${roff(g.path[0])} \\- ${roff(g.summary)}`,
      ...manCommand(g, true),
      '.SH SEE ALSO',
      '\\fBshipbook\\fR(1)',
      '',
    ].join('\n'),
  );
}

// ---------------------------------------------------------------------------------------------
// Writing: each directory holds exactly the generated files

for (const [dir, files] of [
  [join(out, 'docs', 'reference'), markdownFiles],
  [join(out, 'man'), manFiles],
]) {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) if (!files.has(name)) rmSync(join(dir, name), { recursive: true, force: true });
  for (const [name, text] of files) writeFileSync(join(dir, name), text);
}
// package.json's `man` field installs the pages: written into the checkout, it lists them all.
if (out === root) {
  const man = [...manFiles.keys()].sort().map((name) => `./man/${name}`);
  if (JSON.stringify(pkg.man) !== JSON.stringify(man)) {
    pkg.man = man;
    writeFileSync(join(root, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    console.log('updated the man field of package.json');
  }
}
console.log(`wrote ${markdownFiles.size} pages to ${join(out, 'docs', 'reference')} and ${manFiles.size} man pages to ${join(out, 'man')}`);
