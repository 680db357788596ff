/**
 * `shipbook doctor`: checks the set-up (Node.js, configuration file and permissions, profile and
 * where each setting comes from, the service and the key, the callback receiver, the built-in
 * sandbox's state) and prints a table of checks with what to do about each failure. Exits with
 * the exit code of the first failed check (docs/exit-codes.md); 0 when nothing failed.
 */
import type { HintStyle } from '../../shell.js';
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { ShipbookError, exitCodeOf } from '../../errors.js';
import { doctorOutcome, runChecks, type CheckResult } from '../../doctor/checks.js';
import { fitTable } from '../../output/fit.js';
import { hintText } from '../../output/hints.js';
import { paint } from '../../output/style.js';
import type { OutputFormat } from '../../output/format.js';
import type { IOStreams } from '../../io.js';
import { parseListen } from '../common/wait-options.js';

/** Options of `doctor`. */
interface DoctorOptions {
  /** `--listen <host:port>`: where a callback receiver would listen (default 127.0.0.1, any port). */
  listen?: string;
}

const MARK: Record<CheckResult['status'], string> = { ok: 'ok', warn: 'warn', fail: 'FAIL', skip: 'skip' };

/** Renders the checks for people in `format`: a table fitted to the terminal for `table`, tab-separated lines otherwise. */
function renderChecks(io: IOStreams, format: OutputFormat, results: CheckResult[], hints: HintStyle): string {
  if (format !== 'table') {
    return results.map((r) => [r.id, r.status, r.detail, hintText(r.fix, hints) ?? ''].map((c) => c.replace(/[\t\r\n]+/g, ' ')).join('\t')).join('\n') + '\n';
  }
  const colour = { ok: 'green', warn: 'yellow', fail: 'red', skip: 'dim' } as const;
  const width = io.stdout.columns ?? 100;
  return fitTable(
    [
      { header: paint(io, 'bold', 'check'), minWidth: 10 },
      { header: paint(io, 'bold', 'result'), atomic: true },
      { header: paint(io, 'bold', 'found'), minWidth: 16 },
      { header: paint(io, 'bold', 'what to do'), minWidth: 16 },
    ],
    results.map((r) => [r.name, paint(io, colour[r.status], MARK[r.status]), r.detail, hintText(r.fix, hints) ?? '']),
    width,
  ).text;
}

/** The data of a doctor run in a machine format (`--json`, `--output yaml|ndjson`): `{ok, exit_code, checks: [{id, name, status, detail, fix}]}`. */
function checksJson(results: CheckResult[], hints: HintStyle): Record<string, unknown> {
  const exitCode = exitCodeOf(doctorOutcome(results));
  return {
    ok: exitCode === 0,
    exit_code: exitCode,
    checks: results.map((r) => ({ id: r.id, name: r.name, status: r.status, detail: r.detail, ...(r.fix ? { fix: hintText(r.fix, hints) } : {}) })),
  };
}

/**
 * Runs `doctor`.
 * @throws UsageError (2) for a malformed `--listen`; a ShipbookError carrying the first failed
 *   check's exit code when a check fails (already reported: the table or JSON is printed first).
 */
async function runDoctor(o: DoctorOptions, ctx: Context): Promise<void> {
  const listen = o.listen === undefined ? undefined : parseListen(o.listen);
  const profile = ctx.globals.profile;
  const results = await runChecks({ env: ctx.io.env, profileFlag: profile, api: () => ctx.api(), listen });
  // Through the writer: the machine format asked for, with the target the checks talked to.
  if (ctx.json) ctx.output.data(checksJson(results, ctx.settings.hints));
  else ctx.io.out(renderChecks(ctx.io, ctx.output.format, results, ctx.settings.hints));
  const failed = results.filter((r) => r.status === 'fail');
  if (failed.length > 0) {
    throw new ShipbookError(
      'doctor_failed',
      `${failed.length} check${failed.length === 1 ? '' : 's'} failed: ${failed.map((r) => r.name).join(', ')}`,
      doctorOutcome(results),
      {
        suggestion: failed[0]!.fix,
        reported: true,
      },
    );
  }
}

/** Builds the `doctor` command. */
export function doctorCommand(ctx: Context): Command {
  return new Command('doctor')
    .summary('check the set-up: Node.js, configuration, profile, service, key, callbacks, sandbox state')
    .description(
      'Checks what shipbook needs and prints one row per check with what to do about each failure: ' +
        'Node.js version; the configuration file and its permissions; the active profile and where ' +
        'each setting comes from (flag, environment, file, default); that the base URL answers and ' +
        'the key is accepted (a fetch-order-data read of an order that does not exist: nothing is ' +
        'changed); that a callback receiver can listen on --listen (default 127.0.0.1, any port); ' +
        "and the built-in sandbox's state directory.\n" +
        'Exits 0 when no check failed, else with the exit code of the first failure (see "shipbook help exit-codes").',
    )
    .option('--listen <host:port>', 'check that a callback receiver can listen here (as book --listen)')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  shipbook doctor\n' +
        '  shipbook --profile production doctor --listen 0.0.0.0:8787\n' +
        '  shipbook doctor --json | jq -r \'.checks[] | select(.status == "fail") | .fix\'',
    )
    .action(async (opts: DoctorOptions) => runDoctor(opts, ctx));
}
