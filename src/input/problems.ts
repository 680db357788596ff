/**
 * Schema problems of a loaded document: every problem zod finds, each at its file, line, column
 * and field path, an unknown field at its name with the known field it was probably meant to be.
 */
import type * as z from 'zod';
import { ValidationError, type InputIssue } from '../errors.js';
import { safeParseHot } from '../schema/hot.js';
import { closestField, formatPath, knownFieldsAt, schemaProblems } from '../schema/issues.js';
import type { LoadedDocument } from './loaded.js';

/** The value at `path` inside `data`, if every step exists. */
function valueAt(data: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let v = data;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[seg];
  }
  return v;
}

/** Options of {@link documentProblems}. */
interface DocumentProblemOptions {
  /**
   * Maps a path in the document as the schema sees it to the path in the file, when the document
   * was rewritten from a shorter form the file uses (see `src/input/kinds.ts`). Default: identity.
   */
  toFilePath?: (segments: ReadonlyArray<PropertyKey>) => PropertyKey[];
}

/**
 * Checks `data` (by default the document's own) against a schema: the value, or every problem
 * found, each with file, line, column and field path. Unknown fields are reported at their name,
 * with the known field they were probably meant to be. Never throws for bad input.
 */
export function documentProblems<S extends z.ZodType>(
  doc: LoadedDocument,
  schema: S,
  data: unknown = doc.data,
  options: DocumentProblemOptions = {},
): { success: true; value: z.output<S> } | { success: false; issues: InputIssue[] } {
  const parsed = safeParseHot(schema, data);
  if (parsed.success) return { success: true, value: parsed.data };
  const toFilePath = options.toFilePath ?? ((s) => [...s]);
  const issues: InputIssue[] = schemaProblems(parsed.error).map((p) => {
    const filePath = toFilePath(p.segments);
    let message = p.message;
    const unknown = message === 'unknown field';
    if (unknown) {
      const parent = p.segments.slice(0, -1);
      const present = valueAt(data, parent);
      const known = knownFieldsAt(schema, parent).filter((k) => present === null || typeof present !== 'object' || !Object.hasOwn(present, k));
      const guess = closestField(String(p.segments[p.segments.length - 1]), known);
      if (guess !== undefined) message = `unknown field (did you mean ${guess}?)`;
    }
    return {
      file: doc.file,
      ...doc.locate(filePath, { key: unknown }),
      path: formatPath(filePath),
      message,
      severity: 'error' as const,
    };
  });
  return { success: false, issues };
}

/**
 * Checks a loaded document against a schema and returns the wire-ready value.
 * @throws ValidationError (exit 2) with every problem, each with file, line, column and path.
 */
export function validateDocument<S extends z.ZodType>(doc: LoadedDocument, schema: S): z.output<S> {
  const result = documentProblems(doc, schema);
  if (result.success) return result.value;
  throw new ValidationError(result.issues);
}
