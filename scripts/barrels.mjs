// An esbuild plugin for the program's bundle: imports through a room's index (src/booking/index.ts,
// src/ledger/index.ts) are made, in the bundle only, imports of the modules the index re-exports
// the names from.
//
// The rooms' indexes are their public faces (dependency-cruiser holds commands to them), and each
// re-exports everything the room offers. In the bundle every module a command reaches is wrapped in
// a function that runs on its first import, and running an index runs every module it re-exports:
// `validate`, which asks the booking room for its pickup rule alone, ran the batch runner, the
// rules engine, the dock, the papers, the callback receiver and the ledger (about 180 modules,
// their schemas built, their code in the start's code cache). Importing from the modules themselves,
// each run loads what it uses. The sources stay as they are: this is how the bundle is linked, as
// tree shaking is, and the modules of the rooms build their values, they run nothing else at import.
//
// What is rewritten: `import { a, b as c, type T } from '…/booking/index.js';` in any module of src/
// but the index itself. Names the index re-exports become imports of their modules (type-only names
// are dropped: TypeScript drops them anyway); a name the index defines itself stays an import of the
// index. Dynamic `import('…/index.js')` is left as it is.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';

/** `{ a, b as c, type T }` (the text between the braces) as [{imported, local, type}]. */
function specifiers(list) {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const type = /^type\s+/.test(s);
      const [imported, local = imported] = s.replace(/^type\s+/, '').split(/\s+as\s+/);
      return { imported: imported.trim(), local: local.trim(), type };
    });
}

/** The value names an index re-exports, each with the absolute path of its module and its name there. */
function reExports(index) {
  const text = readFileSync(index, 'utf8');
  const found = new Map();
  for (const m of text.matchAll(/^export\s+(type\s+)?\{([^}]*)\}\s+from\s+'([^']+)';/gm)) {
    if (m[1] !== undefined) continue;
    const module = resolve(dirname(index), m[3].replace(/\.js$/, '.ts'));
    for (const s of specifiers(m[2])) if (!s.type) found.set(s.local, { module, name: s.imported });
  }
  return found;
}

/**
 * The plugin, for the indexes `indexes` (absolute paths of .ts files). A module's import of an
 * index is rewritten only when every one of its lines can be read (one `import {…} from '…';`).
 */
export function barrelPlugin(indexes) {
  const maps = new Map(indexes.map((i) => [i, reExports(i)]));
  return {
    name: 'room-index-imports',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
        if (maps.has(args.path)) return undefined;
        const text = await readFile(args.path, 'utf8');
        if (!/\/(booking|ledger)\/index\.js'/.test(text)) return undefined;
        let changed = false;
        const contents = text.replace(/^import\s+(type\s+)?\{([^}]*)\}\s+from\s+'([^']+)';/gm, (whole, typeOnly, list, spec) => {
          if (typeOnly !== undefined || !spec.startsWith('.')) return whole;
          const target = resolve(dirname(args.path), spec.replace(/\.js$/, '.ts'));
          const map = maps.get(target);
          if (map === undefined) return whole;
          const byModule = new Map();
          const kept = [];
          for (const s of specifiers(list)) {
            if (s.type) continue;
            const from = map.get(s.imported);
            if (from === undefined) {
              kept.push(s);
              continue;
            }
            const group = byModule.get(from.module) ?? [];
            group.push(from.name === s.local ? s.local : `${from.name} as ${s.local}`);
            byModule.set(from.module, group);
          }
          const lines = [];
          for (const [module, names] of byModule) {
            let rel = relative(dirname(args.path), module).split(sep).join('/').replace(/\.ts$/, '.js');
            if (!rel.startsWith('.')) rel = `./${rel}`;
            lines.push(`import { ${names.join(', ')} } from '${rel}';`);
          }
          if (kept.length > 0)
            lines.push(`import { ${kept.map((s) => (s.imported === s.local ? s.local : `${s.imported} as ${s.local}`)).join(', ')} } from '${spec}';`);
          changed = true;
          // As many lines as the statement had, so positions after it (source maps, stack traces) stay.
          const height = whole.split('\n').length;
          return lines.join(' ') + '\n'.repeat(Math.max(0, height - 1));
        });
        return changed ? { contents, loader: 'ts' } : undefined;
      });
    },
  };
}
