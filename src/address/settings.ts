/**
 * How strictly addresses are checked in this run: `--strict-addresses` and `--normalize-phones`,
 * or the profile's settings `strict-addresses` and `normalize-phones`. Set once by main before a
 * command runs (as the profile of hints is), read where documents are validated.
 */

/** The address settings of a run. */
export interface AddressSettings {
  /** Address warnings are errors: exit 2, nothing sent. */
  strict: boolean;
  /** Phone numbers that can be read are sent in E.164 (`+61412555019`). */
  normalizePhones: boolean;
}

const DEFAULTS: AddressSettings = { strict: false, normalizePhones: false };
let current: AddressSettings = { ...DEFAULTS };

/** Sets this run's address settings (main, from the flags and the profile); missing members keep their defaults. */
export function setAddressSettings(settings: Partial<AddressSettings>): void {
  current = { ...DEFAULTS, ...settings };
}

/** This run's address settings. */
export function addressSettings(): AddressSettings {
  return current;
}
