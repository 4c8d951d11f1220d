/**
 * Validation stays linear in its input and its answers small (docs/decisions.md "HTTP
 * conventions"): the bounds pass, the capped error list, the JSON depth scan and the linear
 * explanation of Ajv's errors. Work is counted (values looked at, errors read), never timed.
 */
import type { ErrorObject } from 'ajv';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError, FieldErrorList, MAX_FIELD_ERRORS } from '../../src/lib/errors.js';
import { boundErrors, type Schema } from '../../src/http/validation-bounds.js';
import { createValidatorCompiler, toFieldErrors } from '../../src/http/validation.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/http/json-body.js';
import { problemHandler } from '../../src/http/problem.js';
import { componentRegistry } from '../../src/http/components.js';
import { CreateTimeEntriesBatchBody, TIME_ENTRY_SCHEMAS } from '../../src/modules/time-entries/time-entries.schemas.js';
import { USER_SCHEMAS } from '../../src/modules/users/users.schemas.js';

const plain = (schema: unknown) => schema as Schema;

/** The bounds pass over `data`, with schemas that carry no references. */
function bounds(data: unknown, schema: unknown): FieldErrorList {
  const out = new FieldErrorList();
  boundErrors(data, schema, '', out, plain);
  return out;
}

/** A list whose items count each time one is read. */
function countingArray(length: number, item: unknown): { array: unknown[]; reads: () => number } {
  let reads = 0;
  const array = new Proxy(
    Array.from({ length }, () => item),
    {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    },
  );
  return { array, reads: () => reads };
}

/** The named schemas the routes below refer to, and the validator compiler that resolves them. */
const components = componentRegistry([...USER_SCHEMAS, ...TIME_ENTRY_SCHEMAS]);
const validatorCompiler = createValidatorCompiler(components.schemas);

/** The validator Fastify would build for a route part, and what it answers for `data`. */
function check(schema: object, data: unknown, httpPart = 'body'): AppError | null {
  const validate = validatorCompiler({ schema, httpPart, method: 'POST', url: '/' }) as (data: unknown) => unknown;
  const result = validate(data);
  if (result === true) return null;
  return (result as { error: AppError }).error;
}

describe('the bounds pass', () => {
  it('answers a list over its maxItems with one error, without looking at a single item', () => {
    const { array, reads } = countingArray(200_000, 42);
    const out = bounds(
      { scopes: array },
      { type: 'object', properties: { scopes: { type: 'array', maxItems: 2, items: { type: 'string' } } } },
    );
    expect(out.kept).toEqual([{ path: '/scopes', message: 'must NOT have more than 2 items' }]);
    expect(out.omitted).toBe(0);
    expect(reads()).toBe(0);
  });

  it('looks at each item of a list within its bound once', () => {
    const { array, reads } = countingArray(500, 'x'.repeat(11));
    const out = bounds(array, { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 10 } });
    expect(out.total).toBe(500);
    expect(out.kept).toHaveLength(MAX_FIELD_ERRORS);
    expect(out.kept[0]).toEqual({ path: '/0', message: 'must NOT have more than 10 characters' });
    expect(reads()).toBe(500);
  });

  it('names the unknown keys of an object with more keys than it declares, and counts the rest', () => {
    const data = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, { deep: [1, 2, 3] }]));
    const out = bounds({ ...data, name: 'x' }, { type: 'object', additionalProperties: false, properties: { name: { type: 'string' } } });
    expect(out.kept).toHaveLength(MAX_FIELD_ERRORS);
    expect(out.kept[0]).toEqual({ path: '/k0', message: 'is not an allowed property' });
    expect(out.total).toBe(50_000);
  });

  it('checks maxProperties before anything inside the object', () => {
    const out = bounds(
      { a: 'x'.repeat(100), b: 1, c: 2 },
      { type: 'object', maxProperties: 2, additionalProperties: { type: 'string', maxLength: 1 } },
    );
    expect(out.kept).toEqual([{ path: '', message: 'must NOT have more than 2 properties' }]);
  });

  it('counts text in code points, as Ajv does', () => {
    const schema = { type: 'string', maxLength: 20 };
    expect(bounds('😀'.repeat(20), schema).total).toBe(0);
    expect(bounds('😀'.repeat(21), schema).kept).toEqual([{ path: '', message: 'must NOT have more than 20 characters' }]);
  });

  it('follows the branch of a union the value fits, and only counts a value over the bounds of every branch it fits', () => {
    const nullableList = { anyOf: [{ type: 'array', maxItems: 3, items: { type: 'string' } }, { type: 'null' }] };
    expect(bounds([1, 2, 3, 4], nullableList).kept).toEqual([{ path: '', message: 'must NOT have more than 3 items' }]);
    expect(bounds(null, nullableList).total).toBe(0);
    const twoLists = {
      anyOf: [
        { type: 'array', maxItems: 3 },
        { type: 'array', maxItems: 10 },
      ],
    };
    expect(bounds([1, 2, 3, 4], twoLists).total).toBe(0);
    expect(bounds(Array.from({ length: 11 }), twoLists).kept).toEqual([{ path: '', message: 'must NOT have more than 3 items' }]);
  });

  it('does not descend where the schema says nothing, nor into a value of the wrong kind', () => {
    const { array, reads } = countingArray(100_000, [[]]);
    expect(bounds({ note: array }, { type: 'object', properties: { note: { type: 'string', maxLength: 5 } } }).total).toBe(0);
    expect(bounds({ other: array }, { type: 'object', properties: {} }).total).toBe(0);
    expect(reads()).toBe(0);
  });
});

describe('the validator of a route', () => {
  const tokenBody = { $ref: 'CreateTokenBody#' };

  it('answers 100,000 invalid scopes with exactly one error entry', () => {
    const error = check(tokenBody, { scopes: Array.from({ length: 100_000 }, (_, i) => `bad${i}`) });
    expect(error?.errors).toEqual([{ path: '/scopes', message: 'must NOT have more than 2 items' }]);
    expect(error?.omittedErrors).toBe(0);
  });

  it('keeps the helpful message of a list within its bounds', () => {
    expect(check(tokenBody, { scopes: ['read', 'nope'] })?.errors).toEqual([{ path: '/scopes/1', message: 'must be one of read, write' }]);
    expect(check(tokenBody, { scopes: ['read'] })).toBeNull();
  });

  it('lists every error of a body within its bounds, for the answer to cap', () => {
    const entries = Array.from({ length: 1000 }, () => ({ start: 'soon', minutes: 'many', workspaceId: 1 }));
    const error = check(components.withRefs(CreateTimeEntriesBatchBody, false) as object, { entries });
    expect(error?.errors?.length).toBe(3000);
    expect(error?.errors).toContainEqual({ path: '/entries/999/start', message: expect.stringMatching(/^must be a date-time/) });
  });

  it('prefixes the query string and coerces it', () => {
    const schema = { type: 'object', properties: { limit: { type: 'integer', maximum: 5 } }, additionalProperties: false };
    expect(check(schema, { limit: '9' }, 'querystring')?.errors).toEqual([{ path: '/query/limit', message: 'must be <= 5' }]);
    expect(check(schema, { limit: '3' }, 'querystring')).toBeNull();
  });
});

describe('toFieldErrors', () => {
  /** Ajv errors whose instancePath counts its reads: the work done per error. */
  function countedErrors(n: number): { errors: ErrorObject[]; reads: () => number } {
    let reads = 0;
    const errors: ErrorObject[] = [];
    for (let i = 0; i < n; i++) {
      const path = `/items/${i}/value`;
      const union = i % 2 === 0;
      errors.push(
        Object.defineProperty(
          {
            keyword: union ? 'anyOf' : 'type',
            schemaPath: '#',
            params: {},
            message: union ? 'must match a schema in anyOf' : 'must be string',
            // A union of kinds the value does not have: explained without checking a branch.
            schema: union ? [{ type: 'string' }, { type: 'null' }] : 'string',
            parentSchema: union ? {} : { type: 'string' },
            data: 7,
          },
          'instancePath',
          {
            get() {
              reads += 1;
              return path;
            },
          },
        ) as unknown as ErrorObject,
      );
    }
    return { errors, reads: () => reads };
  }

  it('reads each error a constant number of times, however many there are', () => {
    const perError = [1_000, 10_000].map((n) => {
      const { errors, reads } = countedErrors(n);
      const out = toFieldErrors(errors);
      expect(out).toHaveLength(n);
      expect(out[0]).toEqual({ path: '/items/0/value', message: 'must be a string or null' });
      expect(out[1]).toEqual({ path: '/items/1/value', message: 'must be string' });
      return reads() / n;
    });
    expect(perError[1]).toBe(perError[0]);
    expect(perError[0]).toBeLessThanOrEqual(4);
  });
});

describe('the JSON depth scan', () => {
  const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;

  it(`takes ${MAX_JSON_DEPTH} levels and refuses one more`, () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(`{"a":${'{"a":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`, MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(nested(10_000), MAX_JSON_DEPTH)).toBe(true);
  });

  it('counts levels, not brackets: siblings do not add up', () => {
    expect(nestsDeeperThan(`[${Array.from({ length: 1000 }, () => nested(MAX_JSON_DEPTH - 1)).join(',')}]`, MAX_JSON_DEPTH)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ note: '['.repeat(1000) }), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ note: `"\\${'['.repeat(1000)}` }), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify([`\\"`, '['.repeat(100)]), MAX_JSON_DEPTH)).toBe(false);
    // A string ending in a backslash ends at its quote: the nesting after it still counts.
    expect(nestsDeeperThan(`["x\\\\", ${nested(MAX_JSON_DEPTH)}]`, MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(`["x\\\\\\"", ${nested(MAX_JSON_DEPTH)}]`, MAX_JSON_DEPTH)).toBe(true);
  });
});

describe('the problem answer', () => {
  async function answer(error: AppError) {
    const app = Fastify();
    app.setErrorHandler(problemHandler);
    app.get('/', () => {
      throw error;
    });
    const res = await app.inject({ method: 'GET', url: '/' });
    await app.close();
    return { status: res.statusCode, size: res.body.length, body: JSON.parse(res.body) as Record<string, unknown> };
  }

  it(`lists at most ${MAX_FIELD_ERRORS} errors and says how many more there were`, async () => {
    const errors = Array.from({ length: 30 }, (_, i) => ({ path: `/x/${i}`, message: 'is wrong' }));
    const { status, body } = await answer(new AppError('validation', 'The request is not valid.', errors, undefined, 100));
    expect(status).toBe(400);
    expect(body.errors).toEqual(errors.slice(0, MAX_FIELD_ERRORS));
    expect(body.omittedErrors).toBe(110);
    expect(body.detail).toBe('The request is not valid. Only the first 20 of 130 errors are listed.');
  });

  it('leaves a short list as it is', async () => {
    const { body } = await answer(new AppError('validation', 'The request is not valid.', [{ path: '/a', message: 'is required' }]));
    expect(body).toEqual({
      type: 'urn:chronicle:problem:validation',
      title: 'Bad Request',
      status: 400,
      detail: 'The request is not valid.',
      errors: [{ path: '/a', message: 'is required' }],
    });
  });

  it('cuts a path of an enormous key, so the answer stays small', async () => {
    const errors = Array.from({ length: 40 }, (_, i) => ({ path: `/${String(i).repeat(50_000)}`, message: 'is not an allowed property' }));
    const { size, body } = await answer(new AppError('validation', 'The request is not valid.', errors));
    expect(size).toBeLessThan(8 * 1024);
    expect((body.errors as { path: string }[])[0]?.path).toMatch(/^\/0{199}…$/);
  });
});
