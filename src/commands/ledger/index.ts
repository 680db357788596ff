/**
 * `shipbook ledger push`: a station joining the shared ledger (docs/shared-ledger.md) copies its
 * own file ledger of the target into it, once, so what it booked before counts for every station.
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { ConfigError, UsageError } from '../../errors.js';
import { isSharedLedger } from '../../ledger/index.js';
import { keyFingerprint, serviceIdentity, targetLabel } from '../../config/target.js';
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
  const { joinShared, shownUrl } = await import('../../ledger/index.js');
  // The documents the shared ledger lacks or knows less of: what it knows further is never overwritten.
  const r = await joinShared({ url: profile.ledger, stateDir: ctx.stateDir(), target });
  const path = r.path;
  const to = shownUrl(profile.ledger);
  ctx.output.write({ pushed: { from: path, to, target, records: r.records, copied: r.copied, documents: r.documents } }, () => {
    const { io } = ctx;
    if (r.records === 0)
      io.err(`The shared ledger knows every document of ${targetLabel(target)} that this machine's ledger (${path}) holds: nothing to copy.\n`);
    else
      io.err(
        `${paint(io, 'green', '✔')} copied ${r.copied} of ${r.records} records (${r.documents} documents) of ${targetLabel(target)} from ${path} into the shared ledger at ${to}` +
          (r.copied < r.records ? `; ${r.records - r.copied} were copied by an earlier push` : '') +
          '\n',
      );
  });
}

/** The service identity and key fingerprint of this run's profile; a usage error for the built-in sandbox (one account, no key). */
async function serviceAndKey(ctx: Context): Promise<{ service: string; key: string }> {
  const profile = await ctx.profile();
  if (!profile.baseUrl)
    throw new UsageError('the built-in sandbox has one ledger and no keys: there is nothing to link or separate', {
      suggestion: 'Run it with the profile (--profile NAME) or SHIPBOOK_BASE_URL and SHIPBOOK_API_KEY of the service and key it is about.',
    });
  return { service: serviceIdentity(profile.baseUrl), key: keyFingerprint(profile.apiKey) };
}

/**
 * `ledger link <fingerprint>`: this run's key is the same account as the key with that fingerprint
 * (a rotated key): one ledger, the key's own merged into it.
 * @throws UsageError (exit 2) for the built-in sandbox or a fingerprint that is not 12 hex digits
 */
async function runLedgerLink(other: string, ctx: Context): Promise<void> {
  const { service, key } = await serviceAndKey(ctx);
  if (!/^[0-9a-f]{12}$/.test(other))
    throw new UsageError(`"${other}" is not a key fingerprint (12 hex digits, as the message that named it shows)`, {
      suggestion: 'Copy the fingerprint from the message that said where the document was booked.',
    });
  const { linkKey } = await import('../../ledger/index.js');
  const r = await linkKey(ctx.stateDir(), service, key, other);
  ctx.output.write({ linked: { service, key, account: r.account, merged: r.merged } }, () => {
    const { io } = ctx;
    io.err(
      `${paint(io, 'green', '✔')} the key with fingerprint ${key} is the same account as ${other} on ${service}: it books on that account's ledger (${r.account})` +
        (r.merged.length > 0 ? `; merged ${r.merged.join(', ')} into it` : '') +
        '\n',
    );
  });
}

/**
 * `ledger separate <fingerprint>`: this run's key is another account than the key with that
 * fingerprint (a test key and a live key on one URL): a ledger of its own, remembered.
 * @throws UsageError (exit 2) for the built-in sandbox
 */
async function runLedgerSeparate(other: string, ctx: Context): Promise<void> {
  const { service, key } = await serviceAndKey(ctx);
  if (other === key) throw new UsageError('that is the fingerprint of this very key: give the fingerprint of the other key');
  const { separateKey } = await import('../../ledger/index.js');
  separateKey(ctx.stateDir(), service, key);
  ctx.output.write({ separated: { service, key, from: other } }, () => {
    const { io } = ctx;
    io.err(
      `${paint(io, 'green', '✔')} the key with fingerprint ${key} is an account of its own on ${service}: it books on a ledger of its own, and what ${other} booked no longer stops it\n`,
    );
  });
}

/** The `ledger` command group. */
export function ledgerCommand(ctx: Context): Command {
  return new Command('ledger')
    .summary("the ledger's service and accounts: link or separate keys, join the shared ledger")
    .description(
      "The ledger follows the service (its normalised base URL) and the account behind the key, not the key's text: link says that this key is the same account as another key of the service, separate that it is another account (see docs/book.md). With a ledger shared by several machines on PostgreSQL (setting ledger, or SHIPBOOK_LEDGER; see docs/shared-ledger.md), every station books against the same records; a station that booked on its own before carries its file ledger in on its first run there, or by hand with push.",
    )
    .addHelpText(
      'after',
      '\nExamples:\n  SHIPBOOK_LEDGER=postgresql://shipbook@db.example.com/shipbook shipbook ledger push\n  shipbook --profile production config set ledger postgresql://shipbook@db.example.com/shipbook\n',
    )
    .addCommand(
      new Command('push')
        .summary("copy this machine's file ledger of the target into the shared ledger, once")
        .description(
          "Copies into the shared ledger on PostgreSQL the records of every document that this machine's file ledger of the target (in the state directory) knows further along than the shared ledger, each record once: a second push copies nothing. What the station booked before then counts for every station: none books it again. The first booking run of a station against the shared ledger does the same by itself.",
        )
        .addHelpText(
          'after',
          '\nExamples:\n  SHIPBOOK_LEDGER=postgresql://shipbook@db.example.com/shipbook shipbook ledger push\n  shipbook --profile production ledger push --json\n',
        )
        .action(() => runLedgerPush(ctx)),
    )
    .addCommand(
      new Command('link')
        .summary('this key is the same account as another key of the service (a rotated key): one ledger')
        .argument('<fingerprint>', 'the other key’s fingerprint, as the message that stopped a booking names it')
        .description(
          "Declares the profile's key the same account as the key with that fingerprint, on the same service: it books on that account's ledger, and what its own ledger held is merged into it. A new key is usually linked by itself: shipbook asks the service with it for an order the account's ledger holds.",
        )
        .addHelpText(
          'after',
          '\nExamples:\n  SHIPBOOK_BASE_URL=https://api.example.com SHIPBOOK_API_KEY=new-key shipbook ledger link 3f2a9c01d4be\n  SHIPBOOK_BASE_URL=https://api.example.com SHIPBOOK_API_KEY=new-key shipbook ledger link 3f2a9c01d4be --json\n',
        )
        .action((fingerprint: string) => runLedgerLink(fingerprint, ctx)),
    )
    .addCommand(
      new Command('separate')
        .summary('this key is another account than another key of the service (a test and a live key): two ledgers')
        .argument('<fingerprint>', 'the other key’s fingerprint')
        .description(
          "Declares the profile's key an account of its own on its service, apart from the key with that fingerprint: it books on a ledger of its own, no answer of the service links it, and what the other key booked no longer stops a booking. Remembered in the state directory.",
        )
        .addHelpText(
          'after',
          '\nExamples:\n  SHIPBOOK_BASE_URL=https://api.example.com SHIPBOOK_API_KEY=test-key shipbook ledger separate 3f2a9c01d4be\n  SHIPBOOK_BASE_URL=https://api.example.com SHIPBOOK_API_KEY=test-key shipbook ledger separate 3f2a9c01d4be --json\n',
        )
        .action((fingerprint: string) => runLedgerSeparate(fingerprint, ctx)),
    );
}
