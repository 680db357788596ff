/**
 * `shipbook ledger push`: a station joining the shared ledger (docs/shared-ledger.md) copies its
 * own file ledger of the target into it, once, so what it booked before counts for every station.
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { ConfigError } from '../../errors.js';
import { ledgerPath } from '../../ledger/ledger.js';
import { isSharedLedger } from '../../ledger/open.js';
import { targetLabel } from '../../config/target.js';
import { paint } from '../../output/style.js';

/**
 * Copies the file ledger of this run's target (in the state directory) into the shared ledger.
 * @throws ConfigError (exit 4) when no shared ledger is configured; LedgerUnreachableError (exit 10)
 */
async function runLedgerPush(ctx: Context): Promise<void> {
  const profile = await ctx.profile();
  if (!isSharedLedger(profile.ledger)) {
    throw new ConfigError('no shared ledger is configured: the ledger of this profile is the file in the state directory; nothing was copied', {
      suggestion: 'Set it first: shipbook config set ledger postgresql://user@host/database (or SHIPBOOK_LEDGER=postgresql://…), then push again.',
    });
  }
  const target = await ctx.targetId();
  const path = ledgerPath(ctx.stateDir(), target);
  const { pushFileLedger } = await import('../../ledger/pg/push.js');
  const { targetLockKey } = await import('../../ledger/pg/ledger.js');
  const { shownUrl } = await import('../../ledger/pg/connect.js');
  const r = await pushFileLedger({ url: profile.ledger, target, path, lockKey: targetLockKey(target) });
  const to = shownUrl(profile.ledger);
  ctx.output.write({ pushed: { from: path, to, target, records: r.records, copied: r.copied, documents: r.documents } }, () => {
    const { io } = ctx;
    if (r.records === 0) io.err(`The ledger of ${targetLabel(target)} on this machine (${path}) has no records: nothing to copy.\n`);
    else
      io.err(
        `${paint(io, 'green', '✔')} copied ${r.copied} of ${r.records} records (${r.documents} documents) of ${targetLabel(target)} from ${path} into the shared ledger at ${to}` +
          (r.copied < r.records ? `; ${r.records - r.copied} were copied by an earlier push` : '') +
          '\n',
      );
  });
}

/** The `ledger` command group. */
export function ledgerCommand(ctx: Context): Command {
  return new Command('ledger')
    .summary('the shared ledger: join it with what this machine booked')
    .description(
      'With a ledger shared by several machines on PostgreSQL (setting ledger, or SHIPBOOK_LEDGER; see docs/shared-ledger.md), every station books against the same records. A station that booked on its own before copies its file ledger in once with push.',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  SHIPBOOK_LEDGER=postgresql://shipbook@db.example.com/shipbook shipbook ledger push\n  shipbook --profile production config set ledger postgresql://shipbook@db.example.com/shipbook\n',
    )
    .addCommand(
      new Command('push')
        .summary("copy this machine's file ledger of the target into the shared ledger, once")
        .description(
          "Copies every record of this machine's file ledger of the target (in the state directory) into the shared ledger on PostgreSQL, each record once: a second push copies only what was added since. What the station booked before then counts for every station: none books it again.",
        )
        .addHelpText(
          'after',
          '\nExamples:\n  SHIPBOOK_LEDGER=postgresql://shipbook@db.example.com/shipbook shipbook ledger push\n  shipbook --profile production ledger push --json\n',
        )
        .action(() => runLedgerPush(ctx)),
    );
}
