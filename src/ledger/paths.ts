/**
 * Where the ledger and the journals of a target live on this machine, shared by every ledger
 * implementation: the file ledger keeps its records there; a run on a shared ledger keeps a copy of
 * what it knows there, and reads it when it joins.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** A short hash of a target's identity, for file names. */
function targetFingerprint(target: string): string {
  return createHash('sha256').update(target, 'utf8').digest('hex').slice(0, 12);
}

/** The ledger file of `target` in `stateDir`. */
export function ledgerPath(stateDir: string, target: string): string {
  return join(stateDir, 'ledger', `${targetFingerprint(target)}.ndjson`);
}

/**
 * The default journal of a batch against `target`, relative to the working directory: one per
 * target (`.shipbook/journal-<fingerprint>.ndjson`), so a rehearsal on a sandbox never decides
 * the real run.
 */
export function defaultJournalPath(target: string): string {
  return join('.shipbook', `journal-${targetFingerprint(target)}.ndjson`);
}

/** The pattern of {@link defaultJournalPath}'s names, for help texts. */
export const DEFAULT_JOURNAL_PATTERN = '.shipbook/journal-<target>.ndjson';
