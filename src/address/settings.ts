/**
 * How strictly addresses are checked in a run: `--strict-addresses` and `--normalize-phones`, or
 * the profile's settings `strict-addresses` and `normalize-phones`. Part of the run's settings in
 * the context (main fills them in before a command runs), handed to where documents are validated.
 */

/** The address settings of a run. */
export interface AddressSettings {
  /** Address warnings are errors: exit 2, nothing sent. */
  strict: boolean;
  /** Phone numbers that can be read are sent in E.164 (`+61412555019`). */
  normalizePhones: boolean;
}

/** The settings of a run given neither flag nor profile setting: warnings warn, phones are sent as written. */
export const DEFAULT_ADDRESS_SETTINGS: Readonly<AddressSettings> = Object.freeze({ strict: false, normalizePhones: false });
