/**
 * The doctor's check of the ledger setting: the file ledger needs nothing; a shared ledger on
 * PostgreSQL is reached, its schema version compared with this shipbook's, and the clock skew
 * between the server and this machine measured.
 */
import type { ResolvedProfile } from '../config/profile.js';
import type { ErrorKind } from '../errors.js';
import { keyFingerprint, serviceIdentity, targetId } from '../config/target.js';
import { cmd, type Hint } from '../errors.js';

/** One row of the doctor's table (src/doctor/checks.ts `CheckResult`, of which it is one). */
interface LedgerCheck {
  id: string;
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string | Hint;
  kind?: ErrorKind;
}

/** Clock skew beyond which the check warns, ms: record times from stations this far apart mislead history. */
const SKEW_WARN_MS = 5000;

/** Checks the ledger of `profile` (see the module comment). Never throws: a failure is a `fail` row. */
export async function checkLedger(profile: Pick<ResolvedProfile, 'ledger' | 'baseUrl' | 'apiKey'>, stateDir: string): Promise<LedgerCheck> {
  const id = 'ledger';
  const name = 'ledger';
  if (profile.ledger === undefined || profile.ledger === 'file') return { id, name, status: 'ok', detail: 'file in the state directory (this machine only)' };
  const { shownUrl, describeDbError, probeSharedLedger, missingFromShared, knownAccount } = await import('../ledger/index.js');
  const where = shownUrl(profile.ledger);
  try {
    const p = await probeSharedLedger(profile.ledger);
    const skew = `clock ${p.skewMs >= 0 ? '+' : ''}${(p.skewMs / 1000).toFixed(2)} s from this machine`;
    const schema = p.schema === 0 ? 'no tables yet (the first run creates them)' : `schema version ${p.schema}`;
    const detail = `${where}: PostgreSQL ${p.serverVersion}, ${schema}, ${skew}`;
    if (p.schema > p.known)
      return {
        id,
        name,
        status: 'fail',
        detail: `${detail}; newer than this shipbook's (${p.known})`,
        fix: 'Update shipbook on this machine to the version the other stations run.',
        kind: 'auth',
      };
    if (Math.abs(p.skewMs) > SKEW_WARN_MS)
      return { id, name, status: 'warn', detail, fix: "Synchronise this machine's clock (NTP): the times of its records are this machine's." };
    // What this station booked on its own and the shared ledger lacks (a run pushes it before booking; so does ledger push).
    const account = profile.baseUrl ? knownAccount(stateDir, serviceIdentity(profile.baseUrl), keyFingerprint(profile.apiKey)) : undefined;
    const missing = await missingFromShared({ url: profile.ledger, stateDir, target: targetId(profile, stateDir, account) });
    if (missing.ids.size > 0)
      return {
        id,
        name,
        status: 'warn',
        detail: `${detail}; ${missing.ids.size} document(s) of this station's file ledger (${missing.path}) are not in the shared ledger, or further along here`,
        fix: ['Copy them in: ', cmd('ledger', 'push'), ' (the next booking run does it too, before it books anything)'],
      };
    return { id, name, status: 'ok', detail };
  } catch (err) {
    return {
      id,
      name,
      status: 'fail',
      detail: `${where}: ${describeDbError(err)}`,
      fix: 'Check that the database server runs and this machine may connect (host, port, user, password or ~/.pgpass, sslmode in the URL).',
      kind: 'storage',
    };
  }
}
