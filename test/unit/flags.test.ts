import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { parseDuration, parsePackageSpec, parsePlace } from '../../src/input/flags.js';

describe('command-line short forms', () => {
  it('reads places as COUNTRY:POSTCODE:CITY', () => {
    expect(parsePlace('--from', 'au:2000:Sydney')).toEqual({ country: 'AU', postcode: '2000', city: 'Sydney' });
    expect(parsePlace('--to', 'US:10001:New York')).toEqual({ country: 'US', postcode: '10001', city: 'New York' });
    expect(() => parsePlace('--to', 'Melbourne')).toThrow(UsageError);
  });

  it('reads packages in cm/kg and in/lb, and refuses mixed units', () => {
    expect(parsePackageSpec('30x20x15cm:2.5kg')).toEqual({ length: 30, width: 20, height: 15, weight: 2.5, unit: 'cm' });
    expect(parsePackageSpec('12 x 8 x 6 in : 5 lb')).toEqual({ length: 12, width: 8, height: 6, weight: 5, unit: 'in' });
    expect(() => parsePackageSpec('30x20x15cm:5lb')).toThrow(/cm goes with kg/);
    expect(() => parsePackageSpec('30x20cm:1kg')).toThrow(UsageError);
    expect(() => parsePackageSpec('0x20x15cm:1kg')).toThrow(/length must be greater than 0/);
  });

  it('reads durations', () => {
    expect(parseDuration('--poll', '5s')).toBe(5000);
    expect(parseDuration('--poll', '500ms')).toBe(500);
    expect(parseDuration('--timeout', '10m')).toBe(600_000);
    expect(parseDuration('--timeout', '2')).toBe(2000);
    expect(() => parseDuration('--poll', 'soon')).toThrow(UsageError);
  });
});
