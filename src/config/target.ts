/**
 * The target of a run: which booking service it talks to. Every run resolves exactly one, so
 * that a rehearsal on a sandbox is never mistaken for the real run, and so that what was booked
 * is recorded against the service it was booked on.
 *
 * Three kinds:
 * - `builtin-sandbox`: the in-process simulation started when no base URL is configured; its
 *   identity is its state directory (its port changes on every run);
 * - `sandbox`: a `shipbook sandbox` server reached by URL (the profile declares it, or the server
 *   announces itself in its answers);
 * - `service`: anything else reached by URL, taken to be the real service.
 */
import { createHash } from 'node:crypto';
import type { ResolvedProfile } from './profile.js';

/** The kinds of target, as written in every machine-readable output. */
type TargetKind = 'builtin-sandbox' | 'sandbox' | 'service';

/**
 * The target as machine-readable output carries it (`target` in every machine format, report.json, JUnit
 * properties, the journal's first record). Snake case, as on the wire.
 */
export interface Target {
  kind: TargetKind;
  /** The base URL requests go to; for the built-in sandbox, known only once it has started (else null). */
  base_url: string | null;
  /**
   * The profile name of the run (`sandbox` for the built-in sandbox); null when no profile names
   * the service: the built-in profile with its base URL from `SHIPBOOK_BASE_URL` (calling that
   * `sandbox` would make a real service look like the simulator).
   */
  profile: string | null;
}

/**
 * A short, stable fingerprint of an API key: the first 12 hex digits of its SHA-256. It tells two
 * accounts of one service apart without the key ever being written anywhere.
 */
function keyFingerprint(apiKey: string | undefined): string {
  if (!apiKey) return 'nokey';
  return createHash('sha256').update(apiKey, 'utf8').digest('hex').slice(0, 12);
}

/**
 * The identity of the service a run books on, for the ledger and the journal: the built-in
 * sandbox by its state directory (`builtin-sandbox:/home/u/.local/state/shipbook`); any service
 * reached by URL by its normalised base URL and the fingerprint of the key
 * (`https://api.example.com/#key:3f2a9c01d4be`). Never contains the key.
 */
export function targetId(profile: Pick<ResolvedProfile, 'baseUrl' | 'apiKey'>, stateDir: string): string {
  if (!profile.baseUrl) return `builtin-sandbox:${stateDir}`;
  return `${profile.baseUrl}#key:${keyFingerprint(profile.apiKey)}`;
}

/**
 * The target of a profile before any request: `builtin-sandbox` without a base URL, `sandbox` for a
 * profile declared a sandbox, else `service`. `baseUrl` overrides the profile's (the built-in
 * sandbox's URL once started). `profile` is null for a base URL from `SHIPBOOK_BASE_URL` alone.
 */
export function describeTarget(profile: Pick<ResolvedProfile, 'name' | 'baseUrl' | 'sandbox'>, baseUrl?: string): Target {
  const url = baseUrl ?? profile.baseUrl ?? null;
  if (!profile.baseUrl) return { kind: 'builtin-sandbox', base_url: url, profile: profile.name };
  // The built-in profile's name (kept here so that this module loads without the configuration schema).
  const name = profile.name === 'sandbox' ? null : profile.name;
  return { kind: profile.sandbox ? 'sandbox' : 'service', base_url: url, profile: name };
}

/** A target in a person's words: `the built-in sandbox (state in DIR)`, `sandbox at URL`, `URL`. */
export function targetLabel(id: string): string {
  if (id.startsWith('builtin-sandbox:')) return `the built-in sandbox (state in ${id.slice('builtin-sandbox:'.length)})`;
  const [url, key] = id.split('#key:');
  return key === undefined || key === 'nokey' ? `${url} (no key)` : `${url} (key fingerprint ${key})`;
}
