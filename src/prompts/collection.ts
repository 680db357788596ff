/**
 * The collection questions: who sends (a saved sender of the profile first, or a new address),
 * and how the parcel reaches the carrier — a pickup window (default: the next working day,
 * 09:00–17:00) or drop-off, which the interface document allows only for shipments leaving
 * Australia ("Shipment (request form)", `collection_type`; "Pickup object").
 */
import { pickupRequest, type PickupRequest } from '../schema/address.js';
import { isoDate, isoTime, type ShipmentFormKind } from '../schema/common.js';
import { addressLine, askAddress, type AddressInput } from './address.js';
import { askText, type PromptIO } from './ask.js';

/** Saved senders by name, as `shipbook config sender set` stores them in the profile. */
export type SavedSenders = Readonly<Record<string, AddressInput>>;

/** The default pickup window's times. */
export const DEFAULT_PICKUP_EARLIEST = '09:00';
export const DEFAULT_PICKUP_LATEST = '17:00';

/** `YYYY-MM-DD` of the working day (Monday–Friday) after `now`, in this machine's time zone. */
export function nextWorkingDay(now: Date): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 12);
  while (d.getDay() === 0 || d.getDay() === 6) d.setDate(d.getDate() + 1);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** True when a shipment from `from` to `to` leaves Australia, the only case that may use drop-off. */
export function leavesAustralia(from: string | undefined, to: string | undefined): boolean {
  return (from ?? '').toUpperCase() === 'AU' && to !== undefined && to.toUpperCase() !== 'AU';
}

/**
 * Asks who sends: the saved senders are offered first (by name and address), then "a new
 * address"; without saved senders the address is asked straight away.
 * @returns the sender's address (a copy) and the saved name when one was picked
 */
export async function askSender(io: PromptIO, senders: SavedSenders, kind: ShipmentFormKind): Promise<{ address: AddressInput; saved?: string }> {
  const names = Object.keys(senders).sort();
  if (names.length > 0) {
    const NEW = '\u0000new';
    const picked = await io.prompter.select<string>({
      message: 'Collect from',
      choices: [
        ...names.map((n) => ({ name: `${n}: ${addressLine(senders[n]!)}`, value: n })),
        { name: 'a new address', value: NEW },
      ],
      default: names[0],
    });
    if (picked !== NEW) return { address: structuredClone(senders[picked]!), saved: picked };
  }
  return { address: await askAddress(io, { who: 'Sender', kind }) };
}

/**
 * Asks for the pickup window: date (default the next working day), earliest and latest time
 * (default 09:00–17:00), each checked by the Pickup object's schema (latest after earliest).
 */
export async function askPickup(io: PromptIO): Promise<PickupRequest> {
  const date = await askText(io, { message: 'Pickup date (YYYY-MM-DD)', schema: isoDate, default: nextWorkingDay(io.now()) });
  const time_earliest = await askText(io, { message: 'Pickup from (HH:MM)', schema: isoTime, default: DEFAULT_PICKUP_EARLIEST });
  const time_latest = await askText(io, {
    message: 'Pickup until (HH:MM)',
    schema: pickupRequest,
    convert: (t) => ({ date, time_earliest, time_latest: t }),
    default: DEFAULT_PICKUP_LATEST,
  });
  return { date, time_earliest, time_latest };
}

/**
 * Asks how the parcel reaches the carrier. Drop-off is offered only when the shipment leaves
 * Australia; otherwise it is a pickup and only the window is asked.
 */
export async function askCollectionType(io: PromptIO, from: string | undefined, to: string | undefined): Promise<'pickup' | 'dropoff'> {
  if (!leavesAustralia(from, to)) return 'pickup';
  return io.prompter.select<'pickup' | 'dropoff'>({
    message: 'How does the parcel reach the carrier?',
    choices: [
      { name: 'pickup: the carrier collects it', value: 'pickup' },
      { name: 'drop-off: you take it to the carrier', value: 'dropoff' },
    ],
    default: 'pickup',
  });
}
