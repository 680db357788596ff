/**
 * Schemas built on first use. A zod schema costs its construction when the module that declares
 * it is loaded: every schema of src/schema/ built at start-up took about 25 ms of a one-file
 * `validate`, which needs only the schemas of the kind it reads. A schema declared with
 * {@link lazySchema} is built the first time anything reads it (a parse, a method, a property,
 * another schema that contains it being parsed), once; it is the same schema, so it accepts,
 * rejects and reports exactly what it would have if built at start-up.
 */
import * as z from 'zod';

/** The registries whose entries a lazy schema shares with the schema it builds (see {@link lazySchema}). */
const REGISTRIES: Array<z.core.$ZodRegistry<object>> = [z.globalRegistry as unknown as z.core.$ZodRegistry<object>];

/**
 * Makes the stand-ins of {@link lazySchema} share the entries of `registry` with the schemas they
 * build (zod's global registry is shared already). Call it where the registry is created.
 */
export function shareWithStandIns(registry: z.core.$ZodRegistry<object>): void {
  if (!REGISTRIES.includes(registry)) REGISTRIES.push(registry);
}

/**
 * A stand-in for the schema `build` returns, built on its first use and then read through: every
 * property read, written or tested (`in`), and its prototype (for `instanceof`), are the built
 * schema's. Typed as the schema itself, so declarations keep their types (`z.output<typeof x>`).
 *
 * Registry entries (the JSON Schema hints of `withJsonSchema`, zod's global metadata) are shared
 * both ways when the schema is built: a hint registered on the stand-in at load time holds for the
 * built schema (and the schemas derived from it), one registered by `build` holds for the stand-in
 * that other schemas contain.
 *
 * @param build makes the schema; called once, on first use, with no arguments
 * @returns the stand-in (the same object on every use; schemas that contain it hold the stand-in)
 */
export function lazySchema<T extends z.ZodType>(build: () => T): T {
  let built: T | undefined;
  const builtOf = (): z.ZodType => resolve();
  const resolve = (): T => {
    if (built !== undefined) return built;
    const schema = build();
    built = schema;
    for (const registry of REGISTRIES) {
      if (registry.has(proxy) && !registry.has(schema)) registry.add(schema, registry.get(proxy)!);
      else if (registry.has(schema) && !registry.has(proxy)) registry.add(proxy, registry.get(schema)!);
    }
    return schema;
  };
  const proxy: T = new Proxy({} as T, {
    get: (_target, key) => Reflect.get(resolve(), key),
    set: (_target, key, value) => Reflect.set(resolve(), key, value),
    has: (_target, key) => Reflect.has(resolve(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(resolve()),
  });
  STAND_INS.set(proxy, builtOf);
  return proxy;
}

/** Every stand-in of {@link lazySchema}, with the function that builds (or returns) its schema. */
const STAND_INS = new WeakMap<object, () => z.ZodType>();

/**
 * `schema` itself when it is not a stand-in of {@link lazySchema}; the schema it stands for
 * (built now if it was not yet) when it is.
 */
export function builtSchema(schema: z.ZodType): z.ZodType {
  return STAND_INS.get(schema)?.() ?? schema;
}

/**
 * Replaces, throughout the definition of `schema` (object shapes, wrapped types, pipes, unions,
 * arrays, …), every stand-in of {@link lazySchema} with the schema it stands for, building those
 * not built yet, and returns `schema` built. For zod's JSON Schema generator, which keys what it
 * has seen on the schema objects it is given but whose processors look them up by the schema
 * they belong to: a stand-in and its schema must not both appear; and for the hot path
 * (src/schema/hot.ts), whose compiled schemas then read no schema through a stand-in. Parsing is
 * the same either way.
 */
export function withoutStandIns(schema: z.ZodType, done = new WeakSet<object>()): z.ZodType {
  const real = builtSchema(schema);
  if (done.has(real)) return real;
  done.add(real);
  const visit = (holder: Record<PropertyKey, unknown>, key: PropertyKey): void => {
    const value = holder[key];
    if (isSchema(value)) {
      const inner = withoutStandIns(value, done);
      if (inner !== value) holder[key] = inner;
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) visit(value as unknown as Record<PropertyKey, unknown>, i);
    } else if (key === 'shape' && value !== null && typeof value === 'object') {
      for (const k of Object.keys(value)) visit(value as Record<PropertyKey, unknown>, k);
    }
  };
  const def = real._zod.def as unknown as Record<PropertyKey, unknown>;
  for (const key of Object.keys(def)) visit(def, key);
  return real;
}

/** True for a zod schema or a stand-in of one. */
function isSchema(value: unknown): value is z.ZodType {
  return value !== null && typeof value === 'object' && (STAND_INS.has(value) || '_zod' in value);
}
