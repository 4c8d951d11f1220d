/**
 * fast-check arbitraries derived from the OpenAPI document: for each operation, requests whose path
 * parameters, query strings, bodies and headers are valid-shaped (from the operation's schemas,
 * with real ids mixed in so they reach the rules behind validation) or hostile (mutated, wrong
 * types, malformed JSON, odd content types, broken URLs).
 */
import fc from 'fast-check';

type Schema = Record<string, any>;

export interface Operation {
  method: string;
  /** OpenAPI path template (`/api/v1/reports/{id}`). */
  path: string;
  parameters: { in: string; name: string; required?: boolean; schema: Schema }[];
  /** The JSON body schema, when the operation takes a JSON body. */
  body: Schema | null;
}

/** Values the arbitraries draw from besides random ones. */
export interface Pools {
  /** Ids of real resources (users, workspaces, reports, versions, comments, messages, links, ...). */
  ids: readonly string[];
  /** Real share tokens. */
  shareTokens: readonly string[];
  /** Authorization header values with real tokens of several users and scopes. */
  authorizations: readonly string[];
  /** Authorization header values that authenticate nobody (null: no header). */
  brokenAuthorizations: readonly (string | null)[];
}

/** A request as app.inject takes it. */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** `schema` with every `#/components/schemas/<Name>` reference replaced by that schema (they never cycle). */
function inlined(schema: unknown, components: Record<string, unknown>): any {
  if (Array.isArray(schema)) return schema.map((item) => inlined(item, components));
  if (typeof schema !== 'object' || schema === null) return schema;
  const ref = (schema as Schema).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    return inlined(components[ref.slice('#/components/schemas/'.length)], components);
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inlined(value, components)]));
}

export function operationsOf(doc: {
  paths: Record<string, Record<string, Schema>>;
  components?: { schemas?: Record<string, unknown> };
}): Operation[] {
  const operations: Operation[] = [];
  const components = doc.components?.schemas ?? {};
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const body = op.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: body === undefined ? null : inlined(body, components),
      });
    }
  }
  return operations;
}

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  "'; drop table users; --",
  '" or 1=1 --',
  '<script>alert(1)</script>',
  '{{ 7 | times: 7 }}{% for i in (1..3) %}x{% endfor %}',
  '{% include "x" %}',
  '../../etc/passwd',
  '\uD800',
  '\u202Eevil',
  '😀'.repeat(40),
  'x'.repeat(1001),
  'x'.repeat(20_001),
  '1e999',
  '-1',
  'NaN',
  'null',
  '__proto__',
  'constructor',
  '0000-00-00',
  '2026-02-31',
  '9999-12-31T23:59:59.999Z',
  'Europe/Nowhere',
  'javascript:alert(1)',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
);

const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  hostileString,
  fc.constantFrom(null, true, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, [], {}, [null], { __proto__: { admin: true } }),
);

const ZONES = ['UTC', 'Europe/Berlin', 'America/Los_Angeles', 'Asia/Kathmandu', 'Pacific/Kiritimati', 'Australia/Lord_Howe'];
const LOCALES = ['en', 'en-GB', 'de-DE', 'fr-ca', 'zh-Hant-TW', 'ar-EG'];

const isoDate = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

/** A value that satisfies `schema` (mostly: ids come from the pool, which the schema cannot tell). */
export function validValue(schema: Schema, pools: Pools, name = ''): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((s) => validValue(s, pools, name)));
  if (Array.isArray(schema.type)) return fc.oneof(...(schema.type as string[]).map((type) => validValue({ ...schema, type }, pools, name)));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = (schema.minimum as number | undefined) ?? -1_000_000;
      const max = (schema.maximum as number | undefined) ?? 1_000_000;
      return fc.integer({ min, max });
    }
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'string':
      return stringValue(schema, pools, name);
    case 'array': {
      const item = validValue((schema.items as Schema | undefined) ?? {}, pools, name.replace(/s$/, ''));
      const constraints = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, 5) };
      return schema.uniqueItems
        ? fc.uniqueArray(item, { ...constraints, selector: (v) => JSON.stringify(v) })
        : fc.array(item, constraints);
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const model = Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, validValue(s, pools, key)]));
      return fc.record(model, { requiredKeys: (schema.required as string[] | undefined) ?? [] });
    }
    default:
      return hostileJson;
  }
}

function stringValue(schema: Schema, pools: Pools, name: string): fc.Arbitrary<string> {
  const description = String(schema.description ?? '');
  if (/opaque id/i.test(description) || /(^id$|Id$)/.test(name)) {
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...pools.ids) }, { weight: 1, arbitrary: fc.uuid() });
  }
  if (schema.format === 'date') return isoDate.map((s) => s.slice(0, 10));
  if (schema.format === 'date-time') return isoDate;
  if (schema.format === 'email' || name === 'email') return fc.emailAddress();
  if (name === 'timezone') return fc.constantFrom(...ZONES);
  if (name === 'locale') return fc.constantFrom(...LOCALES);
  if (name === 'imageUrl') return fc.webUrl({ validSchemes: ['https'] });
  if (name === 'passcode') return fc.string({ minLength: 4, maxLength: 20 });
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.max(minLength, Math.min((schema.maxLength as number | undefined) ?? 60, 60));
  return fc.string({ unit: 'grapheme', minLength, maxLength });
}

/** `value` with one thing wrong: a key dropped or added, a value of the wrong type, a string too long, ... */
function mutated(value: unknown, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 3) return hostileJson;
  if (Array.isArray(value)) {
    return fc.oneof(
      fc.constant([]),
      hostileJson.map((bad) => [...value, bad]),
      fc.constant(Array.from({ length: 60 }, (_, i) => value[i % Math.max(value.length, 1)] ?? `x${i}`)),
      value.length === 0 ? hostileJson : fc.nat(value.length - 1).chain((i) => mutated(value[i], depth + 1).map((v) => value.with(i, v))),
    );
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    const withKey = (key: string, v: unknown) => ({ ...value, [key]: v });
    return fc.oneof(
      hostileJson.map((bad) => withKey('unexpected', bad)),
      keys.length === 0
        ? hostileJson
        : fc.constantFrom(...keys).map((key) => Object.fromEntries(Object.entries(value).filter(([k]) => k !== key))),
      keys.length === 0 ? hostileJson : fc.constantFrom(...keys).chain((key) => hostileJson.map((bad) => withKey(key, bad))),
      keys.length === 0
        ? hostileJson
        : fc.constantFrom(...keys).chain((key) => mutated((value as Record<string, unknown>)[key], depth + 1).map((v) => withKey(key, v))),
    );
  }
  if (typeof value === 'string') return fc.oneof(hostileString, fc.constant(value + '\u0000'), fc.constant(value.repeat(200) + 'x'));
  if (typeof value === 'number') return fc.constantFrom(-value, value + 0.5, 1e308, -1, 0, String(value), null);
  return hostileJson;
}

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/problem+json',
  'application/json, text/plain',
  'garbage',
];

/** Path segments that are not even well-formed once in a URL. */
const RAW_SEGMENTS = ['%', '%zz', '%00', '..', '.', '%2F', '%2e%2e', ';', 'a%20b', '%F0%9F%92%A9', 'x'.repeat(101)];

/**
 * `encodeURIComponent`, except that a lone surrogate, which it refuses with a URIError, becomes the
 * three bytes WTF-8 gives it (`%ED%A0%80` for U+D800): malformed UTF-8, as a hostile client sends.
 */
function encodeHostile(text: string): string {
  let out = '';
  for (const ch of text) {
    const unit = ch.charCodeAt(0);
    out +=
      ch.length === 1 && unit >= 0xd800 && unit <= 0xdfff
        ? [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
            .map((byte) => `%${byte.toString(16).toUpperCase()}`)
            .join('')
        : encodeURIComponent(ch);
  }
  return out;
}

function pathValue(name: string, pools: Pools): fc.Arbitrary<string> {
  const real = name === 'token' ? pools.shareTokens : pools.ids;
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...real).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.base64String({ minLength: 20, maxLength: 24 }).map(encodeURIComponent) },
    { weight: 2, arbitrary: hostileString.map(encodeHostile) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
  );
}

function queryValue(schema: Schema, pools: Pools, name: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: validValue(schema, pools, name).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) },
    { weight: 1, arbitrary: hostileString },
    { weight: 1, arbitrary: fc.constantFrom('-1', '0', '201', '1e400', '100000000000000000000', '1.5', 'true', '') },
  );
}

/** Everything one request to `op` may be. */
export function requestFor(op: Operation, pools: Pools): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const isViewer = op.path.startsWith('/share/');

  const path = fc
    .record(Object.fromEntries(pathParams.map((p) => [p.name, pathValue(p.name, pools)])))
    .map((values) => op.path.replace(/\{([^}]+)\}/g, (_, key: string) => values[key] ?? ''));

  const query = fc
    .tuple(
      fc.record(Object.fromEntries(queryParams.map((p) => [p.name, queryValue(p.schema, pools, p.name)])), { requiredKeys: [] }),
      fc.option(fc.dictionary(fc.constantFrom('extra', 'limit', 'offset', '__proto__', 'a[b]', ''), hostileString, { maxKeys: 2 }), {
        nil: undefined,
      }),
    )
    .map(([declared, extra]) => {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(declared)) if (value !== undefined) search.append(key, value);
      for (const [key, value] of Object.entries(extra ?? {})) search.append(key, value);
      const text = search.toString();
      return text ? `?${text}` : '';
    });

  const json = (value: unknown) => ({ payload: (JSON.stringify(value) as string | undefined) ?? 'null', type: 'application/json' });
  const validBody = op.body ? validValue(op.body, pools) : fc.constant({});
  const body: fc.Arbitrary<{ payload?: string; type?: string }> = isViewer
    ? fc.oneof(
        {
          weight: 4,
          arbitrary: fc
            .string({ maxLength: 30 })
            .map((p) => ({ payload: `passcode=${encodeHostile(p)}`, type: 'application/x-www-form-urlencoded' })),
        },
        { weight: 1, arbitrary: hostileString.map((p) => ({ payload: p, type: 'application/x-www-form-urlencoded' })) },
        { weight: 1, arbitrary: hostileJson.map(json) },
        { weight: 1, arbitrary: fc.constant({}) },
      )
    : fc.oneof(
        { weight: op.body ? 5 : 1, arbitrary: validBody.map(json) },
        { weight: op.body ? 4 : 1, arbitrary: validBody.chain((v) => mutated(v)).map(json) },
        { weight: 1, arbitrary: hostileJson.map(json) },
        { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((text) => ({ payload: `{"${text}`, type: 'application/json' })) },
        { weight: op.body ? 1 : 4, arbitrary: fc.constant({}) },
      );

  const contentType = fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) });
  const extraHeaders = fc.record(
    {
      'if-match': fc.constantFrom('"1"', '"2"', '*', 'W/"1"', 'garbage', '"999999999999999999999"'),
      accept: fc.constantFrom('text/html', 'application/xml', '*/*', 'application/json'),
      'x-forwarded-for': fc.constantFrom('1.2.3.4', '::1', 'garbage'),
      'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0'),
    },
    { requiredKeys: [] },
  );

  return fc
    .record({
      path,
      query,
      body,
      contentType,
      authorization: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...pools.authorizations) },
        { weight: 1, arbitrary: fc.constantFrom(...pools.brokenAuthorizations) },
      ),
      extraHeaders,
    })
    .map(({ path: p, query: q, body: b, contentType: ct, authorization, extraHeaders: extra }) => {
      const headers: Record<string, string> = { ...extra };
      if (authorization !== null) headers.authorization = authorization;
      const type = ct ?? b.type;
      if (b.payload !== undefined && type !== undefined) headers['content-type'] = type;
      return { method: op.method, url: `${p}${q}`, headers, ...(b.payload !== undefined ? { payload: b.payload } : {}) };
    });
}
