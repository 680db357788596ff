// Builds src/ into dist/ with esbuild so that bin/shipbook.js runs on plain Node.js.
// Dependencies stay external (they are installed by npm); only our own code is bundled.
import { build } from 'esbuild';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

// Chunk names carry a hash: start from an empty dist/ so old chunks do not pile up.
await rm(new URL('../dist/', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  // Code loaded on demand (the sandbox, for example) goes into chunks of its own, so start-up
  // only reads what the command needs.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // Dependencies are bundled too: one file read instead of hundreds at start-up (issue: start-up).
  // CommonJS dependencies bundled into ESM still ask for require, __filename and __dirname.
  banner: {
    js: "import { createRequire as __sbCreateRequire } from 'node:module'; import { fileURLToPath as __sbFileURLToPath } from 'node:url'; import { dirname as __sbDirname } from 'node:path'; const require = __sbCreateRequire(import.meta.url); const __filename = __sbFileURLToPath(import.meta.url); const __dirname = __sbDirname(__filename);",
  },
  // BUILD_NO_MINIFY=1 keeps names readable, for CPU profiles (node --cpu-prof).
  minify: !process.env.BUILD_NO_MINIFY,
  sourcemap: true,
  logLevel: 'warning',
  define: { SHIPBOOK_VERSION: JSON.stringify(pkg.version) },
});

// The top-level help, as commander lays it out for output that is not a terminal (80 columns).
// bin/shipbook.js prints this file for `shipbook --help` into a pipe or file without loading the
// program (start-up, issue 13). It is rendered by the program just built, so it cannot drift;
// test/e2e/cli-experience.test.ts compares it with the program's own help.
const help = execFileSync(
  process.execPath,
  ['--input-type=module', '-e', "const m = await import(process.argv[1]); await m.run(['node', 'shipbook', '--help']);", fileURLToPath(new URL('../dist/main.js', import.meta.url))],
  { encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'inherit'] },
);
await writeFile(new URL('../dist/help.txt', import.meta.url), help);
