/**
 * `shipbook help [command...|topic]`: help for a command path (`shipbook help order accept` shows
 * the help of `order accept`, not of `order`), or one of the topics `environment`, `exit-codes`
 * and `formats`.
 *
 * The topics are read from the manual's pages in docs/ (shipped in the package), so the help and
 * the manual can never disagree: a topic is the section of that name, its prose and its table,
 * the table fitted to the terminal.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { fitTable, wrapCell } from '../../output/fit.js';
import { globalFlags } from './examples.js';

/** A help topic: its name and the page and heading of the manual it is taken from. */
interface HelpTopic {
  name: string;
  /** One line for the list of topics. */
  summary: string;
  /** The manual's page, relative to the package's root. */
  page: string;
  /** The heading (without the `#`s) whose section is the topic. */
  heading: string;
}

/** The topics of `shipbook help <topic>`. */
export const HELP_TOPICS: readonly HelpTopic[] = [
  { name: 'environment', summary: 'environment variables shipbook reads', page: 'docs/configuration.md', heading: 'Environment variables' },
  { name: 'exit-codes', summary: 'what each exit code means', page: 'docs/exit-codes.md', heading: 'Exit codes' },
  { name: 'formats', summary: 'output formats: table, tsv, json, yaml, ndjson, --quiet', page: 'docs/output-formats.md', heading: 'Output formats' },
];

/** Finds a page of the package's manual by walking up from this module (works from src/ and from dist/). */
export function findManualPage(page: string, from: string = dirname(fileURLToPath(import.meta.url))): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = join(dir, page);
    if (existsSync(candidate) && existsSync(join(dir, 'package.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** A section of a Markdown page: the lines under `heading` up to the next heading of the same or a higher level. */
export function readmeSection(markdown: string, heading: string): string | undefined {
  const lines = markdown.split(/\r?\n/);
  let level = 0;
  let start = -1;
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const m = /^(#{1,6})\s+(.*?)\s*$/.exec(line);
    if (!m) continue;
    if (start === -1) {
      if (m[2]!.replace(/`/g, '') === heading) {
        level = m[1]!.length;
        start = i + 1;
      }
    } else if (m[1]!.length <= level) {
      return lines.slice(start, i).join('\n').trim();
    }
  }
  return start === -1 ? undefined : lines.slice(start).join('\n').trim();
}

function plain(text: string): string {
  return text
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/`([^`]+)`/g, '$1');
}

function splitRow(line: string): string[] {
  return line
    .replace(/^\s*\|/, '')
    .replace(/\|\s*$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => plain(c.trim().replace(/\\\|/g, '|')));
}

/**
 * Renders a section of the manual for the terminal: prose as it is (without Markdown marks), each
 * Markdown table as a table fitted to `width` columns.
 */
export function renderSection(section: string, width: number): string {
  const out: string[] = [];
  const lines = section.split('\n');
  // A paragraph or list item of the manual is hard-wrapped for the source; join it, then wrap to the terminal.
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length === 0) return;
    const text = plain(paragraph.join(' ').replace(/\s+/g, ' ').trim());
    const bullet = /^([-*] |\d+\. )/.exec(text)?.[0] ?? '';
    const body = wrapCell(text.slice(bullet.length), Math.max(20, width - bullet.length));
    out.push(
      body
        .split('\n')
        .map((l, i) => (i === 0 ? bullet : ' '.repeat(bullet.length)) + l)
        .join('\n'),
    );
    paragraph = [];
  };
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^(```|~~~)/.test(line)) {
      flush();
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      out.push(`  ${line}`);
      continue;
    }
    if (/^\s*\|/.test(line) && /^\s*\|[\s:|-]+\|\s*$/.test(lines[i + 1] ?? '')) {
      flush();
      const header = splitRow(line);
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && /^\s*\|/.test(lines[i]!)) rows.push(splitRow(lines[i++]!));
      i--;
      const columns = header.map((h, c) => ({ header: h, atomic: c === 0 }));
      out.push(fitTable(columns, rows, width).text.trimEnd());
    } else if (line.trim() === '') {
      flush();
      out.push('');
    } else {
      if (/^([-*] |\d+\. )/.test(line.trim())) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}

/** The text of one topic, read from the manual. @throws UsageError for an unknown topic or a manual without it. */
export function topicText(name: string, width: number, pagePath?: string): string {
  const topic = HELP_TOPICS.find((t) => t.name === name);
  if (!topic) throw new UsageError(`unknown help topic "${name}"`, { suggestion: `Topics: ${HELP_TOPICS.map((t) => t.name).join(', ')}.` });
  const path = pagePath ?? findManualPage(topic.page);
  const markdown = path ? readFileSync(path, 'utf8') : '';
  const section = readmeSection(markdown, topic.heading);
  if (!section) throw new UsageError(`help topic "${name}" is missing from the manual (section "${topic.heading}" of ${topic.page})`);
  return `${topic.heading}\n\n${renderSection(section, width)}`;
}

/** Width to lay topics out in: the terminal's, else `COLUMNS`, else 100. */
function outputWidth(ctx: Context): number {
  const cols = ctx.io.stdout.columns ?? Number(ctx.io.env.COLUMNS);
  return Number.isFinite(cols) && cols > 20 ? cols : 100;
}

/** Finds a command by its path of names (`['order', 'accept']`), or undefined. */
function findCommand(root: Command, path: string[]): Command | undefined {
  let cmd: Command | undefined = root;
  for (const name of path) {
    cmd = cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
    if (!cmd) return undefined;
  }
  return cmd;
}

/**
 * Replaces commander's `help` command on `program` by one that knows command paths and topics.
 * Call after every other command is registered.
 */
export function installHelpCommand(program: Command, ctx: Context): void {
  program.helpCommand(false);
  const help = new Command('help')
    .summary('help for a command, or a topic: environment, exit-codes, formats, flags')
    .description(
      `Shows the help of a command (any depth), or a help topic:\n${HELP_TOPICS.map((t) => `  ${t.name.padEnd(12)} ${t.summary}`).join('\n')}\n  ${'flags'.padEnd(12)} every global flag (a command's help shows those that matter to it)`,
    )
    .argument('[command-or-topic...]', 'a command path (order accept) or a topic name')
    .addHelpText('after', '\nExamples:\n  shipbook help order accept\n  shipbook help exit-codes\n  shipbook help environment\n  shipbook help flags')
    .action((words: string[]) => {
      if (words.length === 0) {
        program.outputHelp();
        return;
      }
      // Every global flag: a command's help shows only those that matter to it.
      if (words.length === 1 && words[0] === 'flags') {
        ctx.io.out(`${globalFlags(program, ctx.io.stdout.columns ?? 80)}\n`);
        return;
      }
      if (words.length === 1 && HELP_TOPICS.some((t) => t.name === words[0])) {
        ctx.io.out(topicText(words[0]!, outputWidth(ctx)));
        return;
      }
      const cmd = findCommand(program, words);
      if (!cmd) {
        throw new UsageError(`no command or help topic "${words.join(' ')}"`, {
          suggestion: `Run "shipbook --help" for the commands; topics: ${HELP_TOPICS.map((t) => t.name).join(', ')}.`,
        });
      }
      cmd.outputHelp();
    });
  help.copyInheritedSettings(program);
  program.addCommand(help);
}
