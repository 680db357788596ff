/**
 * What reading an input document gives: the parsed value, and a way back from a field path to its
 * line and column in the file. Shared by every reader (YAML/JSON, NDJSON lines, spreadsheet rows).
 */
import { ValidationError, type Hint } from '../errors.js';

/** A 1-based line and column in a file. */
export interface Position {
  line: number;
  column: number;
  /** The column's header, for a spreadsheet (CSV) input, where a column has a name. */
  column_name?: string;
}

/** A parsed document and a way back from a field path to its position in the source. */
export interface LoadedDocument {
  /** The file name as the user gave it (`-` for standard input). */
  file: string;
  /** The parsed value, with the `request` wrapper removed when present. */
  data: unknown;
  /** Path segments that the wrapper removed (`['request']` or `[]`), prepended when locating. */
  wrapper: PropertyKey[];
  /**
   * 1-based line and column of the value at `path` (inside the wrapper), or of the nearest
   * existing parent. With `{key: true}`, of the field's name rather than its value (for
   * "unknown field").
   */
  locate(path: ReadonlyArray<PropertyKey>, options?: { key?: boolean }): Position | undefined;
}

/**
 * Stops reading `file` with one problem (at `position` when known).
 * @throws ValidationError (exit 2), always
 */
export function failInput(file: string, message: string, position?: Position, suggestion?: string | Hint): never {
  throw new ValidationError(
    [{ file, path: '', message, severity: 'error', ...position }],
    `${file}: ${message}`,
    suggestion === undefined ? {} : { suggestion },
  );
}

/**
 * The document inside a parsed object: a top-level `"$schema"` (how a JSON file names its JSON
 * Schema for editors) removed, and the wire form's `request` wrapper taken off when it is the only
 * field, with the path it took off (`['request']`, else `[]`). Undefined when `request` holds
 * something other than an object. The object is changed in place (`$schema` removed).
 */
export function unwrapRequest(data: Record<string, unknown>): { data: unknown; wrapper: PropertyKey[] } | undefined {
  if (typeof data.$schema === 'string') delete data.$schema;
  const keys = Object.keys(data);
  if (keys.length !== 1 || keys[0] !== 'request') return { data, wrapper: [] };
  const inner = data.request;
  if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return undefined;
  return { data: inner, wrapper: ['request'] };
}
