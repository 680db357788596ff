import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each test file's own home, config and state directories (never the developer's).
    setupFiles: ['test/setup/isolate.ts'],
    // Per test and per hook: long enough for a slow CI machine, short enough that a hang fails.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // One process per test file: files start servers, child processes and timers, and shipbook
    // keeps per-process state (the registry of secrets), so no file shares a process with another.
    pool: 'forks',
    // Most of the suite's time is spent waiting (the sandbox's processing delays, polls, deadlines,
    // child processes), not computing: one worker per CPU, and at least two. Vitest's default (CPUs
    // minus one) would run a 2-CPU CI machine's files one at a time, about twice as long.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
