/**
 * Rules of the code's layout that no linter holds: no source file grows past 600 lines (a file that
 * long mixes concerns: split it by concern), only main listens to the process, and no promise that never settles stands in for a
 * stop (the run's AbortSignal alone ends waits). The layer rules are dependency-cruiser's
 * (.dependency-cruiser.cjs, run by `npm test` before the tests).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 600;

/** Every TypeScript file under src/, as paths from the repository root. */
function sources(dir = 'src'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

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

  it('no promise that never settles (a wait ends when the run is stopped through its signal)', () => {
    const hanging = sources().filter((f) => /new Promise\(\(\) => \{\s*\}\)/.test(readFileSync(f, 'utf8')));
    expect(hanging).toEqual([]);
  });
});
