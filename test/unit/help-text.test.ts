import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { prepareContext, createContext, type GlobalOptions } from '../../src/context.js';
import { bufferIO } from '../helpers/run.js';
import { buildProgram } from '../../src/main.js';
import { COMMANDS, TREE_COMMANDS, invokedCommand } from '../../src/commands/index.js';

await prepareContext();

async function programWithOutput(argv?: string[]): Promise<{ program: Command; take: () => string }> {
  const io = bufferIO();
  let seen = 0;
  const take = () => {
    const all = io.stdoutText() + io.stderrText();
    const text = all.slice(seen);
    seen = all.length;
    return text;
  };
  const globals: GlobalOptions = {};
  const ctx = createContext(io, globals);
  const program = await buildProgram(ctx, globals, argv);
  return { program, take };
}

function everyCommand(cmd: Command, path: string[] = []): Array<[string, Command]> {
  const out: Array<[string, Command]> = [];
  for (const sub of cmd.commands) {
    if ((sub as unknown as { _hidden: boolean })._hidden) continue;
    const p = [...path, sub.name()];
    out.push([p.join(' '), sub], ...everyCommand(sub, p));
  }
  return out;
}

/** Example lines of a help text: the indented lines under "Examples:" that run shipbook. */
function examples(help: string): string[] {
  const at = help.search(/^Examples?:$/m);
  if (at === -1) return [];
  return help
    .slice(at)
    .split('\n')
    .slice(1)
    .filter((l) => /^\s{2,}\S/.test(l) && /shipbook|source|\$/.test(l));
}

const { program, take } = await programWithOutput();

describe('the manifest of lazily loaded commands (src/commands/index.ts)', () => {
  it('lists every command with the term and summary the loaded command has', () => {
    const full = program.helpInformation();
    for (const c of [...COMMANDS, ...TREE_COMMANDS]) {
      const loaded = program.commands.find((cmd) => cmd.name() === c.name);
      expect(loaded, c.name).toBeDefined();
      expect(loaded!.summary(), c.name).toBe(c.summary);
      expect(full).toContain(`  ${c.term}`);
    }
    const visible = program.commands.filter((cmd) => !(cmd as unknown as { _hidden: boolean })._hidden).map((cmd) => cmd.name());
    expect(visible).toEqual([...COMMANDS, ...TREE_COMMANDS].map((c) => c.name));
  });

  it('prints the same top-level help from stubs alone as from the whole tree', async () => {
    const light = await programWithOutput(['node', 'shipbook', '--help']);
    expect(light.program.helpInformation()).toBe(program.helpInformation());
  });

  it('loads only the invoked command: the others are stubs without subcommands or options', async () => {
    const one = await programWithOutput(['node', 'shipbook', '--profile', 'x', 'order', 'get', 'ORD-1']);
    const order = one.program.commands.find((c) => c.name() === 'order')!;
    expect(order.commands.map((c) => c.name())).toContain('get');
    const quote = one.program.commands.find((c) => c.name() === 'quote')!;
    expect(quote.options).toHaveLength(0);
    const valueOptions = new Set(['--output', '--profile', '--request-timeout']);
    expect(invokedCommand(['--output', 'json', 'quote', 'x.yaml'], valueOptions)).toBe('quote');
    expect(invokedCommand(['--request-timeout', '30s', 'quote'], valueOptions)).toBe('quote');
    expect(invokedCommand(['--json', '--help'], valueOptions)).toBeUndefined();
    // The root program's own value options are read from it: a timeout's value is not a command name.
    const timed = await programWithOutput(['node', 'shipbook', '--request-timeout', '30s', 'quote']);
    expect(timed.program.commands.find((c) => c.name() === 'quote')!.options.length).toBeGreaterThan(0);
    expect(timed.program.commands.find((c) => c.name() === 'order')!.commands).toHaveLength(0);
    // The launcher picks a code cache file by command before the program exists: it knows the same value options.
    const { commandOf } = createRequire(import.meta.url)('../../bin/code-cache.js') as { commandOf: (args: string[]) => string };
    const valued = timed.program.options.filter((o) => o.required || o.optional).map((o) => o.long!);
    expect(valued.length).toBeGreaterThan(2);
    for (const flag of valued) expect(commandOf([flag, 'x', 'quote']), flag).toBe('quote');
  });
});

describe('help text', () => {
  const commands = everyCommand(program);

  it('covers the commands we know of', () => {
    expect(commands.map(([p]) => p)).toEqual(expect.arrayContaining(['quote', 'order create', 'config sender set', 'doctor', 'completion', 'help']));
  });

  for (const [path, cmd] of commands) {
    it(`"${path}" has a one-line summary, a description and at least two examples`, () => {
      expect(cmd.summary() || '', 'summary').not.toBe('');
      expect(cmd.summary()).not.toContain('\n');
      expect(cmd.description() || '', 'description').not.toBe('');
      cmd.outputHelp();
      const help = take();
      expect(examples(help).length, `${path} --help:\n${help}`).toBeGreaterThanOrEqual(2);
      expect(help).not.toContain('(default: [])');
    });
  }

  it('the top-level help shows examples of the main flows', () => {
    program.outputHelp();
    const help = take();
    for (const flow of [
      'shipbook quote',
      'shipbook book',
      'shipbook order create',
      'shipbook order accept',
      'shipbook shipment combine',
      'shipbook help exit-codes',
    ]) {
      expect(help).toContain(flow);
    }
  });
});
