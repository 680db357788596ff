/** The flags that say how to wait for the booking result (`book`, and later `order accept --wait`). */
import type { Command } from 'commander';
import type { WaitSettings } from '../booking/result.js';
import { parseDuration } from '../input/flags.js';

/** Raw wait flags as commander parses them. */
export interface WaitFlags {
  poll?: string;
  timeout?: string;
}

/** Adds `--poll <interval>` and `--timeout <duration>`. */
export function addWaitOptions(cmd: Command): Command {
  return cmd
    .option('--poll <interval>', 'how often to ask for the result, e.g. 1s', '1s')
    .option('--timeout <duration>', 'how long to wait for the result, e.g. 10m', '10m');
}

/** Turns the flags into settings. @throws UsageError (exit 2) for a malformed duration. */
export function waitSettings(flags: WaitFlags): WaitSettings {
  return {
    pollMs: parseDuration('--poll', flags.poll ?? '1s'),
    timeoutMs: parseDuration('--timeout', flags.timeout ?? '10m'),
  };
}
