import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { checkHttpUrl, parseDuration, parsePackageSpec, parsePlace, parsePortFlag, portNumber } from '../../src/input/flags.js';

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

describe('the one port parser and the one URL check', () => {
  it('reads ports 0-65535 from digits only', () => {
    expect(portNumber('0')).toBe(0);
    expect(portNumber('8787')).toBe(8787);
    expect(portNumber('65535')).toBe(65535);
    for (const bad of ['65536', '-1', '80a', '', ' 80', '123456']) expect(portNumber(bad)).toBeUndefined();
    expect(() => parsePortFlag('--port', '70000')).toThrow('--port must be a port number 0-65535 (got "70000")');
  });

  it('accepts absolute http(s) URLs and names what is wrong with the rest', () => {
    expect('url' in checkHttpUrl('https://hooks.example.com/sb')).toBe(true);
    expect(checkHttpUrl('hooks.example.com')).toEqual({ problem: 'not_a_url' });
    expect(checkHttpUrl('ftp://example.com/')).toEqual({ problem: 'not_http', protocol: 'ftp:' });
    expect(checkHttpUrl('https://u:p@example.com/')).toEqual({ problem: 'credentials' });
  });
});
