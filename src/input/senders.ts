/**
 * Saved sender references in input files: a collection written as `"@warehouse-syd"`
 * is replaced by that sender of the active profile (`shipbook config sender set`) before the
 * document is validated. The pickup window belongs to each booking, so the object form
 * `{sender: "@warehouse-syd", pickup: {…}}` takes the sender's address and adds the rest. An
 * unknown name is a problem at its line and column, like any other field.
 */
import type { InputIssue } from '../errors.js';
import { shellCommand } from '../shell.js';
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
      message: `unknown sender "@${name}" in profile "${profile}" (${known.length > 0 ? `saved: ${known.map((n) => `@${n}`).join(', ')}` : 'it has no saved senders'}; save one with "${shellCommand('config', 'sender', 'set', name)} <address-file>")`,
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
          out[key] = sender ? structuredClone(sender) : value;
          continue;
        }
        if (isObject(value)) {
          const inner = senderReference(value.sender);
          if (inner !== undefined) {
            const sender = lookup(inner, [...at, 'sender']);
            const { sender: _ref, ...rest } = value;
            out[key] = sender ? { ...structuredClone(sender), ...rest } : value;
            continue;
          }
        }
      }
      out[key] = walk(value, at);
    }
    return out;
  };
  return { data: walk(doc.data, []), issues, used };
}
