/**
 * Comparing a secret a client sent (an API key, a callback token) with the expected one, for the
 * two servers shipbook runs: the sandbox and the callback receiver.
 */
import { timingSafeEqual } from 'node:crypto';

/**
 * True when `a` and `b` are the same string. The bytes are compared in constant time, so the time
 * taken does not tell how much of a guess was right (only whether its length was).
 */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
