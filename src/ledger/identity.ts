/**
 * The identity of a document in the ledger (docs/batch.md, "The ledger"): a hash of the document's
 * canonical JSON plus its occurrence number among identical documents (`<hash>-<n>`), so renaming
 * or reordering input files changes nothing, and two identical documents are two orders. One rule,
 * {@link identityOf}, serves a batch (the n-th copy in its inputs is occurrence n) and a single
 * booking (the latest occurrence the ledger knows, or the next with `again`).
 */
import { createHash } from 'node:crypto';
import type { LedgerStore } from './store.js';

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

/** The identity of a document, and how to move on to a further occurrence of it. */
export interface DocumentIdentity {
  /** `<hash>-<n>`: the n-th occurrence of the document. */
  id: string;
  /** Moves on to the next occurrence when this one has something recorded: this run books the document a further time. */
  again(): void;
  /** Moves on to the next occurrence even when this one has nothing recorded (another run holds it). */
  next(): void;
}

/** What {@link identityOf} reads of the ledger: where an identity stands. */
type IdentityLedger = Pick<LedgerStore, 'get'>;

/**
 * The identity of `document` (its parsed content, before any defaults) in the ledger:
 * `<hash>-<n>`, the hash of its canonical JSON ({@link contentHash}) and its occurrence `n`:
 * - `occurrence` when given: the n-th copy of the same content among a batch's inputs (a batch
 *   books each copy once, whatever the ledger holds: the ledger then says where each stands);
 * - otherwise the latest occurrence with something recorded in `ledger` (1 when none), so a single
 *   `book` of a file finds what an earlier `book` or a batch (its first or n-th copy) did with it;
 * - with `again`, the next occurrence after that one when it has something recorded.
 *
 * A claim alone (a run that stopped before recording anything else) is no booking of an occurrence.
 */
export function identityOf(ledger: IdentityLedger | undefined, document: unknown, o: { again?: boolean; occurrence?: number } = {}): DocumentIdentity {
  return identityAt(contentHash(document), ledger, o);
}

/**
 * `<hash>-<n>`, made by `join`, which writes one flat string: `${hash}-${n}` would be a rope of
 * three pieces in V8 (two 32-byte nodes beside the text), and a batch keeps every identity.
 */
function idOf(hash: string, n: number): string {
  return [hash, n].join('-');
}

/** {@link identityOf} of a document whose {@link contentHash} is `hash`. */
function identityAt(hash: string, ledger: IdentityLedger | undefined, o: { again?: boolean; occurrence?: number }): DocumentIdentity {
  const known = (id: string) => (ledger?.get(id)?.records ?? 0) > 0;
  let n = o.occurrence ?? 1;
  if (o.occurrence === undefined) while (known(idOf(hash, n + 1))) n++;
  const identity: DocumentIdentity = {
    id: idOf(hash, n),
    again() {
      if (known(identity.id)) identity.id = idOf(hash, ++n);
    },
    next() {
      identity.id = idOf(hash, ++n);
    },
  };
  if (o.again === true) identity.again();
  return identity;
}

/**
 * Hands out identities in input order ({@link identityOf} with `occurrence`): the n-th document
 * with the same content gets n.
 */
export class IdentityCounter {
  private readonly seen = new Map<string, number>();
  /** The identity of the next document with this content. */
  next(data: unknown): string {
    const hash = contentHash(data);
    const n = (this.seen.get(hash) ?? 0) + 1;
    this.seen.set(hash, n);
    return identityAt(hash, undefined, { occurrence: n }).id;
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
