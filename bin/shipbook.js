#!/usr/bin/env node
// Launcher: loads the built program from dist/ (built by `npm ci` through the prepare script).
// `shipbook --version` needs nothing but the version, so it is answered here without loading
// the program (start-up is a feature: warehouse staff and CI run shipbook many times a day).
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
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
