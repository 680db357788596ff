/**
 * The test of a plain object (a JSON object, a YAML mapping), shared by every layer that reads
 * untyped data: schema/, the input readers, the flows, the commands, the sandbox.
 */

/** True for a non-null object that is not an array: a JSON object or a YAML mapping. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
