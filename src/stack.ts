/**
 * Stack traces for `--debug` that point into `src/`: shipbook runs as one minified bundle
 * (dist/main.cjs, loaded through a V8 code cache, where Node.js's own `--enable-source-maps` does
 * not reach), so each frame in the bundle is mapped back through the source map the build writes
 * beside it (dist/main.cjs.map) with Node.js's own reader (`SourceMap` of node:module). Only
 * positions are printed, never the source text.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, relative, resolve } from 'node:path';

/**
 * `stack` with every frame in `bundle` (its file path) rewritten as the `src/…` file, line and
 * column it was built from; unchanged when the bundle has no source map next to it (a run from
 * the TypeScript sources, in tests) or the map cannot be read.
 */
export function mapStack(stack: string, bundle: string): string {
  let map: SourceMap;
  try {
    map = new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
  } catch {
    return stack;
  }
  const root = resolve(dirname(bundle), '..');
  const escaped = bundle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return stack.replace(new RegExp(`${escaped}:(\\d+):(\\d+)`, 'g'), (whole, line: string, column: string) => {
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
    if (entry.originalSource === undefined || entry.originalLine === undefined) return whole;
    const source = entry.originalSource.startsWith('file:') ? new URL(entry.originalSource).pathname : resolve(dirname(bundle), entry.originalSource);
    return `${relative(root, source)}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}`;
  });
}
