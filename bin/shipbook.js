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
  const { commandOf, loadBundle } = require('./code-cache.js');
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
  // them (2 to 3 ms of its start), now 2. The generation's largest size is V8's as before, so a
  // long run (a batch, the sandbox) ends up where it did.
  if (!OFFLINE_COMMANDS.has(commandOf(args))) {
    try {
      const v8 = require('node:v8');
      v8.setFlagsFromString('--liftoff-only');
      v8.setFlagsFromString('--semi-space-growth-factor=8');
    } catch {
      // an engine without the flags only costs speed
    }
  }
  loadBundle(bundle, args).run(process.argv);
}
