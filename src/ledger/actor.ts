/**
 * Who makes a run's changes, stamped on every record it writes, the same way by every ledger
 * implementation (so `history` reads the same fields from each).
 */
import { hostname, userInfo } from 'node:os';
import type { JournalRecord, RecordStamp } from './records.js';

/**
 * Who writes a run's records, as `history` shows them: the command (`book`, `order accept` …) and
 * the profile; the operating-system user and the host are added by {@link Ledger.open}.
 */
export interface Actor {
  op: string;
  profile: string;
  /** The payment type of the run's accepts once known (`credit` …), stamped on each `accept_sent` that names none. */
  payment?: () => string | undefined;
}

/** The operating-system user of this process (`os.userInfo()`, else `$USER`, else the uid). */
function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? String(process.getuid?.() ?? 'unknown');
  }
}

/**
 * What stamps a run's records with who made them (`op`, `user`, `host`, `profile`; claims name
 * their run already and are left as they are), and each `accept_sent` that names no payment type
 * with the run's: shared by every ledger implementation, so `history` reads the same fields from each.
 */
export function actorStamp(actor: Actor | undefined): (given: Omit<JournalRecord, 't'>) => Omit<JournalRecord, 't'> {
  const fields = actorFields(actor);
  return (given) => {
    const added = fields(given);
    return added === undefined ? given : { ...given, ...added };
  };
}

/**
 * The fields {@link actorStamp} adds to a record (`op`, `user`, `host`, `profile`, and an
 * `accept_sent`'s payment type), or undefined when it adds none: for {@link prepareRecord}, which
 * writes the record and them in one object.
 */
export function actorFields(actor: Actor | undefined): (given: Omit<JournalRecord, 't'>) => RecordStamp | undefined {
  const stamp: RecordStamp | undefined = actor === undefined ? undefined : { op: actor.op, user: osUser(), host: hostname(), profile: actor.profile };
  return (given) => {
    const added = given.event === 'claimed' || given.event === 'released' ? undefined : stamp;
    if (given.event === 'accept_sent' && given.payment === undefined) {
      const payment = actor?.payment?.();
      if (payment !== undefined) return { ...added, payment };
    }
    return added;
  };
}
