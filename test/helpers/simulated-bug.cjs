// Preloaded (node -r) into a shipbook process by test/e2e/internal-error.test.ts to give it a bug:
// SHIPBOOK_SIMULATED_BUG=stdout makes every write to stdout throw a TypeError (an internal error
// raised inside shipbook's own code, with frames in the bundle); =timer throws from a timer, outside
// any command (an uncaught exception).
'use strict';
const bug = process.env.SHIPBOOK_SIMULATED_BUG;
if (bug === 'stdout') {
  process.stdout.write = () => {
    throw new TypeError('simulated bug: stdout cannot be written');
  };
} else if (bug === 'timer') {
  setTimeout(() => {
    throw new Error('simulated bug thrown by a timer');
  }, 0);
}
