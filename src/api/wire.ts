/**
 * Request bodies in their wire form (interface document, "Conventions"): amounts held as
 * {@link Money} become JSON numbers with two decimals, undefined fields are left out, and the body
 * is wrapped in `request`.
 */
import { wrapRequest } from '../schema/envelope.js';
import { Money } from '../schema/money.js';

/** Converts request bodies to their wire form: {@link Money} → a JSON number with two decimals. */
function toWire(value: unknown): unknown {
  if (value instanceof Money) return value.toNumber();
  if (Array.isArray(value)) return value.map(toWire);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // Own enumerable members, as Object.entries lists them, without its array of pairs.
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = toWire(v);
    }
    return out;
  }
  return value;
}

/**
 * The JSON text sent for `body`: its wire form wrapped in `request`.
 * @throws TypeError when the body is not JSON-serialisable (a cycle, a BigInt)
 */
export function wirePayload(body: unknown): string {
  return JSON.stringify(wrapRequest(toWire(body)));
}
