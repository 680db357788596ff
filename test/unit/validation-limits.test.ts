/**
 * Every limit of the interface document at its boundary ("Limits", and the field tables): the
 * last value that passes and the first that fails, through the same validation `shipbook
 * validate` and the sending commands use.
 */
import { validateBytes } from '../../src/input/validate.js';
import { loadCollectionCalendar } from '../../src/booking/pickup/calendar.js';
import { pickupRuleWith, type PickupFlags } from '../../src/booking/pickup/rule.js';
import { describe, expect, it } from 'vitest';
import { NOW, errors, fixture, order, value, warnings } from './validation-helpers.js';

const SHIPMENT = 'order.shipments[0]';

describe('35-character limits of create order', () => {
  const fields: Array<[string, (s: any, v: string) => void]> = [
    ['collection.first_name', (s, v) => (s.collection.first_name = v)],
    ['collection.last_name', (s, v) => (s.collection.last_name = v)],
    ['collection.company', (s, v) => (s.collection.company = v)],
    ['delivery.first_name', (s, v) => (s.delivery.first_name = v)],
    ['delivery.last_name', (s, v) => (s.delivery.last_name = v)],
    ['delivery.company', (s, v) => (s.delivery.company = v)],
    ['delivery.address_lines[1]', (s, v) => (s.delivery.address_lines = ['Level 12', v])],
    ['collection.address_lines[0]', (s, v) => (s.collection.address_lines = [v])],
    ['customs_information.items[1].description', (s, v) => (s.customs_information.items[1].description = v)],
    ['description', (s, v) => (s.description = v)],
    ['transient_id', (s, v) => (s.transient_id = v)],
  ];

  it.each(fields)('%s: 35 characters pass, 36 fail with the count', (path, set) => {
    const ok = order();
    set(ok.s, 'x'.repeat(35));
    expect(errors(ok.doc)).toEqual([]);
    const bad = order();
    set(bad.s, 'x'.repeat(36));
    expect(errors(bad.doc)).toEqual([`${SHIPMENT}.${path}: at most 35 characters (got 36)`]);
  });

  it('counts characters, not bytes or UTF-16 units: 35 accented letters or emoji pass, 36 fail', () => {
    for (const ch of ['é', '😀']) {
      const ok = order();
      ok.s.delivery.first_name = ch.repeat(35);
      expect(errors(ok.doc)).toEqual([]);
      const bad = order();
      bad.s.delivery.first_name = ch.repeat(36);
      expect(errors(bad.doc)).toEqual([`${SHIPMENT}.delivery.first_name: at most 35 characters (got 36)`]);
    }
  });

  it('does not apply the 35-character limits to create shipment (consolidated mail)', () => {
    const doc = fixture('fixtures/shipments/au-us-1.yaml');
    doc.shipment.description = 'x'.repeat(60);
    doc.shipment.delivery.address_lines = ['y'.repeat(60)];
    expect(errors(doc, 'shipment')).toEqual([]);
  });
});

describe('customs description', () => {
  it('512 characters pass, 513 fail', () => {
    const ok = order();
    ok.s.customs_information.description = 'd'.repeat(512);
    expect(errors(ok.doc)).toEqual([]);
    const bad = order();
    bad.s.customs_information.description = 'd'.repeat(513);
    expect(errors(bad.doc)).toEqual([`${SHIPMENT}.customs_information.description: at most 512 characters (got 513)`]);
  });
});

describe('address lines', () => {
  it('3 lines pass, 4 fail at the fourth', () => {
    const ok = order();
    ok.s.delivery.address_lines = ['a', 'b', 'c'];
    expect(errors(ok.doc)).toEqual([]);
    const bad = order();
    bad.s.delivery.address_lines = ['a', 'b', 'c', 'd'];
    expect(errors(bad.doc)).toEqual([`${SHIPMENT}.delivery.address_lines[3]: at most 3 address lines (got 4)`]);
  });

  it('requires the first line: an empty first line or no line fails', () => {
    for (const lines of [[''], ['   ', 'Level 2'], []]) {
      const bad = order();
      bad.s.delivery.address_lines = lines;
      expect(errors(bad.doc)).toEqual([`${SHIPMENT}.delivery.address_lines[0]: the first address line is required`]);
    }
  });

  it('drops trailing empty lines (as responses pad them) before sending', () => {
    const ok = order();
    ok.s.delivery.address_lines = ['15 Colin Street', '', ''];
    expect(value(ok.doc).order.shipments[0].delivery.address_lines).toEqual(['15 Colin Street']);
  });
});

describe('at least one shipment, package and item', () => {
  it.each([
    ['order.shipments', (d: any) => (d.order.shipments = []), 'at least 1 shipment'],
    [`${SHIPMENT}.packages`, (d: any) => (d.order.shipments[0].packages = []), 'at least 1 package'],
    [`${SHIPMENT}.customs_information.items`, (d: any) => (d.order.shipments[0].customs_information.items = []), 'at least 1 item'],
  ])('%s: an empty list fails', (path, empty, message) => {
    const { doc } = order();
    empty(doc);
    expect(errors(doc)).toEqual([`${path}: ${message}`]);
  });

  it('a quote needs at least one package', () => {
    const doc = fixture('fixtures/quotes/syd-mel-single.yaml');
    doc.packages = [];
    expect(errors(doc)).toEqual(['packages: at least 1 package']);
  });
});

describe('total item value at most 7500 AUD per shipment, summed exactly as quantity × value', () => {
  const item = (quantity: number, v: number | string) => ({ description: 'Camera', quantity, value: v, currency: 'AUD', madein: 'JP' });

  it('3 × 2500.00 = 7500.00 passes; adding 1 × 0.01 fails', () => {
    const ok = order();
    ok.s.customs_information.items = [item(3, 2500.0)];
    expect(errors(ok.doc)).toEqual([]);
    const bad = order();
    bad.s.customs_information.items = [item(3, 2500.0), item(1, 0.01)];
    expect(errors(bad.doc)).toEqual([`${SHIPMENT}.customs_information.items: total item value at most 7500.00 AUD (got 7500.01)`]);
  });

  it('sums without binary floating point: 75000 × 0.10 is exactly 7500.00', () => {
    const ok = order();
    ok.s.customs_information.items = [item(75000, 0.1)];
    expect(errors(ok.doc)).toEqual([]);
    const bad = order();
    bad.s.customs_information.items = [item(75000, 0.1), item(1, '0.01')];
    expect(errors(bad.doc)[0]).toContain('(got 7500.01)');
  });

  it('applies per shipment, not per order', () => {
    const { doc, s } = order();
    s.customs_information.items = [item(3, 2500)];
    doc.order.shipments.push(structuredClone(s));
    expect(errors(doc)).toEqual([]);
  });

  it('refuses values with more than two decimals', () => {
    const bad = order();
    bad.s.customs_information.items = [item(1, 10.005)];
    expect(errors(bad.doc)).toEqual([`${SHIPMENT}.customs_information.items[0].value: at most 2 decimal places in AUD (got 10.005)`]);
  });
});

describe('currency: only AUD', () => {
  it('AUD and aud pass; USD fails on items and on quotes', () => {
    const ok = order();
    ok.s.customs_information.items[0].currency = 'aud';
    expect(value(ok.doc).order.shipments[0].customs_information.items[0].currency).toBe('AUD');
    const bad = order();
    bad.s.customs_information.items[0].currency = 'USD';
    expect(errors(bad.doc)).toEqual([`${SHIPMENT}.customs_information.items[0].currency: only AUD is supported (got "USD")`]);
    const quote = fixture('fixtures/quotes/syd-mel-single.yaml');
    quote.currency = 'USD';
    expect(errors(quote)).toEqual(['currency: only AUD is supported (got "USD")']);
  });
});

describe('collection type', () => {
  it('dropoff passes for AU → US and fails for AU → AU and NZ → US', () => {
    const ok = order();
    ok.s.collection_type = 'dropoff';
    ok.s.delivery.country = 'US';
    expect(errors(ok.doc)).toEqual([]);
    const domestic = order();
    domestic.s.collection_type = 'dropoff';
    expect(errors(domestic.doc)).toEqual([`${SHIPMENT}.collection_type: dropoff is only for shipments leaving Australia (AU → AU); use pickup`]);
    const fromNz = order();
    fromNz.s.collection_type = 'dropoff';
    fromNz.s.collection.country = 'NZ';
    fromNz.s.delivery.country = 'US';
    expect(errors(fromNz.doc)).toEqual([`${SHIPMENT}.collection_type: dropoff is only for shipments leaving Australia (NZ → US); use pickup`]);
  });

  it('pickup requires a collection with a pickup window', () => {
    const noPickup = order();
    delete noPickup.s.collection.pickup;
    expect(errors(noPickup.doc)).toEqual([`${SHIPMENT}.collection.pickup: required when collection_type is pickup (date, time_earliest, time_latest)`]);
    const noCollection = order();
    delete noCollection.s.collection;
    expect(errors(noCollection.doc)).toEqual([`${SHIPMENT}.collection: required when collection_type is pickup`]);
  });

  it('refuses other collection types', () => {
    const bad = order();
    bad.s.collection_type = 'courier';
    expect(errors(bad.doc)).toEqual([`${SHIPMENT}.collection_type: must be one of pickup, dropoff (got "courier")`]);
  });
});

describe('country codes (ISO 3166-1 alpha-2, from i18n-iso-countries)', () => {
  it('au passes and is sent as AU; XX, UK, AUS, Australia and Austrlia fail, with the code they mean', () => {
    const ok = order();
    ok.s.delivery.country = 'au';
    expect(value(ok.doc).order.shipments[0].delivery.country).toBe('AU');
    for (const [code, message] of [
      ['XX', 'unknown country code "XX" (ISO 3166-1 alpha-2, e.g. AU, US, GB)'],
      ['UK', 'unknown country code "UK" (did you mean GB?)'],
      ['AUS', 'expected a two-letter country code (got "AUS"; did you mean AU?)'],
      ['Australia', 'expected a two-letter country code (got "Australia"; did you mean AU?)'],
      ['Austrlia', 'expected a two-letter country code (got "Austrlia"; did you mean AU?)'],
      ['Atlantis', 'expected a two-letter country code (got "Atlantis")'],
    ]) {
      const bad = order();
      bad.s.delivery.country = code;
      expect(errors(bad.doc)).toEqual([`${SHIPMENT}.delivery.country: ${message}`]);
    }
  });

  it('madein is a two-letter code in create order, free text in create shipment', () => {
    const bad = order();
    bad.s.customs_information.items[0].madein = 'Australia';
    expect(errors(bad.doc)).toEqual([
      `${SHIPMENT}.customs_information.items[0].madein: expected a two-letter country code (got "Australia"; did you mean AU?)`,
    ]);
    const ok = order();
    ok.s.customs_information.items[0].madein = 'in';
    expect(value(ok.doc).order.shipments[0].customs_information.items[0].madein).toBe('IN');
    const shipment = fixture('fixtures/shipments/au-us-1.yaml');
    shipment.shipment.customs_information.items[0].madein = 'Australia';
    expect(errors(shipment, 'shipment')).toEqual([]);
  });

  it('checks quote countries too', () => {
    const quote = fixture('fixtures/quotes/syd-mel-single.yaml');
    quote.delivery_country = 'ZZ';
    expect(errors(quote)).toEqual(['delivery_country: unknown country code "ZZ" (ISO 3166-1 alpha-2, e.g. AU, US, GB)']);
  });
});

describe('customs reason and tax status', () => {
  it('reads the reason in any case and sends the capitalised form', () => {
    for (const [input, sent] of [
      ['personal effects', 'Personal Effects'],
      ['GIFT', 'Gift'],
      [' sample ', 'Sample'],
    ]) {
      const ok = order();
      ok.s.customs_information.reason = input;
      expect(value(ok.doc).order.shipments[0].customs_information.reason).toBe(sent);
    }
    const bad = order();
    bad.s.customs_information.reason = 'Gift wrap';
    expect(errors(bad.doc)).toEqual([
      `${SHIPMENT}.customs_information.reason: must be one of Gift, Purchase, Sale, Sample, Return, Repair, Personal Effects (got "Gift wrap")`,
    ]);
  });

  it('reads tax_status Private or Company in any case', () => {
    const ok = order();
    ok.s.customs_information.tax_status = 'private';
    expect(value(ok.doc).order.shipments[0].customs_information.tax_status).toBe('Private');
    const bad = order();
    bad.s.customs_information.tax_status = 'Business';
    expect(errors(bad.doc)).toEqual([`${SHIPMENT}.customs_information.tax_status: must be one of Private, Company (got "Business")`]);
  });

  it('requires lithium in create order', () => {
    const bad = order();
    delete bad.s.customs_information.lithium;
    expect(errors(bad.doc)).toEqual([`${SHIPMENT}.customs_information.lithium: required (true or false)`]);
  });
});

describe('packages', () => {
  it('unit is cm or in in any case; mm fails', () => {
    const ok = order();
    ok.s.packages[0].unit = 'IN';
    expect(value(ok.doc).order.shipments[0].packages[0].unit).toBe('in');
    const bad = order();
    bad.s.packages[0].unit = 'mm';
    expect(errors(bad.doc)).toEqual([`${SHIPMENT}.packages[0].unit: must be cm (centimetres, kilograms) or in (inches, pounds) (got "mm")`]);
  });

  it.each(['length', 'width', 'height', 'weight'])('%s: 0.01 and "30" pass; 0 and -1 fail', (field) => {
    for (const good of [0.01, '30']) {
      const ok = order();
      ok.s.packages[0][field] = good;
      expect(errors(ok.doc)).toEqual([]);
    }
    for (const bad of [0, -1]) {
      const b = order();
      b.s.packages[0][field] = bad;
      expect(errors(b.doc)).toEqual([`${SHIPMENT}.packages[0].${field}: must be greater than 0 (got ${bad})`]);
    }
  });
});

describe('item quantity', () => {
  it('1 passes; 0, 1.5 and "2" fail', () => {
    const ok = order();
    ok.s.customs_information.items[0].quantity = 1;
    expect(errors(ok.doc)).toEqual([]);
    for (const [q, message] of [
      [0, 'at least 1 (got 0)'],
      [1.5, 'must be a whole number (got 1.5)'],
      ['2', 'expected a whole number (got "2")'],
    ] as const) {
      const bad = order();
      bad.s.customs_information.items[0].quantity = q;
      expect(errors(bad.doc)).toEqual([`${SHIPMENT}.customs_information.items[0].quantity: ${message}`]);
    }
  });
});

describe('pickup date and times (ISO 8601)', () => {
  it('2028-02-29 passes; 2026-02-30 and 01/12/2026 fail', () => {
    const ok = order();
    ok.s.collection.pickup.date = '2028-02-29';
    expect(errors(ok.doc)).toEqual([]);
    for (const date of ['2026-02-30', '01/12/2026']) {
      const bad = order();
      bad.s.collection.pickup.date = date;
      expect(errors(bad.doc)).toEqual([`${SHIPMENT}.collection.pickup.date: expected an ISO 8601 date YYYY-MM-DD (got "${date}")`]);
    }
  });

  it('reads a response-style date with T00:00:00 as the date', () => {
    const ok = order();
    ok.s.collection.pickup.date = '2026-12-01T00:00:00';
    expect(value(ok.doc).order.shipments[0].collection.pickup.date).toBe('2026-12-01');
  });

  it('the earliest time must be before the latest: 09:00–09:01 passes, equal or reversed fails', () => {
    const ok = order();
    Object.assign(ok.s.collection.pickup, { time_earliest: '09:00', time_latest: '09:01' });
    expect(errors(ok.doc)).toEqual([]);
    for (const [earliest, latest] of [
      ['09:00', '09:00'],
      ['15:00', '09:00'],
    ]) {
      const bad = order();
      Object.assign(bad.s.collection.pickup, { time_earliest: earliest, time_latest: latest });
      expect(errors(bad.doc)).toEqual([`${SHIPMENT}.collection.pickup.time_latest: must be after time_earliest (${earliest}, got ${latest})`]);
    }
  });

  it('refuses times that are not ISO 8601 times, with one message each', () => {
    const bad = order();
    bad.s.collection.pickup.time_latest = '24:00';
    expect(errors(bad.doc)).toEqual([
      `${SHIPMENT}.collection.pickup.time_latest: expected an ISO 8601 time such as 09:00, 09:00:00 or 09:00:00+10:00 (got "24:00"); 24:00 is not taken for the end of the day: write 23:59`,
    ]);
  });

  it('accepts the extended forms with seconds, fractions and offsets, sent as written', () => {
    for (const [earliest, latest] of [
      ['09:00:00', '17:00:00'],
      ['09:00:00.5', '17:00:00,25'],
      ['09:00:00+10:00', '17:00:00+10:00'],
      ['09:00+1000', '17:00+10'],
      ['08:00Z', '17:30Z'],
    ]) {
      const ok = order();
      Object.assign(ok.s.collection.pickup, { time_earliest: earliest, time_latest: latest });
      expect(errors(ok.doc), `${earliest}–${latest}`).toEqual([]);
      expect(value(ok.doc).order.shipments[0].collection.pickup).toMatchObject({ time_earliest: earliest, time_latest: latest });
    }
  });

  it('compares two times with offsets in UTC: 09:00+10:00 is before 08:00+08:00', () => {
    const ok = order();
    Object.assign(ok.s.collection.pickup, { time_earliest: '09:00+10:00', time_latest: '08:00+08:00' });
    expect(errors(ok.doc)).toEqual([]);
    const bad = order();
    Object.assign(bad.s.collection.pickup, { time_earliest: '09:00+08:00', time_latest: '10:00+10:00' });
    expect(errors(bad.doc)).toEqual([`${SHIPMENT}.collection.pickup.time_latest: must be after time_earliest (09:00+08:00, got 10:00+10:00)`]);
  });

  it('shows the time an unquoted YAML 0900 (read as the number 900) was meant to be', () => {
    const bad = order();
    Object.assign(bad.s.collection.pickup, { time_earliest: 900, time_latest: '17:00' });
    expect(errors(bad.doc)).toEqual([`${SHIPMENT}.collection.pickup.time_earliest: expected a time HH:MM (got 900); write it with colons: 09:00`]);
  });

  it('refuses the basic form 0900 with one clear message, not a second "must be after time_earliest"', () => {
    const bad = order();
    Object.assign(bad.s.collection.pickup, { time_earliest: '0900', time_latest: '17:00' });
    expect(errors(bad.doc)).toEqual([
      `${SHIPMENT}.collection.pickup.time_earliest: expected an ISO 8601 time such as 09:00, 09:00:00 or 09:00:00+10:00 (got "0900"); write it with colons: 09:00`,
    ]);
  });
});

describe('e-mail addresses', () => {
  it('tom@example.com passes; tom@ and "tom example.com" fail', () => {
    const ok = order();
    ok.s.delivery.email = ' tom@example.com ';
    expect(value(ok.doc).order.shipments[0].delivery.email).toBe('tom@example.com');
    for (const email of ['tom@', 'tom example.com']) {
      const bad = order();
      bad.s.delivery.email = email;
      expect(errors(bad.doc)).toEqual([`${SHIPMENT}.delivery.email: not an e-mail address (got "${email}")`]);
    }
  });
});

describe('payment details (accept order), clock at 21 November 2026', () => {
  const card = (over: Record<string, unknown>) => ({
    order: {
      payment: { type: 'credit_card', credit_card: { number: '4111 1111 1111 1111', cvv: '123', holder_name: 'Priya Raman', expire: '08/29', ...over } },
    },
  });

  it('expiry: this month (11/26) passes, last month (10/26) fails, 13/27 and 1/27 are not MM/YY', () => {
    expect(errors(card({ expire: '11/26' }))).toEqual([]);
    expect(errors(card({ expire: '10/26' }))).toEqual(['order.payment.credit_card.expire: the card has expired']);
    for (const expire of ['13/27', '1/27']) {
      expect(errors(card({ expire }))).toEqual(['order.payment.credit_card.expire: expected MM/YY, two-digit month and year']);
    }
  });

  it('card number: passes the Luhn check (spaces and dashes allowed), one wrong digit fails', () => {
    expect(errors(card({ number: '4111-1111-1111-1111' }))).toEqual([]);
    expect(errors(card({ number: '4111 1111 1111 1112' }))).toEqual([
      'order.payment.credit_card.number: not a valid card number (12 to 19 digits passing the Luhn check)',
    ]);
  });

  it('CVV: 3 or 4 digits pass, 2 or 5 fail', () => {
    expect(errors(card({ cvv: '123' }))).toEqual([]);
    expect(errors(card({ cvv: '1234' }))).toEqual([]);
    for (const cvv of ['12', '12345']) expect(errors(card({ cvv }))).toEqual(['order.payment.credit_card.cvv: must be 3 or 4 digits']);
  });

  it('never echoes a card field, even a CVV typed into the expiry', () => {
    const messages = [
      ...errors(card({ expire: '737' })),
      ...errors(card({ expire: 737 })),
      ...errors(card({ holder_name: 4111111111111111 })),
      ...errors(card({ number: 'x9731x', cvv: '9731x' })),
    ];
    expect(messages.length).toBeGreaterThanOrEqual(4);
    for (const m of messages) {
      expect(m).not.toMatch(/737|4111111111111111|9731/);
    }
  });

  it('never shows the card number or CVV in a problem', () => {
    const messages = errors(card({ number: '4111 1111 1111 1112', cvv: '99' })).join('\n');
    expect(messages).not.toContain('1112');
    expect(messages).not.toContain('99');
  });
});

describe('unknown fields', () => {
  it('reports a misspelt field at its own path, with the field it was probably meant to be', () => {
    const bad = order();
    bad.s.delivery.adress_lines = bad.s.delivery.address_lines;
    delete bad.s.delivery.address_lines;
    expect(errors(bad.doc)).toEqual([
      `${SHIPMENT}.delivery.address_lines: required`,
      `${SHIPMENT}.delivery.adress_lines: unknown field (did you mean address_lines?)`,
    ]);
  });

  it('reports a field that belongs nowhere without a guess', () => {
    const bad = order();
    bad.s.delivery.favourite_colour = 'teal';
    expect(errors(bad.doc)).toEqual([`${SHIPMENT}.delivery.favourite_colour: unknown field`]);
  });

  it('allows blank optional text (company, transient_id, customs description) as absent', () => {
    const ok = order();
    ok.s.delivery.company = '';
    ok.s.transient_id = null;
    ok.s.customs_information.description = ' ';
    const sent = value(ok.doc).order.shipments[0];
    expect(sent.delivery.company).toBeUndefined();
    expect(sent.transient_id).toBeUndefined();
    expect(JSON.stringify(sent.delivery)).not.toContain('"company"');
    expect(JSON.stringify(sent)).not.toContain('transient_id');
  });
});

describe('warnings: probably a mistake, but allowed', () => {
  it('a pickup date before today is an error naming the next collection day; moved with --roll-pickup-dates, sent with --allow-pickup-date', async () => {
    // NOW is Saturday 21 November 2026, 23:00 in Sydney: the next collection day is Monday the 23rd.
    const calendar = await loadCollectionCalendar();
    const rule = (flags: PickupFlags = {}) => pickupRuleWith(calendar, undefined, flags, () => NOW);
    const past = order();
    past.s.collection.pickup.date = '2026-11-14';
    const refused = validateBytes('doc.json', Buffer.from(JSON.stringify(past.doc)), { now: () => NOW, pickup: rule() });
    expect(refused.issues.map((i) => `${i.severity} ${i.path}: ${i.message}`)).toEqual([
      `error ${SHIPMENT}.collection.pickup.date: pickup date 2026-11-14 is in the past (today is Saturday 21 November in NSW); the next collection day is Monday 23 November (2026-11-23): write it, or book with --roll-pickup-dates`,
    ]);
    const rolled = validateBytes('doc.json', Buffer.from(JSON.stringify(past.doc)), { now: () => NOW, pickup: rule({ rollPickupDates: true }) });
    expect(rolled.valid).toBe(true);
    expect(rolled.issues.map((i) => i.message)).toEqual([
      'pickup date 2026-11-14 is in the past (today is Saturday 21 November in NSW): moved to Monday 23 November (2026-11-23) by --roll-pickup-dates',
    ]);
    const allowed = validateBytes('doc.json', Buffer.from(JSON.stringify(past.doc)), { now: () => NOW, pickup: rule({ allowPickupDate: true }) });
    expect(allowed.issues.map((i) => `${i.severity} ${i.message}`)).toEqual([
      'warning pickup date 2026-11-14 is in the past (today is Saturday 21 November in NSW): sent as it is (--allow-pickup-date)',
    ]);
    const monday = order();
    monday.s.collection.pickup.date = '2026-11-23';
    expect(validateBytes('doc.json', Buffer.from(JSON.stringify(monday.doc)), { now: () => NOW, pickup: rule() }).issues).toEqual([]);
  });

  it('a pickup without times gets the window, and a window under two hours is an error', async () => {
    const calendar = await loadCollectionCalendar();
    const rule = pickupRuleWith(calendar, undefined, {}, () => NOW);
    const bare = order();
    bare.s.collection.pickup = { date: 'next' };
    const filled = validateBytes('doc.json', Buffer.from(JSON.stringify(bare.doc)), { kind: 'order', now: () => NOW, pickup: rule });
    expect(filled.issues).toEqual([]);
    const short = order();
    short.s.collection.pickup = { date: 'next', time_earliest: '09:00', time_latest: '10:30' };
    expect(
      validateBytes('doc.json', Buffer.from(JSON.stringify(short.doc)), { kind: 'order', now: () => NOW, pickup: rule }).issues.map((i) => i.message),
    ).toEqual(["the pickup window 09:00-10:30 is 1 h 30 min, shorter than the 2 h carriers need (the profile's pickup.min-window)"]);
  });

  it('a package over 30 kg warns (30 kg does not); pounds are converted (66 lb does not, 67 lb does)', () => {
    const at = order();
    at.s.packages[0].weight = 30;
    expect(warnings(at.doc)).toEqual([]);
    const over = order();
    over.s.packages[1].weight = 30.01;
    expect(warnings(over.doc)).toEqual([`${SHIPMENT}.packages[1].weight: over 30 kg for one package (got 30.01 kg); check the weight and the unit`]);
    const lb = order();
    Object.assign(lb.s.packages[0], { unit: 'in', weight: 66 });
    expect(warnings(lb.doc)).toEqual([]);
    lb.s.packages[0].weight = 67;
    expect(warnings(lb.doc)).toEqual([`${SHIPMENT}.packages[0].weight: over 30 kg for one package (got 67 lb = 30.39 kg); check the weight and the unit`]);
  });

  it('warns on quote packages too', () => {
    const quote = fixture('fixtures/quotes/syd-mel-single.yaml');
    quote.packages[0].weight = 45;
    expect(warnings(quote)).toEqual(['packages[0].weight: over 30 kg for one package (got 45 kg); check the weight and the unit']);
  });
});

describe('free-text fields the service gives no limit for have a sane cap', () => {
  it('a 4,000,000-character postcode, city or service code is an error, not a 413 from the service', async () => {
    const { TEXT_LIMITS, MAX_REQUEST_BYTES } = await import('../../src/schema/limits.js');
    const { MAX_BODY_BYTES } = await import('../../src/sandbox/server.js');
    expect(MAX_REQUEST_BYTES).toBe(MAX_BODY_BYTES);
    const huge = 'x'.repeat(4_000_000);
    const cases: Array<[string, (s: Record<string, any>) => void, number]> = [
      ['delivery.postcode', (s) => (s.delivery.postcode = huge), TEXT_LIMITS.postcode],
      ['delivery.city', (s) => (s.delivery.city = huge), TEXT_LIMITS.city],
      ['delivery.phone', (s) => (s.delivery.phone = huge), TEXT_LIMITS.phone],
      ['service.code', (s) => (s.service.code = huge), TEXT_LIMITS.code],
    ];
    for (const [path, set, max] of cases) {
      const bad = order();
      set(bad.s);
      expect(errors(bad.doc)).toEqual([`${SHIPMENT}.${path}: at most ${max} characters (got 4000000)`]);
    }
  });
});

describe('the whole request and the sandbox limits', () => {
  it('refuses an order whose request would be over 1 MiB, naming the size', () => {
    const big = order();
    const first = big.s.packages[0];
    big.s.packages = Array.from({ length: 20_000 }, () => ({ ...first }));
    const found = errors(big.doc);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^: the request would be [\d,]+ bytes, over the 1,048,576-byte \(1 MiB\) request limit/);
  });

  it('checks consolidated mail request by request: each shipment and the combine', () => {
    const doc = fixture('fixtures/consolidated/three-parcels.yaml');
    expect(errors(doc)).toEqual([]);
    const first = doc.shipments[1].packages[0];
    doc.shipments[1].packages = Array.from({ length: 20_000 }, () => ({ ...first }));
    expect(errors(doc)).toEqual([expect.stringMatching(/^shipments\[1\]: the request would be [\d,]+ bytes/)]);
  });

  it("warns (does not refuse) for a package over the sandbox's 1000 kg chargeable weight, actual or cubic", () => {
    const heavy = order();
    heavy.s.packages[0] = { length: 200, width: 200, height: 101, weight: 2, unit: 'cm' }; // 1010 kg cubic
    expect(errors(heavy.doc)).toEqual([]);
    expect(warnings(heavy.doc)).toContain(
      "order.shipments[0].packages[0]: chargeable weight 1010 kg (actual or cubic, L×W×H cm / 4000) is over the sandbox's limit of 1000 kg per package: the sandbox refuses it (the real service's limit is not documented)",
    );
    const fine = order();
    fine.s.packages[0] = { length: 200, width: 200, height: 100, weight: 2, unit: 'cm' }; // exactly 1000 kg
    expect(warnings(fine.doc).filter((w) => w.includes("sandbox's limit"))).toEqual([]);
  });
});

describe('save of a payment (accept order): only for credit_card', () => {
  const payment = (p: Record<string, unknown>) => ({ order: { payment: p } });

  it('refuses save with credit or stored_card, under options or on the stored card, naming the field', () => {
    expect(errors(payment({ type: 'credit', options: { save: true } }), 'accept')).toEqual([
      'order.payment.options.save: save is only for credit_card: a credit payment stores no card; remove it',
    ]);
    expect(errors(payment({ type: 'stored_card', credit_card: { id: 'card_visa_4242', save: false } }), 'accept')).toEqual([
      'order.payment.credit_card.save: save is only for credit_card: a stored_card payment stores no card; remove it',
    ]);
  });

  it('still takes save with credit_card, under the card or under options', () => {
    const card = { number: '4111 1111 1111 1111', cvv: '123', holder_name: 'Priya Raman', expire: '08/29' };
    expect(value(payment({ type: 'credit_card', credit_card: { ...card, save: true } }), 'accept').order.payment.credit_card.save).toBe(true);
    expect(value(payment({ type: 'credit_card', credit_card: card, options: { save: true } }), 'accept').order.payment.credit_card.save).toBe(true);
  });
});

describe("a quote service entry pasted as a shipment's service", () => {
  const entry = {
    code: 'SB-DOM-ROAD',
    name: 'Sandbox Road\nEconomy',
    carrier: 'Sandbox Freight',
    global_mail: false,
    price: { currency: 'AUD', amount: 12.5, total: 13.75, gst: 1.25, insurance: 0 },
  };

  it('is accepted; only code and options are kept, and one warning says the rest is ignored', () => {
    const ok = order();
    ok.s.service = { ...entry, options: ['insurance'] };
    expect(errors(ok.doc)).toEqual([]);
    expect(value(ok.doc).order.shipments[0].service).toEqual({ code: 'SB-DOM-ROAD', options: ['insurance'] });
    expect(warnings(ok.doc)).toEqual([
      `${SHIPMENT}.service: a quote service entry: only its code and options are sent; name, carrier, global_mail, price are ignored`,
    ]);
  });

  it('says it once for a document with several such services', () => {
    const ok = order();
    ok.s.service = entry;
    ok.doc.order.shipments.push(structuredClone(ok.s));
    const said = warnings(ok.doc).filter((w) => w.includes('quote service entry'));
    expect(said).toEqual([
      `${SHIPMENT}.service: a quote service entry: only its code and options are sent; name, carrier, global_mail, price are ignored (in 2 services of this document)`,
    ]);
  });

  it('still refuses a member a quote entry does not have', () => {
    const bad = order();
    bad.s.service = { ...entry, colour: 'red' };
    expect(errors(bad.doc)).toEqual([`${SHIPMENT}.service.colour: unknown field`]);
  });
});

describe('customs items: at least one in create order only', () => {
  it('refuses items: [] in create order', () => {
    const bad = order();
    bad.s.customs_information.items = [];
    expect(errors(bad.doc)).toEqual([`${SHIPMENT}.customs_information.items: at least 1 item`]);
  });

  it('takes items: [] in create shipment and the main shipment, with a warning that the service may refuse it', () => {
    const shipment = fixture('fixtures/shipments/au-jp-1.yaml');
    const s = shipment.shipment ?? shipment;
    s.customs_information.items = [];
    expect(errors(shipment, 'shipment')).toEqual([]);
    expect(warnings(shipment, 'shipment')).toContainEqual(
      expect.stringMatching(/customs_information\.items: no customs item: allowed here, but the service may refuse it/),
    );
    const main = fixture('fixtures/shipments/main-to-hub.yaml');
    const m = main.main_shipment ?? main.shipment ?? main;
    m.customs_information.items = [];
    expect(errors(main, 'main')).toEqual([]);
    expect(warnings(main, 'main').some((w) => w.includes('no customs item'))).toBe(true);
  });
});

describe('quote insurance', () => {
  it("sends an amount as a decimal number and the boolean-looking form as the example's string", () => {
    const quote = fixture('fixtures/quotes/syd-mel-single.yaml');
    const q = quote.request ?? quote;
    for (const [given, sent] of [
      [true, 'true'],
      ['TRUE', 'true'],
      [false, 'false'],
      ['false', 'false'],
    ] as const) {
      q.insurance = given;
      expect(value(quote, 'quote').insurance).toBe(sent);
    }
    q.insurance = '150.5';
    expect(JSON.parse(JSON.stringify({ v: value(quote, 'quote').insurance.toNumber() }))).toEqual({ v: 150.5 });
  });
});
