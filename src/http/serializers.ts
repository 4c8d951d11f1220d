/**
 * Response serializers compiled once per distinct schema. Fastify compiles a fast-json-stringify
 * function for every response of every route at start-up, validating each schema and resolving
 * the shared components again each time; most routes answer the same problem and entity schemas,
 * and a process that builds the app twice (tests, a restart in place) compiled everything twice.
 * A compiled serializer is a pure function of its schema, the shared schemas and the options, so
 * it is kept under exactly those (as JSON) and reused: start-up compiles each distinct schema once.
 * The schemas come from the code, so the cache is bounded by it (and capped besides).
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { LRUCache } from 'lru-cache';

type Factory = ReturnType<typeof SerializerSelector>;
type Serializer = (doc: unknown) => string;

/** Serializers by context (shared schemas and options) and then by route schema. */
const compiled = new LRUCache<string, Map<string, Serializer>>({ max: 8 });
/** More than every response of every route, several times over. */
const PER_CONTEXT = 4_000;

/**
 * The last context's key, by the identity of its shared schemas and options: Fastify asks for a
 * serializer compiler once per plugin context (24 times as the app is built), each time with a new
 * object holding the same schema objects, and their JSON is 67 KB.
 */
let last: { schemas: readonly unknown[]; options: unknown; context: string } | null = null;

function contextOf(externalSchemas: unknown, options: unknown): string {
  const schemas = externalSchemas && typeof externalSchemas === 'object' ? Object.values(externalSchemas) : [externalSchemas];
  const prev = last;
  if (
    prev !== null &&
    prev.options === options &&
    prev.schemas.length === schemas.length &&
    prev.schemas.every((s, i) => s === schemas[i])
  ) {
    return prev.context;
  }
  const context = JSON.stringify([externalSchemas ?? null, options ?? null]);
  last = { schemas, options, context };
  return context;
}

/** A drop-in for Fastify's default serializer factory (its `schemaController.compilersFactory.buildSerializer`). */
export const cachedSerializerFactory: Factory = (externalSchemas, options) => {
  const build = SerializerSelector()(externalSchemas, options);
  const context = contextOf(externalSchemas, options);
  // Looked up once per context, not per response schema: the key is long.
  let serializers = compiled.get(context);
  if (!serializers) compiled.set(context, (serializers = new Map()));
  const known = serializers;
  return (route) => {
    const key = JSON.stringify(route.schema ?? null);
    let serializer = known.get(key);
    if (!serializer) {
      serializer = build(route);
      if (known.size >= PER_CONTEXT) known.clear();
      known.set(key, serializer);
    }
    return serializer;
  };
};
