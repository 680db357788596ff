// Builds src/ into dist/ with esbuild so that bin/shipbook.js runs on plain Node.js.
// Dependencies stay external (they are installed by npm); only our own code is bundled.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';

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
