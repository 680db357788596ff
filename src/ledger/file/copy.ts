/**
 * The run's own journal file (`--journal FILE`, or the default journal of the target), the copy
 * every ledger implementation keeps beside itself: a journal file like the file ledger's, whose first
 * record names the target it was written against, so that a copy is never continued on another.
 */
import type { OnExit } from '../../exit-work.js';
import { JournalTargetError } from '../errors.js';
import type { EntryState } from '../records.js';
import type { JournalCopy } from '../store.js';
import { Journal } from './journal.js';
import { journalTarget, readJournal } from './read.js';

/** The id under which the `target` record is written (it is no document's). */
const TARGET_RECORD_ID = '#target';

/**
 * Checks that the journal at `path` was written against `target` (or names none yet: new, or empty).
 * @throws JournalTargetError (exit 2) when it names another target
 * @throws JournalCorruptError (exit 2) when its first line is not a record
 */
export function checkCopyTarget(path: string, target: string): void {
  const written = journalTarget(path);
  if (written !== undefined && written !== target) throw new JournalTargetError(path, written, target);
}

/** Writes the `target` record of a journal that has none yet (the first record of a new file). */
export function stampTarget(journal: Journal, target: string): void {
  if (journalTarget(journal.path) !== undefined) return;
  journal.append({ id: TARGET_RECORD_ID, event: 'target', target });
  journal.states.delete(TARGET_RECORD_ID);
}

/**
 * Opens the run's journal copy (checked with {@link checkCopyTarget} first), naming `target` in it
 * when it is new.
 * @throws JournalLockedError when another batch holds its lock; JournalUnusableError when the file
 *   system refuses the file or its directory; JournalCorruptError when a line is not a record
 */
export async function openCopy(copy: JournalCopy, target: string, command: string, onExit?: OnExit): Promise<Journal> {
  const journal = await Journal.open(copy.path, { lock: copy.lock, command, ...(onExit !== undefined ? { onExit } : {}) });
  stampTarget(journal, target);
  return journal;
}

/**
 * Where each document stands in the journal at `path`, read without writing anything (empty when
 * there is no such file).
 * @throws JournalTargetError (exit 2) when it was written against another target
 * @throws JournalCorruptError (exit 2) when a line in the middle is not a record
 */
export function peekCopy(path: string, target: string): Map<string, EntryState> {
  checkCopyTarget(path, target);
  return readJournal(path);
}
