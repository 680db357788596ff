/**
 * The body of `shipbook api` from `-f key=value` and `-F key=value` fields, as `gh api` builds
 * one: `-f` a string as written; `-F` typed (`true`, `false`, `null`, a number such as `2.5`, `@file`
 * for a file's text, `@-` for standard input, anything else a string). A key nests with brackets:
 * `order[shipments][0][description]=Books`, `tags[]=a` appends to a list. For a GET the fields are
 * the query instead (flat keys only).
 */
import { UsageError } from '../../errors.js';

/** One field as typed on the command line, with how its value is read. */
export interface Field {
  /** `key=value` as given. */
  text: string;
  /** `-F`: typed and `@file`; `-f`: a string. */
  typed: boolean;
}

/** `order[shipments][0][description]` as its path: `['order', 'shipments', 0, 'description']`; `[]` is `null` (append). */
function keyPath(key: string, flag: string): Array<string | number | null> {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (m === null) throw new UsageError(`${flag} ${key}: a key is a name with [sub] parts, e.g. order[shipments][0][description]`);
  const parts: Array<string | number | null> = [m[1]!];
  for (const [, inner] of m[2]!.matchAll(/\[([^[\]]*)\]/g)) parts.push(inner === '' ? null : /^\d+$/.test(inner!) ? Number(inner) : inner!);
  return parts;
}

/**
 * The value of a typed field (`-F`): `true`, `false`, `null`, a decimal number, `@file` (`@-`:
 * standard input) read as text, else the string.
 */
async function typedValue(value: string, readFile: (name: string) => Promise<string>): Promise<unknown> {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(value) && Number.isFinite(Number(value))) return Number(value);
  if (value.startsWith('@')) return readFile(value.slice(1));
  return value;
}

/** `key` and `value` of `key=value`. @throws UsageError without `=` */
function split(field: Field): [string, string] {
  const at = field.text.indexOf('=');
  const flag = field.typed ? '-F' : '-f';
  if (at <= 0) throw new UsageError(`${flag} ${field.text}: a field is key=value`, { suggestion: `For example ${flag} description=Books` });
  return [field.text.slice(0, at), field.text.slice(at + 1)];
}

/**
 * The fields as an object (the body's content, which the client wraps in `request`).
 * @throws UsageError (exit 2) for a field that is not `key=value`, or keys that contradict each other
 *   (`a=1` and `a[b]=2`); what `readFile` throws for `@file`
 */
export async function bodyOfFields(fields: readonly Field[], readFile: (name: string) => Promise<string>): Promise<Record<string, unknown>> {
  const root: Record<string, unknown> = {};
  for (const field of fields) {
    const [key, raw] = split(field);
    const flag = field.typed ? '-F' : '-f';
    const path = keyPath(key, flag);
    const value = field.typed ? await typedValue(raw, readFile) : raw;
    let node: Record<string, unknown> | unknown[] = root;
    for (let i = 0; i < path.length; i++) {
      const part = path[i]!;
      const last = i === path.length - 1;
      const next = path[i + 1];
      const fresh = () => (next === null || typeof next === 'number' ? [] : {});
      if (part === null || typeof part === 'number') {
        if (!Array.isArray(node)) throw new UsageError(`${flag} ${key}: ${path.slice(0, i).join('.')} is not a list in the other fields`);
        const index = part === null ? node.length : part;
        if (last) node[index] = value;
        else node = (node[index] ??= fresh()) as Record<string, unknown> | unknown[];
      } else {
        if (Array.isArray(node)) throw new UsageError(`${flag} ${key}: ${path.slice(0, i).join('.')} is a list in the other fields`);
        if (last) node[part] = value;
        else {
          const child: unknown = (node[part] ??= fresh());
          if (typeof child !== 'object' || child === null) throw new UsageError(`${flag} ${key}: ${part} has a value of its own in the other fields`);
          node = child as Record<string, unknown> | unknown[];
        }
      }
    }
  }
  return root;
}

/**
 * The fields of a GET as its query (`-f` and `-F` alike, values as written, `@file` read).
 * @throws UsageError (exit 2) for a nested key
 */
export async function queryOfFields(fields: readonly Field[], readFile: (name: string) => Promise<string>): Promise<Record<string, string>> {
  const query: Record<string, string> = {};
  for (const field of fields) {
    const [key, raw] = split(field);
    if (/[[\]]/.test(key)) throw new UsageError(`${field.typed ? '-F' : '-f'} ${key}: a GET sends its fields as query parameters, which do not nest`);
    query[key] = field.typed && raw.startsWith('@') ? await readFile(raw.slice(1)) : raw;
  }
  return query;
}
