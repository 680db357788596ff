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
 * keys of one service apart without the key ever being written anywhere.
 */
export function keyFingerprint(apiKey: string | undefined): string {
  if (!apiKey) return 'nokey';
  return createHash('sha256').update(apiKey, 'utf8').digest('hex').slice(0, 12);
}

/** The host names that are this machine's one loopback host in a service's identity. */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * The identity of a service by its base URL, whatever the spelling: scheme and host in lower case,
 * the default port dropped, the path with one trailing slash, no query or fragment, and
 * `localhost`, `127.0.0.1` and `[::1]` written `localhost` (one host). `http://LOCALHOST:8080`,
 * `http://127.0.0.1:8080/` and `http://[::1]:8080//` are all `http://localhost:8080/`. A text
 * that is no URL is returned as it stands.
 */
export function serviceIdentity(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return baseUrl;
  }
  if (LOOPBACK_NAMES.has(url.hostname.toLowerCase())) url.hostname = 'localhost';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/`;
  url.search = '';
  url.hash = '';
  return url.toString();
}

/**
 * The identity of the service a run books on, for the ledger and the journal: the built-in
 * sandbox by its state directory (`builtin-sandbox:/home/u/.local/state/shipbook`); any service
 * reached by URL by its {@link serviceIdentity} and its **account**, named by the fingerprint of
 * the account's first key (`https://api.example.com/#key:3f2a9c01d4be`). `account` is that
 * fingerprint as src/ledger/accounts.ts resolved it for the profile's key (a rotated key carries
 * on its account's ledger); without it, the key's own fingerprint. Never contains the key.
 */
export function targetId(profile: Pick<ResolvedProfile, 'baseUrl' | 'apiKey'>, stateDir: string, account?: string): string {
  if (!profile.baseUrl) return `builtin-sandbox:${stateDir}`;
  return `${serviceIdentity(profile.baseUrl)}#key:${account ?? keyFingerprint(profile.apiKey)}`;
}

/** The service and the account of a target id (`<service>#key:<account>`); undefined for the built-in sandbox. */
export function splitTargetId(id: string): { service: string; account: string } | undefined {
  const at = id.lastIndexOf('#key:');
  if (at < 0 || id.startsWith('builtin-sandbox:')) return undefined;
  return { service: id.slice(0, at), account: id.slice(at + '#key:'.length) };
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
