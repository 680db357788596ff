/**
 * Limits shared by validation and the built-in sandbox (issue 20 item 6).
 *
 * The interface document gives the 35-character name/description limits of create order and the
 * 1 MiB request limit; it is silent on the length of the other free-text fields, so these are
 * sane caps (far above any real value, far below what would make a request too large), chosen so
 * that a 4,000,000-character postcode is an error in `validate` instead of a 413 from the service.
 * The sandbox should import its constants from here (src/sandbox/server.ts MAX_BODY_BYTES).
 */

/** Largest request body the service accepts, in bytes (1 MiB; the sandbox answers 413 above it). */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/** Caps, in characters (code points), of free-text fields the interface document gives no limit for. */
export const TEXT_LIMITS = {
  /** Phone numbers. */
  phone: 40,
  /** Postcodes (any country). */
  postcode: 20,
  /** City or suburb names. */
  city: 100,
  /** Free-text descriptions and names where the service states no limit (consolidated-mail forms). */
  text: 200,
  /** Service codes (`AUS_PARCEL_REGULAR`). */
  code: 64,
  /** Ids the service hands out (shipment ids). */
  id: 64,
} as const;
