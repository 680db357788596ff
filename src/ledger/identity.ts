/**
 * The identity of an order in a batch (docs/batch.md, "The ledger"): a hash of
 * the order's canonical JSON plus its occurrence number among identical documents, so renaming
 * or reordering input files changes nothing, and two identical documents are two orders.
 */
import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level (arrays keep their order; members whose value is
 * `undefined` are left out). Written as loops rather than map/filter/join: it runs over every
 * document of a batch before the first request (test/property/identity.test.ts holds it to the
 * first, one-expression form).
 */
export function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) {
    let s = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) s += ',';
      s += canonicalJson(value[i]) ?? '';
    }
    return `${s}]`;
  }
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o).sort();
  let s = '{';
  for (const k of keys) {
    const v = o[k];
    if (v === undefined) continue;
    if (s.length > 1) s += ',';
    s += `${JSON.stringify(k)}:${canonicalJson(v)}`;
  }
  return `${s}}`;
}

/** The first 16 hex digits of the SHA-256 of the document's canonical JSON. */
export function contentHash(data: unknown): string {
  // Only the first 8 bytes are made into text: a slice of the whole hex digest would keep all 64
  // characters alive in V8 (a sliced string holds its parent), and a batch keeps every identity.
  return createHash('sha256').update(canonicalJson(data)).digest().toString('hex', 0, 8);
}

/** Hands out identities `<hash>-<n>` in input order: the n-th document with the same content gets n. */
export class IdentityCounter {
  private readonly seen = new Map<string, number>();
  /** The identity of the next document with this content. */
  next(data: unknown): string {
    const hash = contentHash(data);
    const n = (this.seen.get(hash) ?? 0) + 1;
    this.seen.set(hash, n);
    return `${hash}-${n}`;
  }
}

/** A shard `i/n` (1-based `index` of `count` jobs). */
export interface Shard {
  index: number;
  count: number;
}

/** Parses `--shard i/n`; undefined when the text is not of that form (1 ≤ i ≤ n). */
export function parseShard(text: string): Shard | undefined {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return index >= 1 && count >= 1 && index <= count ? { index, count } : undefined;
}

/** True when the order with this identity belongs to `shard`: jobs with the same inputs book disjoint sets whose union is all. */
export function inShard(identity: string, shard: Shard | undefined): boolean {
  if (shard === undefined || shard.count === 1) return true;
  const h = createHash('sha256').update(identity).digest();
  return h.readUInt32BE(0) % shard.count === shard.index - 1;
}
