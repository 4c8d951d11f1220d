/**
 * The bounds pass of request validation (docs/decisions.md "HTTP conventions"): one walk over a
 * refused request, along its schema, that finds every list, object and text over its bound
 * (`maxItems`, `maxProperties` or more keys than an `additionalProperties: false` object declares,
 * `maxLength`) without looking inside it. Ajv's all-errors pass, which explains what is wrong, then
 * only ever sees input of a size its schema allows: a list of 200,000 wrong items costs one error
 * here, instead of 200,000 errors there.
 *
 * The walk visits each value at most once per union branch its kind fits, so its cost is linear in
 * the input (times a constant of the schema); it never descends where the schema says nothing.
 */
import { FieldErrorList } from '../lib/errors.js';

export type Schema = Record<string, unknown>;

const pointer = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

type Kind = 'null' | 'array' | 'object' | 'string' | 'number' | 'boolean' | 'other';

export function kindOfValue(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'object':
      return 'object';
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'other';
  }
}

/**
 * Whether a value of `kind` could satisfy `schema` as far as its type goes (a union: any branch).
 * A schema that names no type (`{}`) takes any kind.
 */
export function admitsKind(schema: Schema, kind: Kind, resolve: (schema: unknown) => Schema): boolean {
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) return branches.some((branch) => admitsKind(resolve(branch), kind, resolve));
  const type = schema.type;
  if (type === undefined) {
    if ('const' in schema) return kindOfValue(schema.const) === kind;
    if (Array.isArray(schema.enum)) return schema.enum.some((value) => kindOfValue(value) === kind);
    return true;
  }
  const types = Array.isArray(type) ? (type as unknown[]) : [type];
  return types.some((t) => t === kind || (t === 'integer' && kind === 'number'));
}

/** Ajv counts a string's length in code points (a surrogate pair is one character); so do we. */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    count += 1;
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
  }
  return count;
}

/**
 * Adds to `out` an error for each value of `data` over its schema's bound, in the words Ajv uses
 * (`must NOT have more than 50 items`), and for each unknown key of an object with more keys than
 * its schema declares. Inside a value over its bound nothing more is looked at.
 */
export function boundErrors(
  data: unknown,
  schemaIn: unknown,
  path: string,
  out: FieldErrorList,
  resolve: (schema: unknown) => Schema,
): void {
  const schema = resolve(schemaIn);
  const kind = kindOfValue(data);
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    const fitting = branches.map(resolve).filter((branch) => admitsKind(branch, kind, resolve));
    if (fitting.length === 1) boundErrors(data, fitting[0], path, out, resolve);
    if (fitting.length <= 1) return;
    // Over its bound only if over it in every branch it may be meant for: report the fewest.
    let fewest: FieldErrorList | null = null;
    for (const branch of fitting) {
      const trial = new FieldErrorList();
      boundErrors(data, branch, path, trial, resolve);
      if (trial.total === 0) return;
      if (!fewest || trial.total < fewest.total) fewest = trial;
    }
    if (fewest) out.addAll(fewest);
    return;
  }
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) boundErrors(data, part, path, out, resolve);
  }
  if (!admitsKind(schema, kind, resolve)) return;
  if (kind === 'array') arrayBounds(data as unknown[], schema, path, out, resolve);
  else if (kind === 'object') objectBounds(data as Record<string, unknown>, schema, path, out, resolve);
  else if (kind === 'string' && typeof schema.maxLength === 'number') {
    const text = data as string;
    if (text.length > schema.maxLength && codePoints(text) > schema.maxLength) {
      out.add(path, `must NOT have more than ${schema.maxLength} characters`);
    }
  }
}

function arrayBounds(data: unknown[], schema: Schema, path: string, out: FieldErrorList, resolve: (schema: unknown) => Schema): void {
  if (typeof schema.maxItems === 'number' && data.length > schema.maxItems) {
    out.add(path, `must NOT have more than ${schema.maxItems} items`);
    return;
  }
  // A tuple's leading items have schemas of their own (prefixItems, or items as a list in draft 7).
  const tuple: unknown[] | null = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : null;
  const rest: unknown = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  for (let i = 0; i < data.length; i++) {
    const item: unknown = tuple && i < tuple.length ? tuple[i] : rest;
    if (item !== undefined && typeof item === 'object') boundErrors(data[i], item, `${path}/${i}`, out, resolve);
  }
}

function objectBounds(
  data: Record<string, unknown>,
  schema: Schema,
  path: string,
  out: FieldErrorList,
  resolve: (schema: unknown) => Schema,
): void {
  const keys = Object.keys(data);
  if (typeof schema.maxProperties === 'number' && keys.length > schema.maxProperties) {
    out.add(path, `must NOT have more than ${schema.maxProperties} properties`);
    return;
  }
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const declared = (key: string) => Object.hasOwn(properties, key);
  if (schema.additionalProperties === false && keys.length > Object.keys(properties).length) {
    // More keys than it declares: some are unknown. Name them, and look no further inside.
    for (const key of keys) {
      if (declared(key)) continue;
      if (out.full) out.skip();
      else out.add(`${path}/${pointer(key)}`, 'is not an allowed property');
    }
    return;
  }
  const others = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const key of keys) {
    const sub = declared(key) ? properties[key] : others;
    if (sub !== undefined) boundErrors(data[key], sub, `${path}/${pointer(key)}`, out, resolve);
  }
}
