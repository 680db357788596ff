#!/usr/bin/env node
// Launcher: loads the built program from dist/ (built by `npm ci` through the prepare script).
// `shipbook --version` needs nothing but the version, so it is answered here without loading
// the program (start-up is a feature: warehouse staff and CI run shipbook many times a day).
// `shipbook --help` into a pipe or a file prints the help the build rendered (dist/help.txt, laid
// out for 80 columns as commander does when the output is not a terminal); on a terminal,
// commander lays it out for the terminal's width.
const args = process.argv.slice(2);
const onlyArg = args.length === 1 ? args[0] : undefined;
let printed = false;
if (onlyArg === '--version' || onlyArg === '-V') {
  const { readFileSync } = await import('node:fs');
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
  printed = true;
} else if ((onlyArg === '--help' || onlyArg === '-h') && !process.stdout.isTTY) {
  const { readFileSync } = await import('node:fs');
  let help;
  try {
    help = readFileSync(new URL('../dist/help.txt', import.meta.url), 'utf8');
  } catch {
    // not built by scripts/build.mjs: the program prints it
  }
  if (help !== undefined) {
    process.stdout.on('error', (err) => {
      if (err.code !== 'EPIPE') throw err;
    });
    process.stdout.write(help);
    printed = true;
  }
}
if (!printed) {
  // A V8 compile cache where Node.js has one (22.1 and later): later starts skip compiling the
  // bundle and its dependencies (issue 13). On Node.js 20 this is a no-op.
  const { enableCompileCache } = await import('node:module');
  if (typeof enableCompileCache === 'function') {
    try {
      enableCompileCache();
    } catch {
      // a cache directory that cannot be written only costs speed
    }
  }
  import('../dist/main.js').then(
    (m) => m.run(process.argv),
    (err) => {
      process.stderr.write(
        `shipbook: cannot load dist/main.js (${err && err.code ? err.code : err}). Run "npm run build" first.\n`,
      );
      process.exitCode = 1;
    },
  );
}
