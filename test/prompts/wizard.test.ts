/**
 * The wizard's parts with scripted answers (test/helpers/prompter.ts: an unexpected question or an
 * unused answer fails the test): each answer checked by the same schemas and messages as files.
 */
import { loadCollectionCalendar } from '../../src/booking/pickup/calendar.js';
import { pickupRuleWith } from '../../src/booking/pickup/rule.js';
import { describe, expect, it } from 'vitest';
import { scripted } from '../helpers/prompter.js';
import { createOrderRequest } from '../../src/schema/order.js';
import { Money } from '../../src/schema/money.js';
import type { QuoteServiceEntry } from '../../src/schema/quote.js';
import type { PromptIO } from '../../src/prompts/ask.js';
import { askAddress, askCountry } from '../../src/prompts/address.js';
import { askCollectionType, askPickup, askSender, nextWorkingDay, pickupDateProblem, pickupUntilProblem } from '../../src/prompts/collection.js';
import { countryChoices, searchCountries } from '../../src/prompts/countries.js';
import { askCustoms } from '../../src/prompts/customs.js';
import { askPackages } from '../../src/prompts/packages.js';
import { askPayment } from '../../src/prompts/payment.js';
import { askService, pickService, quoteRequestFor } from '../../src/prompts/service.js';
import { completeShipment, missingInputError, missingParts } from '../../src/prompts/order.js';
import { renderSummary } from '../../src/prompts/summary.js';
import { overMaxTotal, parseCap } from '../../src/booking/limits.js';
import { savedDocumentText } from '../../src/prompts/save.js';
import { LimitRefusedError } from '../../src/errors.js';
import { parse } from 'yaml';

// A Wednesday, noon local time.
const NOW = new Date(2026, 10, 25, 12, 0, 0);

function promptIO(answers: Parameters<typeof scripted>[0]) {
  const prompter = scripted(answers);
  const said: string[] = [];
  const io: PromptIO = { prompter, say: (t) => said.push(t), now: () => NOW };
  return { io, prompter, said };
}

const SENDER = {
  first_name: 'Priya',
  last_name: 'Raman',
  email: 'dispatch@example.com.au',
  phone: '+61 2 9555 0142',
  country: 'AU',
  postcode: '2015',
  city: 'Alexandria',
  address_lines: ['Unit 4, 18 Bourke Road'],
};

function service(code: string, total: string, global_mail = false): QuoteServiceEntry {
  const m = (s: string) => new Money(Math.round(Number(s) * 100));
  return {
    code,
    name: `${code} name`,
    carrier: 'Sandbox Post',
    global_mail,
    price: { currency: 'AUD', amount: m(total), total: m(total), gst: m('0'), insurance: m('0') },
  } as QuoteServiceEntry;
}

describe('countries', () => {
  it('finds New Zealand by typing "new z", the UK by its alias, Australia by its code', () => {
    expect(searchCountries('new z')[0]!.code).toBe('NZ');
    expect(searchCountries('uk')[0]!.code).toBe('GB');
    expect(searchCountries('au')[0]!.code).toBe('AU');
    expect(countryChoices('germ')[0]).toEqual({ name: 'Germany (DE)', value: 'DE' });
    expect(searchCountries('').length).toBeGreaterThan(240);
  });

  it('takes no country on Enter before anything is typed, unless one is proposed', async () => {
    await expect(askCountry(promptIO({ 'Recipient country (type to search)': '' }).io, 'Recipient country (type to search)')).rejects.toThrow(
      'no choice of "Recipient country (type to search)" matches ""',
    );
    expect(await askCountry(promptIO({ 'Item 1 made in (type to search)': '' }).io, 'Item 1 made in (type to search)', 'AU')).toBe('AU');
  });
});

describe('address', () => {
  it('asks every field, refuses a 36-character name and a bad e-mail with the file messages, and asks again', async () => {
    const { io, prompter } = promptIO({
      'Recipient first name': ['A'.repeat(36), 'Tom'],
      'Recipient last name': 'Nguyen',
      'Recipient company (optional, Enter to skip)': '',
      'Recipient e-mail': ['tom at example', 'tom@example.com'],
      'Recipient phone': '+64 21 555 0190',
      'Recipient country (type to search)': 'new z',
      'Recipient postcode': '6011',
      'Recipient city': 'Wellington',
      'Recipient address line 1': '12 Cuba Street',
      'Recipient address line 2 (optional, Enter to skip)': ['B'.repeat(36), 'Flat 3'],
      'Recipient address line 3 (optional, Enter to skip)': '',
    });
    const address = await askAddress(io, { who: 'Recipient', kind: 'order' });
    expect(address).toEqual({
      first_name: 'Tom',
      last_name: 'Nguyen',
      email: 'tom@example.com',
      phone: '+64 21 555 0190',
      country: 'NZ',
      postcode: '6011',
      city: 'Wellington',
      address_lines: ['12 Cuba Street', 'Flat 3'],
    });
    expect(prompter.refused.map((r) => r.reason)).toEqual([
      'at most 35 characters (got 36)',
      'not an e-mail address (got "tom at example")',
      'at most 35 characters (got 36)',
    ]);
  });
});

describe('collection', () => {
  it('offers the saved senders first and copies the one picked', async () => {
    const { io } = promptIO({ 'Collect from': 'warehouse' });
    const { address, saved } = await askSender(io, { warehouse: SENDER }, 'order');
    expect(saved).toBe('warehouse');
    expect(address).toEqual(SENDER);
    expect(address).not.toBe(SENDER);
  });

  it('defaults the pickup to the next working day 09:00-17:00 and refuses a latest time before the earliest', async () => {
    expect(nextWorkingDay(new Date(2026, 10, 27, 12))).toBe('2026-11-30'); // Friday → Monday
    const { io, prompter } = promptIO({ 'Pickup date (YYYY-MM-DD)': '', 'Pickup from (HH:MM)': '', 'Pickup until (HH:MM)': ['08:00', ''] });
    expect(await askPickup(io)).toEqual({ date: '2026-11-26', time_earliest: '09:00', time_latest: '17:00' });
    expect(prompter.refused[0]!.reason).toBe('must be later than the "from" time, 09:00 (got 08:00)');
  });

  it('offers the next five collection days of the collection address by weekday, and checks another day typed', async () => {
    // NOW is Wednesday 25 November, noon UTC: 23:00 in Sydney, past the 14:00 cut-off.
    const pickup = pickupRuleWith(await loadCollectionCalendar(), undefined, {}, () => NOW);
    const sydney = { country: 'AU', postcode: '2000', city: 'Sydney' };
    const listed = promptIO({ 'Pickup day': '2026-11-28' });
    await expect(askPickup({ ...listed.io, pickup }, undefined, sydney)).rejects.toThrow(
      '(2026-11-26, 2026-11-27, 2026-11-30, 2026-12-01, 2026-12-02, \u0000other)',
    );
    const { io, prompter } = promptIO({
      'Pickup day': '\u0000other',
      'Pickup date (YYYY-MM-DD)': ['2026-11-28', '2026-12-03'],
      'Pickup from (HH:MM)': '',
      'Pickup until (HH:MM)': '',
    });
    expect(await askPickup({ ...io, pickup }, undefined, sydney)).toEqual({ date: '2026-12-03', time_earliest: '09:00', time_latest: '15:00' });
    expect(prompter.refused[0]!.reason).toBe(
      'pickup date 2026-11-28 is a Saturday: carriers do not collect on weekends; the next collection day is Thursday 26 November (2026-11-26)',
    );
  });

  it("refuses a day that does not exist, a day in the past and a badly written date, in the question's words", () => {
    // NOW is Wednesday 2026-11-25, local time.
    expect(pickupDateProblem('2026-02-30', NOW)).toBe('2026-02-30 is not a day: February 2026 has 28 days');
    expect(pickupDateProblem('2028-02-29', NOW)).toBe(true);
    expect(pickupDateProblem('2027-02-29', NOW)).toBe('2027-02-29 is not a day: February 2027 has 28 days');
    expect(pickupDateProblem('2026-12-31', NOW)).toBe(true);
    expect(pickupDateProblem('2026-11-31', NOW)).toBe('2026-11-31 is not a day: November 2026 has 30 days');
    expect(pickupDateProblem('2026-13-01', NOW)).toBe('2026-13-01 is not a day: there is no month 13 (01 to 12)');
    expect(pickupDateProblem('2026-11-24', NOW)).toBe('2026-11-24 is in the past (today is 2026-11-25)');
    expect(pickupDateProblem('2026-11-25', NOW)).toBe(true);
    expect(pickupDateProblem('25/11/2026', NOW)).toBe('expected a date as YYYY-MM-DD, e.g. 2026-11-26 (got "25/11/2026")');
  });

  it('refuses an "until" time that is not later than the "from" time, never naming a wire field', () => {
    expect(pickupUntilProblem('17:00', '09:00')).toBe(true);
    expect(pickupUntilProblem('09:00', '09:00')).toBe('must be later than the "from" time, 09:00 (got 09:00)');
    expect(pickupUntilProblem('08:30', '09:00')).toBe('must be later than the "from" time, 09:00 (got 08:30)');
    expect(pickupUntilProblem('5pm', '09:00')).toMatch(/^expected an ISO 8601 time such as 09:00/);
    expect(pickupUntilProblem('08:00', '09:00')).not.toMatch(/time_earliest|time_latest/);
  });

  it('asks the date again until it is a real day that is not past', async () => {
    const { io, prompter } = promptIO({
      'Pickup date (YYYY-MM-DD)': ['2026-02-30', '2026-11-20', '2026-12-01'],
      'Pickup from (HH:MM)': '',
      'Pickup until (HH:MM)': '',
    });
    expect((await askPickup(io)).date).toBe('2026-12-01');
    expect(prompter.refused.map((r) => r.reason)).toEqual([
      '2026-02-30 is not a day: February 2026 has 28 days',
      '2026-11-20 is in the past (today is 2026-11-25)',
    ]);
  });

  it('offers drop-off only for shipments leaving Australia', async () => {
    const { io } = promptIO({ 'How does the parcel reach the carrier?': 'dropoff' });
    expect(await askCollectionType(io, 'AU', 'AU')).toBe('pickup');
    expect(await askCollectionType(io, 'NZ', 'AU')).toBe('pickup');
    expect(await askCollectionType(io, 'AU', 'NZ')).toBe('dropoff');
  });
});

describe('packages', () => {
  it('asks the unit system once, then each package, refusing a zero weight and a word', async () => {
    const { io, prompter } = promptIO({
      'Units for the packages': 'in',
      'Package 1 length (in)': '12',
      'Package 1 width (in)': '10',
      'Package 1 height (in)': '8',
      'Package 1 weight (lb)': ['0', '4.5'],
      'Add another package?': [true, false],
      'Package 2 length (in)': ['ten', '10'],
      'Package 2 width (in)': '6',
      'Package 2 height (in)': '4',
      'Package 2 weight (lb)': '1',
    });
    expect(await askPackages(io)).toEqual([
      { length: 12, width: 10, height: 8, weight: 4.5, unit: 'in' },
      { length: 10, width: 6, height: 4, weight: 1, unit: 'in' },
    ]);
    expect(prompter.refused.map((r) => r.reason)).toEqual(['must be greater than 0 (got 0)', 'expected a number (got "ten")']);
    expect(prompter.asked.filter((q) => q === 'Units for the packages')).toHaveLength(1);
  });

  it('returns packages in the shape files use', async () => {
    const { io } = promptIO({
      'Units for the packages': '',
      'Package 1 length (cm)': '40',
      'Package 1 width (cm)': '30',
      'Package 1 height (cm)': '25',
      'Package 1 weight (kg)': '6.5',
      'Add another package?': false,
    });
    expect(await askPackages(io)).toEqual([{ length: 40, width: 30, height: 25, weight: 6.5, unit: 'cm' }]);
  });
});

describe('customs', () => {
  it('shows the running total and refuses an item that takes it above 7,500 AUD', async () => {
    const { io, prompter, said } = promptIO({
      'Reason for export': 'Gift',
      'Tax status': 'Private',
      'Does the shipment contain lithium batteries?': false,
      'Item 1 description': 'Camera',
      'Item 1 quantity': '2',
      'Item 1 value of one item (AUD)': '3000',
      'Item 1 made in (type to search)': 'japan',
      'Add another item?': [true, false],
      'Item 2 description': 'Lens',
      'Item 2 quantity': '',
      'Item 2 value of one item (AUD)': ['1500.01', '12.345', '1500'],
      'Item 2 made in (type to search)': 'germany',
    });
    const customs = await askCustoms(io, { kind: 'order', from: 'AU', to: 'NZ' });
    expect(customs).toEqual({
      reason: 'Gift',
      tax_status: 'Private',
      lithium: false,
      items: [
        { description: 'Camera', quantity: 2, value: 3000, currency: 'AUD', madein: 'JP' },
        { description: 'Lens', quantity: 1, value: 1500, currency: 'AUD', madein: 'DE' },
      ],
    });
    expect(prompter.refused.map((r) => r.reason)).toEqual([
      'total item value at most 7500.00 AUD (got 7500.01)',
      'at most 2 decimal places in AUD (got 12.345)',
    ]);
    expect(said).toEqual([
      'Items so far: 1, total 6,000.00 AUD of at most 7,500.00 AUD (1,500.00 left)',
      'Items so far: 2, total 7,500.00 AUD of at most 7,500.00 AUD (0.00 left)',
    ]);
  });
});

describe('customs inside one country', () => {
  it("does not call it an export, and proposes the sender's country as where the goods were made", async () => {
    const { io, prompter } = promptIO({
      'Reason for sending': '',
      'Tax status': '',
      'Does the shipment contain lithium batteries?': '',
      'Item 1 description': 'Plates',
      'Item 1 quantity': '',
      'Item 1 value of one item (AUD)': '18.50',
      'Item 1 made in (type to search)': '',
      'Add another item?': '',
    });
    const customs = await askCustoms(io, { kind: 'order', from: 'AU', to: 'AU' });
    expect(customs.items).toEqual([{ description: 'Plates', quantity: 1, value: 18.5, currency: 'AUD', madein: 'AU' }]);
    expect(prompter.asked.join(' ')).not.toMatch(/export/i);
  });
});

describe('service', () => {
  const services = [service('SB-DOM-EXP', '54.78'), service('SB-GLOBAL-MAIL', '9.00', true), service('SB-DOM-ROAD', '38.50')];

  it('offers the regular services cheapest first and takes the one picked', async () => {
    const { io } = promptIO({ 'Service (cheapest first)': 'SB-DOM-EXP' });
    expect((await askService(io, services, 'order')).code).toBe('SB-DOM-EXP');
  });

  it('highlights the cheapest by default', async () => {
    const { io } = promptIO({ 'Service (cheapest first)': '' });
    expect((await askService(io, services, 'order')).code).toBe('SB-DOM-ROAD');
  });

  it('chooses without prompts: cheapest, a code, or an error listing the offers', () => {
    expect(pickService(services, { cheapest: true }, 'order').code).toBe('SB-DOM-ROAD');
    expect(pickService(services, { cheapest: true }, 'shipment').code).toBe('SB-GLOBAL-MAIL');
    expect(pickService(services, { code: 'sb-dom-exp' }, 'order').code).toBe('SB-DOM-EXP');
    expect(() => pickService(services, { code: 'SB-NOPE' }, 'order')).toThrow(
      'service SB-NOPE is not offered for the shipment; offered: SB-DOM-ROAD (38.50 AUD), SB-DOM-EXP (54.78 AUD)',
    );
  });

  it('quotes the route and packages of a shipment with the customs total as the value', () => {
    const q = quoteRequestFor({
      collection: SENDER,
      delivery: { country: 'NZ', postcode: '6011', city: 'Wellington' },
      packages: [{ length: 10, width: 10, height: 10, weight: 1, unit: 'cm' }],
      customs_information: { items: [{ description: 'x', quantity: 3, value: 12.5, currency: 'AUD', madein: 'AU' }] },
    });
    expect(q).toMatchObject({ collection_country: 'AU', delivery_country: 'NZ', delivery_city: 'Wellington', currency: 'AUD' });
    expect(q.value?.cents).toBe(3750);
  });
});

describe('payment', () => {
  it('takes a new card with the Luhn check, MM/YY and a hidden CVV', async () => {
    const { io, prompter } = promptIO({
      Payment: 'credit_card',
      'Card number': ['4111 1111 1111 1112', '4111 1111 1111 1111'],
      'Expiry (MM/YY)': ['13/30', '10/26', '08/29'],
      CVV: ['12', '123'],
      'Name on the card': 'Priya Raman',
      'Save the card with the service for next time?': false,
    });
    expect(await askPayment(io)).toEqual({
      type: 'credit_card',
      credit_card: { number: '4111111111111111', expire: '08/29', cvv: '123', holder_name: 'Priya Raman' },
    });
    const reasons = prompter.refused.map((r) => r.reason);
    expect(reasons).toEqual([
      'not a valid card number (12 to 19 digits passing the Luhn check)',
      'expected MM/YY, two-digit month and year',
      'the card has expired',
      'must be 3 or 4 digits',
    ]);
    // The refusals never repeat what was typed into a card field (a card number or CVV is never echoed).
    expect(reasons.join(' ')).not.toContain('4111');
    expect(reasons.join(' ')).not.toMatch(/13\/30|10\/26/);
  });

  it('takes the credit account or a stored card id', async () => {
    expect(await askPayment(promptIO({ Payment: '' }).io)).toEqual({ type: 'credit' });
    const { io } = promptIO({ Payment: 'stored_card', 'Stored card id': '' });
    expect(await askPayment(io, { defaultType: 'stored_card', defaultCard: 'card_visa_4242' })).toEqual({ type: 'stored_card', credit_card: 'card_visa_4242' });
  });
});

describe('completing a partial order', () => {
  const partial = () => ({
    collection_type: 'pickup',
    collection: { ...SENDER },
    packages: [{ length: 40, width: 30, height: 25, weight: 6.5, unit: 'cm' }],
    customs_information: {
      reason: 'Sale',
      tax_status: 'Company',
      lithium: false,
      items: [{ description: 'Plates', quantity: 2, value: 18.5, currency: 'AUD', madein: 'AU' }],
    },
    description: 'Homewares',
  });

  it('lists what is missing and what supplies it', () => {
    const missing = missingParts(partial(), ['order', 'shipments', 0]);
    expect(missing.map((m) => m.part)).toEqual(['delivery', 'pickup', 'service']);
    const err = missingInputError(missing, { file: 'partial.yaml', locate: () => ({ line: 3, column: 7 }) });
    expect(err.exitCode).toBe(2);
    expect(err.issues.map((i) => `${i.file}:${i.line}:${i.column} ${i.path} ${i.message}`)).toEqual([
      "partial.yaml:3:7 order.shipments[0].delivery required: the recipient's address",
      'partial.yaml:3:7 order.shipments[0].collection.pickup required: {date, time_earliest, time_latest}, or collection_type: dropoff when leaving Australia',
      'partial.yaml:3:7 order.shipments[0].service.code required: give --service cheapest|<code>, or service.code in the file (codes from "shipbook quote")',
    ]);
    expect(err.message).toBe('the document is missing 3 parts, and there is no terminal to ask on; nothing was sent');
  });

  it('asks only for the missing parts, quotes the route, and yields an order the schema accepts', async () => {
    const shipment: Record<string, unknown> = partial();
    const { io, prompter } = promptIO({
      'Recipient first name': 'Tom',
      'Recipient last name': 'Nguyen',
      'Recipient company (optional, Enter to skip)': '',
      'Recipient e-mail': 'tom@example.com.au',
      'Recipient phone': '0412 555 019',
      'Recipient country (type to search)': 'austral',
      'Recipient postcode': '3000',
      'Recipient city': 'Melbourne',
      'Recipient address line 1': '120 Collins Street',
      'Recipient address line 2 (optional, Enter to skip)': '',
      'Pickup date (YYYY-MM-DD)': '',
      'Pickup from (HH:MM)': '',
      'Pickup until (HH:MM)': '',
      'Service (cheapest first)': '',
    });
    const quoted: unknown[] = [];
    const done = await completeShipment(shipment, 'order', {
      io,
      senders: {},
      quote: async (q) => {
        quoted.push(q);
        return [service('SB-DOM-EXP', '54.78'), service('SB-DOM-ROAD', '38.50')];
      },
    });
    expect(done.asked).toEqual(['delivery', 'pickup', 'service']);
    expect(prompter.asked[0]).toBe('Recipient first name');
    expect(prompter.asked).not.toContain('How does the parcel reach the carrier?');
    expect(quoted).toHaveLength(1);
    expect(shipment.service).toEqual({ code: 'SB-DOM-ROAD' });
    const parsed = createOrderRequest.safeParse({ order: { shipments: [shipment] } });
    expect(parsed.success).toBe(true);
    expect(renderSummary([shipment], new Map([[0, done.chosen!]]))).toContain(
      '  Service    SB-DOM-ROAD Sandbox Post SB-DOM-ROAD name\n  Price      38.50 AUD quoted',
    );
  });

  it('decides pickup without asking for a domestic shipment with no collection_type', async () => {
    const shipment: Record<string, unknown> = {
      ...partial(),
      collection_type: undefined,
      collection: { ...SENDER, pickup: { date: '2026-12-01', time_earliest: '09:00', time_latest: '15:00' } },
      delivery: { ...SENDER },
      service: { code: 'SB-DOM-ROAD' },
    };
    delete shipment.collection_type;
    const done = await completeShipment(shipment, 'order', { io: promptIO({}).io, senders: {}, quote: async () => [] });
    expect(done.asked).toEqual(['collection_type']);
    expect(shipment.collection_type).toBe('pickup');
  });

  it('chooses the service by --service without asking anything', async () => {
    const shipment: Record<string, unknown> = {
      ...partial(),
      collection: { ...SENDER, pickup: { date: '2026-12-01', time_earliest: '09:00', time_latest: '15:00' } },
      delivery: { ...SENDER, city: 'Melbourne', postcode: '3000' },
    };
    const done = await completeShipment(shipment, 'order', {
      senders: {},
      service: { cheapest: true },
      quote: async () => [service('SB-DOM-EXP', '54.78'), service('SB-DOM-ROAD', '38.50')],
    });
    expect(done.asked).toEqual([]);
    expect(shipment.service).toEqual({ code: 'SB-DOM-ROAD' });
  });
});

describe('the summary on an 80-column terminal', () => {
  it('breaks a long address between words and continues it under itself', () => {
    const shipment = {
      collection: { ...SENDER, company: 'Harbour Homewares Pty Ltd', pickup: { date: '2026-11-26', time_earliest: '09:00', time_latest: '17:00' } },
      delivery: { ...SENDER, first_name: 'Tom', last_name: 'Nguyen', city: 'Melbourne', postcode: '3000', address_lines: ['Level 12, 120 Collins Street'] },
      packages: [{ length: 40, width: 30, height: 25, weight: 6.5, unit: 'cm' }],
      customs_information: {
        reason: 'Sale',
        tax_status: 'Private',
        lithium: false,
        items: [{ description: 'Plates', quantity: 2, value: 18.5, currency: 'AUD', madein: 'AU' }],
      },
      description: 'Homewares',
      transient_id: 'PO-4471',
    };
    const text = renderSummary([shipment], new Map(), 80);
    for (const line of text.split('\n')) expect(line.length, line).toBeLessThan(80);
    expect(text).toContain('  From       Priya Raman, Harbour Homewares Pty Ltd, Unit 4, 18 Bourke Road,\n             Alexandria 2015 AU');
    expect(text).toContain('  Reference  PO-4471');
  });
});

describe('--max-total and --save-as', () => {
  it('reads the limit in AUD and refuses bad values', () => {
    expect(parseCap('--max-total', '49.95')).toBe(4995);
    expect(() => parseCap('--max-total', 'fifty')).toThrow(/--max-total: expected a decimal amount/);
    expect(() => parseCap('--max-total', '0')).toThrow(/--max-total must be an amount above 0 AUD \(got 0\); nothing was sent/);
  });

  it('says the price and the limit of an order above it (exit 9)', () => {
    const err = overMaxTotal('ORD-1', 3850, 3000);
    expect(err).toBeInstanceOf(LimitRefusedError);
    expect(err.exitCode).toBe(9);
    expect(err.message).toBe('order ORD-1 costs 38.50 AUD, above --max-total 30.00 AUD: not accepted, the pending order was cancelled');
    expect(err.stage).toBe('cancelled');
    expect(overMaxTotal('ORD-1', 3850, 3000, { cancelError: new Error('409 not pending') }).stage).toBe('order_created');
  });

  it('writes YAML that reads back as the same document, with a comment on how to use it', () => {
    const doc = { order: { shipments: [{ description: 'Homewares' }] } };
    const text = savedDocumentText(doc, 'shipbook book order.yaml', NOW);
    expect(text.split('\n')[0]).toBe('# Written by shipbook on 2026-11-25. Use it again with: shipbook book order.yaml');
    expect(parse(text)).toEqual(doc);
  });
});
