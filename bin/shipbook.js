#!/usr/bin/env node
// Launcher: loads the built program from dist/ (built by `npm ci` through the prepare script).
import('../dist/main.js').then(
  (m) => m.run(process.argv),
  (err) => {
    process.stderr.write(
      `shipbook: cannot load dist/main.js (${err && err.code ? err.code : err}). Run "npm run build" first.\n`,
    );
    process.exitCode = 1;
  },
);
