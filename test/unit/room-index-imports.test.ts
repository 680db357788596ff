/**
 * The program's bundle links imports through a room's index (src/booking/index.ts,
 * src/ledger/index.ts) to the modules behind it (scripts/barrels.mjs): a command then runs the
 * modules it uses at start, not every module of the room. Held here on `validate`, which asks the
 * booking room for its pickup rule alone: bundled with the plugin, neither the booking room's index
 * nor its batch runner is part of it; bundled without, both are (so the check can fail).
 */
import { build, type Metafile } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** scripts/barrels.mjs, a build script in JavaScript (no declarations). */
const { barrelPlugin } = (await import('../../scripts/barrels.mjs' as string)) as { barrelPlugin: (indexes: string[]) => unknown };

const root = join(import.meta.dirname, '..', '..');
const indexes = ['src/booking/index.ts', 'src/ledger/index.ts'].map((f) => join(root, f));

/** The source files of src/ that a bundle of `entry` (its packages left out) is made of. */
async function inputsOf(entry: string, plugins: unknown[]): Promise<string[]> {
  const r = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
    plugins: plugins as never,
  });
  return Object.keys((r.metafile as Metafile).inputs).filter((f) => f.startsWith('src/'));
}

describe("imports through a room's index, in the bundle", () => {
  it('validate is bundled without the booking index and the batch runner, and with the pickup rule it asks for', async () => {
    const linked = await inputsOf('src/commands/validate/index.ts', [barrelPlugin(indexes)]);
    expect(linked).toContain('src/booking/pickup/rule.ts');
    expect(linked).not.toContain('src/booking/index.ts');
    expect(linked).not.toContain('src/booking/batch/runner.ts');
    const plain = await inputsOf('src/commands/validate/index.ts', []);
    expect(plain).toContain('src/booking/index.ts');
    expect(plain).toContain('src/booking/batch/runner.ts');
    expect(linked.length).toBeLessThan(plain.length / 1.5);
  });

  it('every command still bundles: each name it imports from an index is found behind it, or in the index itself', async () => {
    const linked = await inputsOf('src/main.ts', [barrelPlugin(indexes)]);
    expect(linked).toContain('src/commands/book/index.ts');
    expect(linked).toContain('src/booking/batch/runner.ts');
  });
});
