import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { createContext, type GlobalOptions } from '../../src/context.js';
import type { IOStreams } from '../../src/io.js';
import { buildProgram } from '../../src/main.js';

function programWithOutput(): { program: Command; take: () => string } {
  let out = '';
  const io: IOStreams = {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env: {},
    color: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    canPrompt: false,
    out: (s) => void (out += s),
    err: (s) => void (out += s),
  };
  const globals: GlobalOptions = {};
  const ctx = createContext(io, globals);
  const program = buildProgram(ctx, globals);
  return { program, take: () => ((s) => ((out = ''), s))(out) };
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
  return help.slice(at).split('\n').slice(1).filter((l) => /^\s{2,}\S/.test(l) && /shipbook|source|\$/.test(l));
}

describe('help text', () => {
  const { program, take } = programWithOutput();
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
    for (const flow of ['shipbook quote', 'shipbook book', 'shipbook order create', 'shipbook order accept', 'shipbook shipment combine', 'shipbook help exit-codes']) {
      expect(help).toContain(flow);
    }
  });
});
