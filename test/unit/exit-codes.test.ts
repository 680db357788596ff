import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError, ConfigError, exitCodeOf, kindOfExitCode, ShipbookError, type ErrorKind } from '../../src/errors.js';

/** Every kind of outcome and its exit code as docs/exit-codes.md documents it. */
const DOCUMENTED: Record<ErrorKind, number> = {
  ok: 0,
  internal: 1,
  input: 2,
  api: 3,
  auth: 4,
  network: 5,
  booking_failed: 6,
  pending: 7,
  incomplete: 8,
  limit_refused: 9,
  storage: 10,
  lock_lost: 11,
  booking_error_reported: 12,
  interrupted: 130,
  stdout_closed: 141,
  terminated: 143,
};

describe('the one switch from error kinds to exit codes', () => {
  it('gives every kind its documented exit code, and every documented code has its kind', () => {
    const table = readFileSync(new URL('../../docs/exit-codes.md', import.meta.url), 'utf8');
    const documented = [...table.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1]));
    for (const [kind, code] of Object.entries(DOCUMENTED) as Array<[ErrorKind, number]>) {
      expect(exitCodeOf(kind), kind).toBe(code);
      expect(kindOfExitCode(code)).toBe(kind);
    }
    expect(Object.values(DOCUMENTED).sort((a, b) => a - b)).toEqual(documented.sort((a, b) => a - b));
    expect(kindOfExitCode(99)).toBe('internal');
  });

  it('an error carries its kind, and its exit code is the switch’s', () => {
    expect(new ShipbookError('x', 'y', 'storage').exitCode).toBe(10);
    expect(new ConfigError('no key').kind).toBe('auth');
    expect(new ConfigError('bad file', { kind: 'input' }).exitCode).toBe(2);
    const refused = new ApiError({ status: 403, message: 'no', method: 'GET', url: 'http://127.0.0.1/' });
    expect([refused.kind, refused.exitCode]).toEqual(['auth', 4]);
    const fault = new ApiError({ status: 500, message: 'no', method: 'GET', url: 'http://127.0.0.1/' });
    expect([fault.kind, fault.exitCode]).toEqual(['api', 3]);
  });
});
