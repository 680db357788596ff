/**
 * Saved sender references in input files: a collection written as `"@warehouse-syd"`
 * is replaced by that sender of the active profile (`shipbook config sender set`) before the
 * document is validated. The pickup window belongs to each booking, so the object form
 * `{sender: "@warehouse-syd", pickup: {…}}` takes the sender's address and adds the rest. An
 * unknown name is a problem at its line and column, like any other field.
 */
import { cmd, placeholder, type InputIssue } from '../errors.js';
import { formatPath } from '../schema/issues.js';
import { isObject } from '../schema/object.js';

/** A saved sender address, as the profile stores it. */
export type SenderRecord = Readonly<Record<string, unknown>>;

/** Where a document came from and how to find a field's line and column in it (src/input/loaded.ts `LoadedDocument`). */
interface SenderSource {
  file: string;
  data: unknown;
  locate(path: ReadonlyArray<PropertyKey>, options?: { key?: boolean }): { line: number; column: number } | undefined;
}

/** What {@link resolveSenders} found. */
interface ResolvedSenders {
  /** The document with every known reference replaced (a copy; the input is not changed). */
  data: unknown;
  /** One error per unknown sender name, at the reference's line and column. */
  issues: InputIssue[];
  /** The names used, in order of appearance. */
  used: string[];
  /** The pickup settings of the senders used, by the path of the collection that names each (taken off the address). */
  pickups: SenderPickup[];
}

/** A saved sender's own pickup settings, where a document names that sender. */
export interface SenderPickup {
  /** The path of the collection, in the document. */
  segments: PropertyKey[];
  /** `HH:MM`: a pickup today is booked only before it. */
  cutoff?: string;
  /** `HH:MM-HH:MM`: the window a pickup without times gets. */
  pickup_window?: string;
  /** Days the sender is closed, `YYYY-MM-DD`. */
  closed?: string[];
}

/** The fields of a saved sender that are its pickup settings, not its address: never sent. */
const PICKUP_FIELDS = ['cutoff', 'pickup_window', 'closed'] as const;

/** A saved sender split into its address (what is sent) and its pickup settings. */
function splitSender(sender: SenderRecord): { address: Record<string, unknown>; settings: Omit<SenderPickup, 'segments'> | undefined } {
  const address = structuredClone(sender) as Record<string, unknown>;
  const settings: Record<string, unknown> = {};
  for (const f of PICKUP_FIELDS) {
    if (address[f] !== undefined) settings[f] = address[f];
    delete address[f];
  }
  return { address, settings: Object.keys(settings).length > 0 ? (settings as Omit<SenderPickup, 'segments'>) : undefined };
}

/** The sender name of a reference (`"@warehouse-syd"` → `warehouse-syd`), or undefined when `v` is not one. */
function senderReference(v: unknown): string | undefined {
  return typeof v === 'string' && v.startsWith('@') ? v.slice(1).trim() : undefined;
}

/**
 * Replaces every `collection: "@name"` (and `collection: {sender: "@name", …}`) anywhere in the
 * document by the profile's sender of that name.
 * @param senders the active profile's saved senders (none: every reference is unknown)
 * @param profile the profile's name, for the message
 */
export function resolveSenders(doc: SenderSource, senders: Readonly<Record<string, SenderRecord>> | undefined, profile: string): ResolvedSenders {
  const issues: InputIssue[] = [];
  const used: string[] = [];
  const pickups: SenderPickup[] = [];
  /** The address of a saved sender for the collection at `at`, its pickup settings noted. */
  const addressOf = (sender: SenderRecord, at: PropertyKey[]) => {
    const { address, settings } = splitSender(sender);
    if (settings !== undefined) pickups.push({ segments: at, ...settings });
    return address;
  };
  const known = Object.keys(senders ?? {}).sort();
  const lookup = (name: string, at: PropertyKey[]): SenderRecord | undefined => {
    const found = senders !== undefined && Object.hasOwn(senders, name) ? senders[name] : undefined;
    if (found) {
      used.push(name);
      return found;
    }
    issues.push({
      file: doc.file,
      ...doc.locate(at),
      path: formatPath(at),
      message: `unknown sender "@${name}" in profile "${profile}" (${known.length > 0 ? `saved: ${known.map((n) => `@${n}`).join(', ')}` : 'it has no saved senders'}`,
      next: ['; save one with "', cmd('config', 'sender', 'set', name, placeholder('address-file')), '")'],
      severity: 'error',
    });
    return undefined;
  };
  const walk = (v: unknown, path: PropertyKey[]): unknown => {
    if (Array.isArray(v)) return v.map((item, i) => walk(item, [...path, i]));
    if (!isObject(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(v)) {
      const at = [...path, key];
      if (key === 'collection') {
        const name = senderReference(value);
        if (name !== undefined) {
          const sender = lookup(name, at);
          out[key] = sender ? addressOf(sender, at) : value;
          continue;
        }
        if (isObject(value)) {
          const inner = senderReference(value.sender);
          if (inner !== undefined) {
            const sender = lookup(inner, [...at, 'sender']);
            const { sender: _ref, ...rest } = value;
            out[key] = sender ? { ...addressOf(sender, at), ...rest } : value;
            continue;
          }
        }
      }
      out[key] = walk(value, at);
    }
    return out;
  };
  return { data: walk(doc.data, []), issues, used, pickups };
}
