/**
 * Request validation: bodies are checked strictly (no type coercion, unknown properties refused),
 * while query strings and path parameters are coerced from their text form.
 *
 * Input is checked in up to three passes, each linear in its size (docs/decisions.md "HTTP
 * conventions"): Ajv stopping at the first error, which is all a valid request costs; for a refused
 * one, the bounds pass (validation-bounds.ts), which answers alone when a list, object or text is
 * over its bound; and only then Ajv with every error, whose errors `toFieldErrors` explains. Ajv's
 * all-errors mode never runs over input larger than its schema allows (Ajv's own security notes
 * warn against it on untrusted data), and the answer lists at most `MAX_FIELD_ERRORS` errors.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import { LRUCache } from 'lru-cache';
import type { FastifySchemaCompiler } from 'fastify';
import { AppError, FieldErrorList, type FieldError } from '../lib/errors.js';
import { admitsKind, boundErrors, kindOfValue, type Schema } from './validation-bounds.js';

// ajv-formats is CommonJS with a default export; under NodeNext the callable sits on `.default`.
const addFormats = formatsModule.default;

function makeAjv(named: readonly object[], coerceTypes: boolean | 'array', allErrors: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors,
    // Errors carry their schema and value, so messages can name what is allowed (toFieldErrors).
    verbose: true,
    strict: false,
  });
  addFormats(ajv, ['date', 'date-time', 'email', 'uri']);
  // Route bodies refer to the named schemas (`{ $ref: 'ReportBody#' }`, components.ts).
  for (const schema of named) ajv.addSchema(schema);
  return ajv;
}

type Part = 'body' | 'text';

/** Per part, Ajv stopping at the first error (every request) and Ajv collecting all (refusals). */
type Validators = Readonly<Record<Part, { first: Ajv; all: Ajv }>>;

function makeValidators(named: readonly object[]): Validators {
  return {
    body: { first: makeAjv(named, false, false), all: makeAjv(named, false, true) },
    text: { first: makeAjv(named, 'array', false), all: makeAjv(named, 'array', true) },
  };
}

const PART_PREFIX: Record<string, string> = { body: '', querystring: '/query', params: '/params', headers: '/headers' };

/** Ajv passes the parent of the value it checks, so that it may coerce a value at the top. */
type AjvValidate = ValidateFunction & ((data: unknown, context?: object) => boolean);

/** Ajv instances for one set of named schemas, and what they compiled, by mode, part and route schema (as JSON). */
interface ValidatorSet {
  ajv: Validators;
  compiled: Map<string, AjvValidate>;
}

/**
 * Validators are shared by every application of the process whose named schemas are the same (as
 * JSON), and a route schema's validator is compiled once for them all. A compiled validator is a
 * pure function of its schema, the named schemas and the options, so it is kept under exactly
 * those. A process builds one application, but the tests build hundreds, and each compiled every
 * route again (about 100 ms). Bounded by the code, and capped besides.
 */
const validatorSets = new LRUCache<string, ValidatorSet>({ max: 8 });
/** More than every schema of every route, in both modes, several times over. */
const PER_SET = 4_000;

function compiledIn(set: ValidatorSet, part: Part, mode: 'first' | 'all', schema: object): AjvValidate {
  const key = `${mode} ${part} ${JSON.stringify(schema)}`;
  let validate = set.compiled.get(key);
  if (!validate) {
    validate = set.ajv[part][mode].compile(schema) as AjvValidate;
    if (set.compiled.size >= PER_SET) set.compiled.clear();
    set.compiled.set(key, validate);
  }
  return validate;
}

/**
 * The validator compiler of an application whose route schemas refer to `named` (the component
 * registry's schemas): its Ajv instances resolve exactly those names.
 */
export function createValidatorCompiler(named: readonly object[]): FastifySchemaCompiler<unknown> {
  const namedKey = JSON.stringify(named);
  let set = validatorSets.get(namedKey);
  if (!set) validatorSets.set(namedKey, (set = { ajv: makeValidators(named), compiled: new Map() }));
  const { ajv } = set;
  const resolve = (schema: unknown) => resolveIn(ajv, schema);
  return ({ schema, httpPart }) => {
    const part: Part = httpPart === 'body' ? 'body' : 'text';
    const prefix = PART_PREFIX[httpPart ?? 'body'] ?? '';
    const first = compiledIn(set, part, 'first', schema as object);
    let all: AjvValidate | undefined;
    const validate = (data: unknown, context?: object): true | { error: AppError } => {
      if (first(data, context)) return true;
      const bounds = new FieldErrorList();
      boundErrors(data, schema, prefix, bounds, resolve);
      if (bounds.total > 0) return { error: invalid(bounds.kept, bounds.omitted) };
      // Known to be within its bounds: every error may be collected. Compiled on the first refusal.
      all ??= compiledIn(set, part, 'all', schema as object);
      all(data, context);
      const errors = fieldErrors(ajv, all.errors ?? [], prefix, part);
      return { error: invalid(errors.length > 0 ? errors : fieldErrors(ajv, first.errors ?? [], prefix, part)) };
    };
    // Fastify hands Ajv's functions (which have a schemaEnv) the parent of the value they check.
    return Object.assign(validate, { schemaEnv: first.schemaEnv });
  };
}

const invalid = (errors: FieldError[], omitted = 0) => new AppError('validation', 'The request is not valid.', errors, undefined, omitted);

const pointer = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');
const NAIVE_DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}/;
const FORMAT_EXAMPLE = 'e.g. 2026-03-02T09:00:00Z or 2026-03-02T09:00:00+01:00';

/** A named schema (`{ $ref: 'Filters#' }`) is looked up where the validators keep it. */
function resolveIn(ajv: Validators, schema: unknown): Schema {
  let current = (typeof schema === 'object' && schema !== null ? schema : {}) as Schema;
  for (let depth = 0; typeof current.$ref === 'string' && depth < 10; depth++) {
    current = (ajv.body.all.getSchema(current.$ref)?.schema ?? {}) as Schema;
  }
  return current;
}

const literal = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** What a schema takes, in words: its values (const, enum) and the kinds of the rest. */
function allowed(ajv: Validators, schema: unknown): { values: unknown[]; kinds: string[] } {
  const s = resolveIn(ajv, schema);
  const branches = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (branches) {
    const all = branches.map((branch) => allowed(ajv, branch));
    return { values: all.flatMap((a) => a.values), kinds: [...new Set(all.flatMap((a) => a.kinds))] };
  }
  if ('const' in s) return { values: [s.const], kinds: [] };
  if (Array.isArray(s.enum)) return { values: s.enum, kinds: [] };
  return { values: [], kinds: [kindOf(s)] };
}

function kindOf(s: Schema): string {
  const type = Array.isArray(s.type) ? s.type.join(' or ') : s.type;
  if (type === 'null') return 'null';
  if (type === 'object') {
    const names = Object.keys(s.properties ?? {});
    return names.length > 0 && names.length <= 6 ? `an object {${names.join(', ')}}` : 'an object';
  }
  if (type === 'array') return 'an array';
  if (type === 'string' && s.format === 'date') return 'a date YYYY-MM-DD';
  if (type === 'string' && s.format === 'date-time') return 'a date-time with an offset or Z';
  if (type === 'string') return 'a string';
  if (type === 'integer') return 'an integer';
  if (type === 'number') return 'a number';
  if (type === 'boolean') return 'true or false';
  return 'a valid value';
}

/** "must be one of a, b, c, or an object {from, to}". */
function mustBeOneOf(ajv: Validators, schema: unknown): string {
  const { values, kinds } = allowed(ajv, schema);
  const words = [...(values.length > 0 ? [values.map(literal).join(', ')] : []), ...kinds];
  const list =
    words.length <= 1
      ? (words[0] ?? 'valid')
      : words.length === 2 && values.length === 0
        ? `${words[0]} or ${words[1]}`
        : `${words.slice(0, -1).join(', ')}, or ${words.at(-1)}`;
  return values.length > 1 || (values.length === 1 && kinds.length > 0) ? `must be one of ${list}` : `must be ${list}`;
}

/** Ajv's message for one failed keyword, said with the schema's own values where it has them. */
function messageOf(ajv: Validators, error: ErrorObject): string {
  const parent = (error.parentSchema ?? {}) as Schema;
  switch (error.keyword) {
    case 'enum':
    case 'const':
      return mustBeOneOf(ajv, parent);
    case 'format':
    case 'pattern': {
      const data = typeof error.data === 'string' ? error.data : '';
      if (parent.format === 'date') {
        return DATE_TIME.test(data) ? 'must be a date YYYY-MM-DD, not a date-time' : 'must be a date YYYY-MM-DD';
      }
      if (parent.format === 'date-time') {
        return NAIVE_DATE_TIME.test(data)
          ? `must say its offset from UTC: add Z or an offset such as +01:00 (${FORMAT_EXAMPLE})`
          : `must be a date-time with an offset or Z (${FORMAT_EXAMPLE})`;
      }
      if (error.keyword === 'format' && parent.format === 'email') return 'must be an e-mail address';
      if (error.keyword === 'format' && parent.format === 'uri') return 'must be an absolute URL';
      return error.message ?? 'is invalid';
    }
    default:
      return error.message ?? 'is invalid';
  }
}

/** Errors that say the value is not of a branch's kind at all (rather than a wrong part of it). */
const KIND_KEYWORDS = new Set(['type', 'const', 'enum', 'anyOf', 'oneOf']);

/**
 * One union that nothing matched, explained: when the value has the kind of some branch (an
 * object where an object may go), that branch's own errors; otherwise one message listing what
 * the union takes. Each branch of the value's kind is checked again on its own, so its errors are
 * known apart; the value is within its bounds (the bounds pass came first), so this stays cheap.
 */
function explainUnion(ajv: Validators, error: ErrorObject, prefix: string, part: Part): FieldError[] {
  const resolve = (schema: unknown) => resolveIn(ajv, schema);
  const branches = (Array.isArray(error.schema) ? error.schema : []) as unknown[];
  const kind = kindOfValue(error.data);
  let best: FieldError[] | null = null;
  for (const branch of branches) {
    // A branch of another kind would only say so (a KIND error below): skip it unchecked.
    if (!admitsKind(resolve(branch), kind, resolve)) continue;
    const validate = ajv[part].all.compile(branch as object);
    // A branch that passes on its own (defaults filled in) leaves the one message below.
    if (validate(structuredClone(error.data))) {
      best = null;
      break;
    }
    const errors = validate.errors ?? [];
    if (errors.some((e) => e.instancePath === '' && KIND_KEYWORDS.has(e.keyword))) continue;
    const explained = fieldErrors(ajv, errors, `${prefix}${error.instancePath}`, part);
    if (!best || explained.length < best.length) best = explained;
  }
  return best ?? [{ path: `${prefix}${error.instancePath}`, message: mustBeOneOf(ajv, { anyOf: branches }) }];
}

const isUnion = (error: ErrorObject) => error.keyword === 'anyOf' || error.keyword === 'oneOf';

/**
 * Turns Ajv errors into `{ path, message }` entries with JSON-pointer paths (docs/api.md
 * "Conventions"): one message per field, naming the allowed values of an enum or a union, and what
 * a date or a date-time lacks. `part` says which validator produced them (bodies are strict).
 * Linear in the number of errors (each looks up the unions above it by its path's prefixes).
 */
function fieldErrors(ajv: Validators, errors: ErrorObject[], prefix: string, part: Part): FieldError[] {
  // At each path the failed union Ajv reports last is the outermost there (it reports a union
  // after the unions nested in it).
  const unionAt = new Map<string, ErrorObject>();
  for (const error of errors) if (isUnion(error)) unionAt.set(error.instancePath, error);
  // The outermost failed union at or above a path; everything below it is its branches' noise.
  const unionAbove = (path: string): ErrorObject | undefined => {
    if (unionAt.size === 0) return undefined;
    if (unionAt.has('')) return unionAt.get('');
    for (let slash = path.indexOf('/', 1); ; slash = path.indexOf('/', slash + 1)) {
      const union = unionAt.get(slash === -1 ? path : path.slice(0, slash));
      if (union || slash === -1) return union;
    }
  };
  const seen = new Set<string>();
  const out: FieldError[] = [];
  const add = (entry: FieldError) => {
    const key = `${entry.path}\u0000${entry.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(entry);
  };
  for (const error of errors) {
    const union = unionAbove(error.instancePath);
    if (union) {
      if (error === union) explainUnion(ajv, union, prefix, part).forEach(add);
      continue;
    }
    if (error.keyword === 'additionalProperties') {
      const property = (error.params as { additionalProperty: string }).additionalProperty;
      add({ path: `${prefix}${error.instancePath}/${pointer(property)}`, message: 'is not an allowed property' });
    } else if (error.keyword === 'required') {
      const property = (error.params as { missingProperty: string }).missingProperty;
      add({ path: `${prefix}${error.instancePath}/${pointer(property)}`, message: 'is required' });
    } else {
      add({ path: `${prefix}${error.instancePath}`, message: messageOf(ajv, error) });
    }
  }
  return out;
}

/** `fieldErrors` for errors whose schemas name no named schema (tests of the explanation alone). */
export function toFieldErrors(errors: ErrorObject[], prefix = '', part: Part = 'body'): FieldError[] {
  return fieldErrors(makeValidators([]), errors, prefix, part);
}
