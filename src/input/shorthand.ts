/**
 * The shorter forms input documents may use, and how each maps to the full form. Shared by the
 * registry of kinds (`kinds.ts`: validation, JSON Schema) and by the readers that load such a
 * document for sending (the payment file of an accept), so that both read a short form alike.
 */
import type { JsonSchema } from '../schema/jsonschema.js';

/**
 * A shorter form of a document that files may use, and how it maps to the full form: e.g. a bare
 * shipment for `{shipment: …}`. Problems are reported at the paths of the file as written.
 */
export interface Shorthand {
  /** True when the document (request wrapper removed) is written in the short form. */
  matches(data: Record<string, unknown>): boolean;
  /** The document in its full form. */
  expand(data: Record<string, unknown>): Record<string, unknown>;
  /** A field path in the full form → the path in the file. */
  toFilePath(segments: ReadonlyArray<PropertyKey>): PropertyKey[];
  /** The JSON Schema of the short form, given that of the full form and a `$ref` pointer to it. */
  jsonSchema(full: JsonSchema, ref: string): JsonSchema;
}

/** Short form `{key: …, …rest}` for `{…rest, into[0]: {into[1]: …}}` (e.g. `payment` for `order.payment`). */
function movedShorthand(key: string, into: readonly [string, string]): Shorthand {
  const [outer, inner] = into;
  return {
    matches: (data) => key in data && !(outer in data),
    expand: ({ [key]: value, ...rest }) => ({ ...rest, [outer]: { [inner]: value } }),
    toFilePath: (segments) => (segments[0] === outer && segments[1] === inner ? [key, ...segments.slice(2)] : [...segments]),
    jsonSchema(full, ref) {
      const props: Record<string, JsonSchema> = { [key]: { $ref: `${ref}/properties/${outer}/properties/${inner}` } };
      for (const name of Object.keys((full.properties ?? {}) as object)) {
        if (name !== outer) props[name] = { $ref: `${ref}/properties/${name}` };
      }
      const required = ((full.required ?? []) as string[]).filter((r) => r !== outer);
      return { type: 'object', properties: props, required: [key, ...required], additionalProperties: false };
    },
  };
}

/** Short form: the document is the value that belongs under `key` (e.g. a bare shipment for `{shipment: …}`). */
export function wrappedShorthand(key: string, matches: (data: Record<string, unknown>) => boolean): Shorthand {
  return {
    matches: (data) => !(key in data) && matches(data),
    expand: (data) => ({ [key]: data }),
    toFilePath: (segments) => (segments[0] === key ? segments.slice(1) : [...segments]),
    jsonSchema(_full, ref) {
      return { $ref: `${ref}/properties/${key}` };
    },
  };
}

/**
 * The payment shorthand of an accept request: a file holding just `payment:` (and `options:`,
 * `callback:`) at the top stands for `{order: {payment: …}, …}`.
 */
export const PAYMENT_SHORTHAND: Shorthand = movedShorthand('payment', ['order', 'payment']);
