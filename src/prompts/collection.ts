/**
 * The collection questions: who sends (a saved sender of the profile first, or a new address),
 * and how the parcel reaches the carrier — a pickup window (default: the next working day,
 * 09:00–17:00) or drop-off, which the interface document allows only for shipments leaving
 * Australia ("Shipment (request form)", `collection_type`; "Pickup object").
 */
import { dayWords } from '../booking/pickup/rule.js';
import type { PickupPlace, PickupRule } from '../input/pickup.js';
import { pickupRequest, type PickupRequest } from '../schema/address.js';
import { isoDate, isoTime, secondsOfDay, type ShipmentFormKind } from '../schema/common.js';
import { addressLine, askAddress, type AddressInput } from './address.js';
import { askText, problemOf, type PromptIO } from './ask.js';

/** Saved senders by name, as `shipbook config sender set` stores them in the profile. */
export type SavedSenders = Readonly<Record<string, AddressInput>>;

/** The default pickup window's times. */
const DEFAULT_PICKUP_EARLIEST = '09:00';
const DEFAULT_PICKUP_LATEST = '17:00';

/** `YYYY-MM-DD` of the working day (Monday–Friday) after `now`, in this machine's time zone. */
export function nextWorkingDay(now: Date): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 12);
  while (d.getDay() === 0 || d.getDay() === 6) d.setDate(d.getDate() + 1);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** True when a shipment from `from` to `to` leaves Australia, the only case that may use drop-off. */
function leavesAustralia(from: string | undefined, to: string | undefined): boolean {
  return (from ?? '').toUpperCase() === 'AU' && to !== undefined && to.toUpperCase() !== 'AU';
}

/**
 * Asks who sends: the saved senders are offered first (by name and address), then "a new
 * address"; without saved senders the address is asked straight away.
 * @returns the sender's address (a copy) and the saved name when one was picked
 */
export async function askSender(
  io: PromptIO,
  senders: SavedSenders,
  kind: ShipmentFormKind,
  previous?: Partial<AddressInput>,
): Promise<{ address: AddressInput; saved?: string }> {
  const names = Object.keys(senders).sort();
  // A new sender is proposed the saved senders' country, or AU.
  const country = (names.length > 0 ? senders[names[0]!]?.country : undefined) ?? 'AU';
  if (names.length > 0) {
    const NEW = '\u0000new';
    const picked = await io.prompter.select<string>({
      message: 'Collect from',
      choices: [...names.map((n) => ({ name: `${n}: ${addressLine(senders[n]!)}`, value: n })), { name: 'a new address', value: NEW }],
      default: names[0],
    });
    if (picked !== NEW) return { address: structuredClone(senders[picked]!), saved: picked };
  }
  return { address: await askAddress(io, { who: 'Sender', kind, country, ...(previous ? { previous } : {}) }) };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `YYYY-MM-DD` of `now` in this machine's time zone. */
function localDay(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * Checks a typed pickup date the way the question words it: the form `YYYY-MM-DD`, a day that
 * exists (`2026-02-30` is not a day: February 2026 has 28 days), and not before today in this
 * machine's time zone (a carrier cannot collect yesterday).
 * @returns true, or the reason shown under the question
 */
export function pickupDateProblem(typed: string, now: Date): true | string {
  const text = typed.trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return `expected a date as YYYY-MM-DD, e.g. ${nextWorkingDay(now)} (got "${text}")`;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12) return `${text} is not a day: there is no month ${m[2]} (01 to 12)`;
  const days = new Date(year, month, 0).getDate();
  if (day < 1 || day > days) return `${text} is not a day: ${MONTHS[month - 1]} ${year} has ${days} days`;
  const today = localDay(now);
  if (text < today) return `${text} is in the past (today is ${today})`;
  return true;
}

/**
 * Checks a typed "until" time against the "from" time of the same pickup, in the questions' words.
 * @returns true, or the reason shown under the question
 */
export function pickupUntilProblem(typed: string, from: string): true | string {
  const text = typed.trim();
  const form = problemOf(isoTime, text);
  if (form !== true) return form;
  if (secondsOfDay(text) <= secondsOfDay(from)) return `must be later than the "from" time, ${from} (got ${text})`;
  return true;
}

/**
 * Asks for the pickup window: date (default the next working day), earliest and latest time
 * (default 09:00–17:00, or the earlier answers when changed from the summary). Each answer is
 * checked at its question: a real day not in the past, "until" later than "from"; then by the
 * Pickup object's schema, as a file would be.
 */
export async function askPickup(io: PromptIO, previous?: Partial<PickupRequest>, place?: PickupPlace): Promise<PickupRequest> {
  const now = io.now();
  const rule = place !== undefined ? io.pickup : undefined;
  const date =
    rule !== undefined && place !== undefined
      ? await askCollectionDay(io, rule, place, previous?.date)
      : await askText(io, {
          message: 'Pickup date (YYYY-MM-DD)',
          schema: isoDate,
          default: previous?.date !== undefined && pickupDateProblem(previous.date, now) === true ? previous.date : nextWorkingDay(now),
          first: (t) => pickupDateProblem(t, now),
        });
  const time_earliest = await askText(io, {
    message: 'Pickup from (HH:MM)',
    schema: isoTime,
    default: previous?.time_earliest ?? rule?.window.earliest ?? DEFAULT_PICKUP_EARLIEST,
  });
  const time_latest = await askText(io, {
    message: 'Pickup until (HH:MM)',
    schema: pickupRequest,
    convert: (t) => ({ date, time_earliest, time_latest: t }),
    default: previous?.time_latest ?? rule?.window.latest ?? DEFAULT_PICKUP_LATEST,
    first: (t) => pickupUntilProblem(t, time_earliest),
  });
  return { date, time_earliest, time_latest };
}

/** How many collection days the pickup question lists. */
const OFFERED_DAYS = 5;

/**
 * The pickup day from the collection days at `place`: the next five, by weekday name and date (an
 * earlier answer that is still a collection day first), or another day typed, which must be one
 * too (a day the carrier does not collect is refused with the next collection day named).
 */
async function askCollectionDay(io: PromptIO, rule: PickupRule, place: PickupPlace, earlier: string | undefined): Promise<string> {
  const days = rule.days(place, OFFERED_DAYS);
  const OTHER = '\u0000other';
  const keep = earlier !== undefined && pickupDateProblem(earlier, io.now()) === true && rule.fault(earlier, place) === undefined ? earlier : undefined;
  const picked = await io.prompter.select<string>({
    message: 'Pickup day',
    choices: [
      ...(keep !== undefined && !days.some((d) => d.date === keep) ? [{ name: `${dayWords(keep)} (${keep}), as before`, value: keep }] : []),
      ...days.map((d) => ({ name: `${d.words} (${d.date})`, value: d.date })),
      { name: 'another day…', value: OTHER },
    ],
    default: keep ?? days[0]!.date,
  });
  if (picked !== OTHER) return picked;
  return askText(io, {
    message: 'Pickup date (YYYY-MM-DD)',
    schema: isoDate,
    default: days[0]!.date,
    first: (t) => {
      const form = pickupDateProblem(t, io.now());
      if (form !== true) return form;
      const fault = rule.fault(t.trim(), place);
      return fault === undefined || rule.allow ? true : `${fault.message}; the next collection day is ${fault.nextWords} (${fault.next})`;
    },
  });
}

/**
 * Asks how the parcel reaches the carrier. Drop-off is offered only when the shipment leaves
 * Australia; otherwise it is a pickup and only the window is asked.
 */
export async function askCollectionType(io: PromptIO, from: string | undefined, to: string | undefined, earlier?: string): Promise<'pickup' | 'dropoff'> {
  if (!leavesAustralia(from, to)) return 'pickup';
  return io.prompter.select<'pickup' | 'dropoff'>({
    message: 'How does the parcel reach the carrier?',
    choices: [
      { name: 'pickup: the carrier collects it', value: 'pickup' },
      { name: 'drop-off: you take it to the carrier', value: 'dropoff' },
    ],
    default: earlier === 'dropoff' ? 'dropoff' : 'pickup',
  });
}
