/**
 * Choosing the profile for a run. Order: `--profile`, then `SHIPBOOK_PROFILE`, then the default
 * profile; single settings are overridden by `SHIPBOOK_BASE_URL` and `SHIPBOOK_API_KEY`, which
 * let CI run with nothing stored.
 */
import { ConfigError, EXIT } from '../errors.js';
import { normaliseBaseUrl } from '../api/client.js';
import { builtinSandboxProfile, type ResolvedProfile } from './profile.js';

/** Inputs of the choice: the `--profile` flag and the environment. */
export interface ResolveInput {
  profileFlag?: string;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * Resolves the profile of this run.
 * @throws ConfigError when a named profile does not exist or a base URL is refused.
 */
export function resolveProfile(input: ResolveInput): ResolvedProfile {
  const name = input.profileFlag ?? input.env.SHIPBOOK_PROFILE ?? 'sandbox';
  if (name !== 'sandbox') {
    throw new ConfigError(`profile "${name}" does not exist`, {
      exitCode: EXIT.INPUT,
      suggestion: 'Only the built-in profile "sandbox" exists; set SHIPBOOK_BASE_URL and SHIPBOOK_API_KEY to use a real service.',
    });
  }
  const profile = builtinSandboxProfile();
  const baseUrl = input.env.SHIPBOOK_BASE_URL?.trim();
  const apiKey = input.env.SHIPBOOK_API_KEY?.trim();
  if (baseUrl) {
    profile.baseUrl = normaliseBaseUrl(baseUrl);
    profile.sandbox = false;
    profile.sources.baseUrl = 'env SHIPBOOK_BASE_URL';
  }
  if (apiKey) {
    profile.apiKey = apiKey;
    profile.sources.apiKey = 'env SHIPBOOK_API_KEY';
  }
  return profile;
}
