#!/usr/bin/env node
'use strict';
// Launcher (CommonJS, see bin/package.json: an ES module entry costs Node.js more to start).
// It loads the program, dist/main.cjs: `npm run build` builds it in a checkout, and the published
// package ships it (built by the prepack script), so installing runs no build.
// Start-up is a feature: warehouse staff and CI run shipbook many times a day, so
// - `shipbook --version` (also `-V`, `-v`, `version`) is answered here, from package.json, without loading the program;
// - `shipbook --help` into a pipe or a file prints the help the build rendered (dist/help.txt,
//   laid out for 80 columns as commander does when the output is not a terminal); on a terminal,
//   commander lays it out for the terminal's width;
// - everything else runs the program through a V8 code cache (bin/code-cache.js).
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const args = process.argv.slice(2);
const onlyArg = args.length === 1 ? args[0] : undefined;
const helpFile = join(__dirname, '..', 'dist', 'help.txt');
const bundle = join(__dirname, '..', 'dist', 'main.cjs');
// Commands that never open a connection (they read files, print schemas or help).
const OFFLINE_COMMANDS = new Set(['validate', 'schema', 'help']);

if (onlyArg === '--version' || onlyArg === '-V' || onlyArg === '-v' || onlyArg === 'version') {
  process.stdout.write(`${JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);
} else if ((onlyArg === '--help' || onlyArg === '-h') && !process.stdout.isTTY && existsSync(helpFile)) {
  process.stdout.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
  });
  process.stdout.write(readFileSync(helpFile, 'utf8'));
} else if (!existsSync(bundle)) {
  process.stderr.write('shipbook: cannot load dist/main.cjs (not built). Run "npm run build" first.\n');
  process.exitCode = 1;
} else {
  const { commandOf, compileAsLaunched, loadBundle } = require('./code-cache.js');
  // undici parses HTTP with llhttp compiled to WebAssembly when its first connection opens. By
  // default V8 then also compiles that with its optimising tier on background threads, and Node.js
  // waits for those threads before the process can exit: about 45 ms at the end of every
  // one-request command on a 2-core machine. V8's baseline tier (Liftoff) alone parses a few
  // answers, or a batch's thousands, fast enough; llhttp is the only WebAssembly shipbook runs.
  // Set before anything is compiled: V8 accepts a code cache only under the flags it was made with,
  // so the choice depends on the command alone, as the cache file does. The commands that never
  // send a request skip it, and loading node:v8 for it (a few milliseconds).
  // With node:v8 loaded anyway, these commands also let V8's young generation grow 8-fold instead
  // of 2-fold when it fills: nearly all a start allocates (the program's modules, schemas,
  // undici) lives on, so each early collection copies it, and a one-request command made 3 or 4 of
  // them (2 to 3 ms of its start), now 2. A long run (a batch, the sandbox) then bounds its heap,
  // see boundHeap.
  if (!OFFLINE_COMMANDS.has(commandOf(args))) {
    try {
      const v8 = require('node:v8');
      v8.setFlagsFromString('--liftoff-only');
      v8.setFlagsFromString('--semi-space-growth-factor=8');
      compileAsLaunched(boundHeap(v8));
    } catch {
      // an engine without the flags only costs speed
    }
  }
  loadBundle(bundle, args).run(process.argv);
}

/**
 * Keeps a long run's heap near what it keeps alive. A batch keeps a few hundred bytes per finished
 * order and leaves much garbage, and by default V8 lets
 * - the old generation grow to up to four times what was live at its last collection, so the peak
 *   grew with the batch: 268 MB at 50,000 orders against 133 MB at 1,000. Collecting once it has
 *   grown by 20 % keeps it near what is live, for the same CPU (10 % cost a sixth more CPU);
 * - the young generation grow to its largest size, which Node.js 24 made 64 MB a half: 224 MB
 *   for the dry run of 10,000 order files, against 121 MB on Node.js 20. Its largest size can be
 *   set on Node.js's command line only, so its growth is stopped here, looked at after each
 *   collection, once it reaches 16 MB (Node.js 20's largest): 123 MB for that dry run, for the same CPU.
 * Both: 140 MB for 50,000 orders and 107 MB for 1,000. A short command ends before either matters.
 * V8 accepts a code cache only under the flags it was made with: what it returns runs a compile or
 * a cache write with the growth factor of the launch, and the sandbox asks for the same growing
 * percent as here.
 */
function boundHeap(v8) {
  const YOUNG_CAP = 16 * 1024 * 1024;
  v8.setFlagsFromString('--heap-growing-percent=20');
  const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  if (young() === undefined) return (fn) => fn();
  let factor = 8;
  const setFactor = (f) => {
    if (f !== factor) v8.setFlagsFromString(`--semi-space-growth-factor=${f}`);
    factor = f;
  };
  // Looked at after each collection (the young generation grows only at one): no timer, so an
  // idle process (the sandbox, a callback listener) is not woken for it.
  const { PerformanceObserver } = require('node:perf_hooks');
  const observer = new PerformanceObserver(() => {
    const size = young().space_size;
    if (size >= YOUNG_CAP) {
      setFactor(1);
      observer.disconnect();
    } else if (size * 8 > YOUNG_CAP) setFactor(2);
  });
  observer.observe({ entryTypes: ['gc'] });
  // The code cache's compiles and writes, under the flags of the launch (see bin/code-cache.js).
  return (fn) => {
    const now = factor;
    setFactor(8);
    try {
      return fn();
    } finally {
      setFactor(now);
    }
  };
}
