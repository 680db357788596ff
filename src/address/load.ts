/**
 * Loads the address reference (reference.ts) on first use. In the built program this module is
 * replaced by one that requires dist/chunks/addresses.cjs at the first call (scripts/build.mjs,
 * `addressChunkPlugin`), so a run that checks no address never reads that data; from source (the
 * tests) it is an ordinary import.
 */
import * as reference from './reference.js';

/** The reference data and the libraries reading it, loaded on first call. */
export function addressReference(): typeof reference {
  return reference;
}
