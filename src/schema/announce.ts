/**
 * How a `shipbook sandbox` server says what it is: a response header on every answer, errors
 * included (`shipbook-sandbox: 1`). The service itself never sends it, so the client can mark the
 * output of a run as sandbox output whatever the profile says, and a rehearsal on a simulator is
 * never taken for a real booking.
 */

/** The header's name, lower case as Node.js gives header names. */
export const SANDBOX_HEADER = 'shipbook-sandbox';

/** The header's value. */
export const SANDBOX_HEADER_VALUE = '1';
