/**
 * Records as JSON on disk: the sandbox keeps amounts as {@link Money} and times as `Date`, which
 * plain JSON would turn into strings; they are written as `{"$money": cents}` and
 * `{"$date": "…"}` and read back as what they were.
 */
import { Money } from '../../schema/money.js';

/** The JSON text of a record. */
export function encodeRecord(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = key === '' ? value : this[key];
    if (raw instanceof Money) return { $money: raw.cents };
    if (raw instanceof Date) return { $date: raw.toISOString() };
    return v;
  });
}

/** A record from its JSON text. @throws SyntaxError for text that is not JSON */
export function decodeRecord<T>(text: string): T {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o);
      if (keys.length === 1 && typeof o.$money === 'number') return new Money(o.$money);
      if (keys.length === 1 && typeof o.$date === 'string') return new Date(o.$date);
    }
    return v;
  }) as T;
}
