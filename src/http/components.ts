/**
 * The named schemas of the API (`components.schemas` in the OpenAPI document). Each is declared
 * once, with its `$id`, next to the feature that owns it and in that feature's list of named
 * schemas; app.ts gathers the lists of its FEATURES into one registry. Route definitions use the
 * TypeBox values as they are (so handlers keep their static types), and at registration every
 * copy of a named schema in a route's body or response becomes a `$ref` to it (app.ts). Fastify's
 * serialisers and both request validators (validation.ts) resolve those references from the
 * registry's one list.
 */
import type { TSchema } from 'typebox';

/** The named schemas of one application, and how its routes refer to them. */
export interface ComponentRegistry {
  /** The named schemas as they are registered, in order: each one's own named parts are references too. */
  readonly schemas: readonly Record<string, unknown>[];
  /**
   * A copy of `schema` in which every named schema below the top is `{ $ref: '<Name>#' }`. A
   * schema whose `$id` is not in the registry, or that differs from the named one (TypeBox's
   * Partial or Pick keep the `$id` of what they derive from), stops start-up rather than publish a
   * wrong reference.
   */
  withRefs(schema: unknown, top?: boolean): unknown;
}

/** The registry of `named`: each needs a unique `$id`; their order is the document's. */
export function componentRegistry(named: readonly TSchema[]): ComponentRegistry {
  const byId = new Map<string, TSchema>();
  for (const schema of named) {
    const id = (schema as { $id?: unknown }).$id;
    if (typeof id !== 'string' || byId.has(id)) throw new Error(`A named schema needs a unique $id (${String(id)}).`);
    byId.set(id, schema);
  }
  return {
    schemas: named.map((schema) => withRefs(byId, schema, true) as Record<string, unknown>),
    withRefs: (schema, top = true) => withRefs(byId, schema, top),
  };
}

/** Fields TypeBox adds to a schema that wraps another (Optional, Readonly); not part of the shape. */
const isMarker = (key: string) => key.startsWith('~');

function sameShape(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((k) => !isMarker(k));
  const keysB = Object.keys(b).filter((k) => !isMarker(k));
  if (keysA.length !== keysB.length) return false;
  return keysA.every((k) => sameShape((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function withRefs(byId: ReadonlyMap<string, TSchema>, schema: unknown, top: boolean): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withRefs(byId, item, false));
  if (typeof schema !== 'object' || schema === null) return schema;
  const record = schema as Record<string, unknown>;
  const id = record.$id;
  if (typeof id === 'string') {
    const named = byId.get(id);
    if (!named || !sameShape(named, record))
      throw new Error(`The schema ${id} is not the named schema of that $id (listed in its feature's named schemas).`);
    if (!top) return { $ref: `${id}#` };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (isMarker(key)) continue;
    // `properties` maps names to schemas; `enum`, `const`, `required` and examples hold data, not schemas.
    out[key] =
      key === 'enum' || key === 'const' || key === 'required' || key === 'examples' || key === 'default'
        ? value
        : withRefs(byId, value, false);
  }
  return out;
}
