/**
 * Rules of the code's layout that no linter holds: no source file grows past 600 lines (a file that
 * long mixes concerns: split it by concern), only main listens to the process, no promise that never settles stands in for a
 * stop (the run's AbortSignal alone ends waits), one module writes the ledger's records (the
 * recorder, src/booking/record.ts), and a command's run function stays short (flags → options →
 * one call → output), and only output/ words a command to paste (shellCommand): everything else carries
 * its next step as data (a Hint of src/errors.ts). The layer rules are dependency-cruiser's (.dependency-cruiser.cjs, run by
 * `npm test` before the tests).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 600;

/** Every TypeScript file under src/, as paths from the repository root. */
function sources(dir = 'src'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The syntax tree of a source file. */
function tree(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** Every node of `node`'s tree that `pick` keeps. */
function nodes<T extends ts.Node>(node: ts.Node, pick: (n: ts.Node) => n is T): T[] {
  const out: T[] = [];
  const visit = (n: ts.Node) => {
    if (pick(n)) out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return out;
}

/** The lines of code of `node`: neither blank nor only a comment. */
function codeLines(sf: ts.SourceFile, node: ts.Node): number {
  const text = sf.text.slice(node.getStart(sf), node.getEnd());
  const withoutComments = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return withoutComments.split('\n').filter((l) => l.trim() !== '').length;
}

/**
 * The run functions of the commands: functions named `run…`, and the handlers given to commander's
 * `.action(…)`, each with its lines of code.
 */
function runFunctions(): Array<{ name: string; lines: number }> {
  return sources('src/commands').flatMap((file) => {
    const sf = tree(file);
    const named = nodes(sf, (n): n is ts.FunctionDeclaration => ts.isFunctionDeclaration(n) && n.name !== undefined && /^run[A-Z]/.test(n.name.text));
    const actions = nodes(
      sf,
      (n): n is ts.CallExpression => ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'action',
    ).flatMap((c) => c.arguments.filter((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a)));
    return [
      ...named.map((f) => ({ name: `${file} ${f.name!.text}`, lines: codeLines(sf, f) })),
      ...actions.map((a) => ({ name: `${file}:${sf.getLineAndCharacterOfPosition(a.getStart(sf)).line + 1} .action`, lines: codeLines(sf, a) })),
    ];
  });
}

/** The longest a command's run function may be, in lines of code. */
const MAX_RUN_LINES = 60;

describe('the house rules of src/', () => {
  it('finds the sources it checks', () => {
    expect(sources().length).toBeGreaterThan(100);
  });

  it(`no file is over ${MAX_LINES} lines`, () => {
    const long = sources()
      .map((f) => ({ file: f, lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.file}: ${f.lines} lines`);
    expect(long).toEqual([]);
  });

  it('only src/main.ts listens to the process (exit work goes through ctx.onExit, signals through main)', () => {
    // process.on / once / addListener / prependListener, or a listener of the process's 'exit'.
    const listens = /\bprocess\s*\.\s*(on|once|addListener|prependListener|prependOnceListener)\s*\(/;
    const others = sources().filter((f) => f !== join('src', 'main.ts') && listens.test(readFileSync(f, 'utf8')));
    expect(others).toEqual([]);
    expect(readFileSync(join('src', 'main.ts'), 'utf8')).toMatch(listens);
  });

  it('no test is retried: a test that loses a race fails, so the race is found and fixed', () => {
    const config = readFileSync('vitest.config.ts', 'utf8');
    expect(config).not.toMatch(/\bretry\s*:/);
    const scripts = Object.values((JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts);
    expect(scripts.filter((s) => /--retry(?!\s*[= ]\s*0\b)/.test(s))).toEqual([]);
  });

  it('no promise that never settles (a wait ends when the run is stopped through its signal)', () => {
    const hanging = sources().filter((f) => /new Promise\(\(\) => \{\s*\}\)/.test(readFileSync(f, 'utf8')));
    expect(hanging).toEqual([]);
  });

  it('only the recorder (src/booking/record.ts) appends records to the ledger, outside the ledger itself', () => {
    const appending = sources()
      .filter((f) => !f.startsWith(join('src', 'ledger')) && f !== join('src', 'booking', 'record.ts'))
      .filter((f) => readFileSync(f, 'utf8').includes('append('))
      .filter((f) => {
        const calls = nodes(
          tree(f),
          (n): n is ts.CallExpression => ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'append',
        );
        return calls.length > 0;
      });
    expect(appending).toEqual([]);
    // The rule can fail: the recorder itself is found by it.
    expect(
      nodes(tree(join('src', 'booking', 'record.ts')), (n): n is ts.CallExpression => ts.isCallExpression(n) && n.getText().includes('.append(')).length,
    ).toBeGreaterThan(0);
  });

  it('only output/ words a command to paste (shellCommand); the others carry their next step as data', () => {
    // Below the context, where the run's hint style does not reach as data yet: the flows' "still
    // running" note, inside a wait's error message. This list only shrinks.
    const allowed = [join('src', 'next-steps.ts')];
    const callers = (files: string[]) =>
      files.filter(
        (f) =>
          readFileSync(f, 'utf8').includes('shellCommand(') &&
          nodes(tree(f), (n): n is ts.CallExpression => ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'shellCommand')
            .length > 0,
      );
    const outside = callers(sources().filter((f) => !f.startsWith(join('src', 'output'))));
    expect(outside.filter((f) => !allowed.includes(f))).toEqual([]);
    // Every file allowed still calls it (a file that stopped leaves the list), and the rule can fail: output/ is found by it.
    expect(allowed.filter((f) => !outside.includes(f))).toEqual([]);
    expect(callers(sources(join('src', 'output'))).length).toBeGreaterThan(0);
  });

  it(`no run function of a command is over ${MAX_RUN_LINES} lines of code`, () => {
    const runs = runFunctions();
    expect(runs.length).toBeGreaterThan(30);
    const over = runs.filter((r) => r.lines > MAX_RUN_LINES).map((r) => `${r.name}: ${r.lines} lines`);
    expect(over).toEqual([]);
  });
});
