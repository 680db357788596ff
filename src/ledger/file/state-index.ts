/**
 * The in-memory index of a journal or ledger file: where each document stands
 * ({@link EntryState}), by identity, in first-seen order. A ledger keeps every document it ever
 * saw, so a batch of 50,000 orders, or a ledger of a year, must not keep 50,000 objects of a
 * dozen properties and arrays each: a document that is **settled** (its booking over, processed or
 * failed, and claimed by no run) is kept as one short string of its fields, and read back into an
 * object when asked for. Documents under way (claimed, unknown, created, accepted …) stay objects,
 * as the fold changes them record by record.
 *
 * Reading one back gives an object equal to the one stored: the same properties in the same order
 * (those set to undefined included, but for `claim`, which reads back absent once let go), the
 * same values. A state the encoding cannot hold exactly (a
 * value of an unexpected type, a property it does not know, a text with the separators in it) is
 * kept as the object itself.
 */
import type { EntryState } from '../records.js';

/** Between two fields of an encoded state. */
const FIELD = '\u0000';
/** Between two elements of a list field. */
const ITEM = '\u0001';
/** An empty list (told from one empty string). */
const EMPTY_LIST = '\u0002';

/** How each known property of a state is written: text, number, list of texts, or JSON (an object). */
type Kind = 'text' | 'file' | 'number' | 'list' | 'json';

/** The known properties of a state (beside `id`, the key), and how each is written. */
const KINDS: Readonly<Record<string, Kind>> = {
  stage: 'text',
  file: 'file',
  line: 'number',
  orderId: 'text',
  shipmentIds: 'list',
  trackingNumbers: 'list',
  total: 'text',
  error: 'json',
  unknownStep: 'text',
  records: 'number',
  limit: 'text',
  resolvedAs: 'text',
  transientIds: 'list',
  claim: 'json',
};

/** True for a state whose booking is over and that no run holds: kept encoded. */
function settled(s: EntryState): boolean {
  return (s.stage === 'processed' || s.stage === 'failed') && s.claim === undefined;
}

const clean = (t: string) => !t.includes(FIELD) && !t.includes(ITEM) && !t.includes(EMPTY_LIST);

/**
 * The ids of a shape: which properties a state has, in order, and which of them are undefined.
 * States of one batch share a handful of shapes, each kept once.
 */
interface Shape {
  keys: string[];
  /** Per key: the value is undefined (the property exists, set to undefined). */
  unset: boolean[];
}

/**
 * A `Map` of the states of a journal's documents (see the file's comment): the same interface as
 * `Map<string, EntryState>`, with settled states kept as strings.
 */
export class StateIndex implements Map<string, EntryState> {
  /** States under way as objects; settled ones as `<shape>\0<field>\0<field>…`. */
  private readonly map = new Map<string, EntryState | string>();
  /**
   * The index of another file that holds the same documents (a ledger's, for its run's journal
   * copy): a state encoded as it is encoded there shares that string.
   */
  private twin: StateIndex | undefined;

  readonly [Symbol.toStringTag] = 'StateIndex';

  get size(): number {
    return this.map.size;
  }

  get(id: string): EntryState | undefined {
    const v = this.map.get(id);
    return typeof v === 'string' ? decode(id, v) : v;
  }

  has(id: string): boolean {
    return this.map.has(id);
  }

  set(id: string, state: EntryState): this {
    let encoded = settled(state) && state.id === id ? encode(state) : undefined;
    if (encoded !== undefined && this.twin !== undefined) {
      const there = this.twin.map.get(id);
      if (there === encoded) encoded = there;
    }
    this.map.set(id, encoded ?? state);
    return this;
  }

  /**
   * Shares the strings of the documents settled alike in this index and `twin` (the ledger's and
   * its run's journal copy's, which hold the same documents), both ways: one string for both files.
   */
  pairWith(twin: StateIndex): void {
    this.twin = twin;
    twin.twin = this;
    for (const [id, v] of this.map) if (typeof v === 'string' && twin.map.get(id) === v) this.map.set(id, twin.map.get(id)!);
  }

  delete(id: string): boolean {
    return this.map.delete(id);
  }

  clear(): void {
    this.map.clear();
  }

  /** The states still under way (kept as objects): the only ones a run can hold a claim on. */
  *unsettled(): IterableIterator<EntryState> {
    for (const v of this.map.values()) if (typeof v !== 'string') yield v;
  }

  *entries(): MapIterator<[string, EntryState]> {
    for (const [id, v] of this.map) yield [id, typeof v === 'string' ? decode(id, v) : v];
  }

  keys(): MapIterator<string> {
    return this.map.keys();
  }

  *values(): MapIterator<EntryState> {
    for (const [, s] of this.entries()) yield s;
  }

  [Symbol.iterator](): MapIterator<[string, EntryState]> {
    return this.entries();
  }

  forEach(fn: (value: EntryState, key: string, map: Map<string, EntryState>) => void, thisArg?: unknown): void {
    for (const [id, s] of this.entries()) fn.call(thisArg, s, id, this);
  }
}

/**
 * The shapes of encoded states, by their signature, in the order first seen, and the file names
 * they name, each kept once (a batch's states name a few files thousands of times, in a handful
 * of shapes). Shared by every index of the process, so that two indexes encode a state alike.
 */
const shapeIds = new Map<string, number>();
const shapes: Shape[] = [];
const fileIds = new Map<string, number>();
const files: string[] = [];

/** A settled state as one string, or undefined when the encoding cannot hold it exactly. */
function encode(s: EntryState): string | undefined {
  const keys: string[] = [];
  const unset: boolean[] = [];
  const fields: string[] = [];
  for (const key in s) {
    if (key === 'id') {
      if (keys.length > 0) return undefined; // `id` first, as the fold makes it
      continue;
    }
    const kind = KINDS[key];
    if (kind === undefined) return undefined;
    const value = (s as unknown as Record<string, unknown>)[key];
    // A claim let go reads back absent: the ledger's state has one, its copy's (which never
    // records claims) none, and the two then encode alike and share one string.
    if (key === 'claim' && value === undefined) continue;
    keys.push(key);
    unset.push(value === undefined);
    if (value === undefined) continue;
    const field = encodeField(kind, value, fileIds, files);
    if (field === undefined) return undefined;
    fields.push(field);
  }
  const signature = `${keys.join(',')}|${unset.map((u) => (u ? 1 : 0)).join('')}`;
  let shape = shapeIds.get(signature);
  if (shape === undefined) {
    shape = shapes.length;
    shapes.push({ keys, unset });
    shapeIds.set(signature, shape);
  }
  // Joined in one go: one flat string, not a concatenation of two.
  fields.unshift(String(shape));
  return fields.join(FIELD);
}

/** The state `id` encoded by {@link encode}: an object equal to the one encoded. */
function decode(id: string, encoded: string): EntryState {
  const fields = encoded.split(FIELD);
  const shape = shapes[Number(fields[0])]!;
  const s: Record<string, unknown> = { id };
  let f = 1;
  for (let i = 0; i < shape.keys.length; i++) {
    const key = shape.keys[i]!;
    if (shape.unset[i]) {
      s[key] = undefined;
      continue;
    }
    const field = fields[f++]!;
    switch (KINDS[key]) {
      case 'number':
        s[key] = Number(field);
        break;
      case 'file':
        s[key] = files[Number(field)];
        break;
      case 'list':
        s[key] = field === EMPTY_LIST ? [] : field.split(ITEM);
        break;
      case 'json':
        s[key] = JSON.parse(field);
        break;
      default:
        s[key] = field;
    }
  }
  return s as unknown as EntryState;
}

/** One field of an encoded state, or undefined when it cannot be held exactly. */
function encodeField(kind: Kind, value: unknown, fileIds: Map<string, number>, files: string[]): string | undefined {
  switch (kind) {
    case 'text':
      return typeof value === 'string' && clean(value) ? value : undefined;
    case 'file': {
      if (typeof value !== 'string') return undefined;
      let n = fileIds.get(value);
      if (n === undefined) {
        n = files.length;
        files.push(value);
        fileIds.set(value, n);
      }
      return String(n);
    }
    case 'number':
      // Written and read back as the same number (not NaN, not -0, not an exponent lost).
      return typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0) && Number(String(value)) === value ? String(value) : undefined;
    case 'list': {
      if (!Array.isArray(value)) return undefined;
      if (value.length === 0) return EMPTY_LIST;
      for (const v of value) if (typeof v !== 'string' || !clean(v)) return undefined;
      // One empty string is written as itself, told apart from an empty list.
      return value.join(ITEM);
    }
    case 'json': {
      if (typeof value !== 'object' || value === null) return undefined;
      const text = JSON.stringify(value);
      // Only what JSON gives back as it was: plain objects of texts, numbers and booleans.
      return JSON.stringify(JSON.parse(text)) === text && plainJson(value) && clean(text) ? text : undefined;
    }
  }
}

/** True for a plain object (or array) whose values are texts, finite numbers, booleans and such objects, none undefined. */
function plainJson(value: unknown): boolean {
  if (typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(plainJson);
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(plainJson);
}
