/**
 * The response serializers shared by every app a process builds (src/http/serializers.ts): the
 * same schema under the same shared schemas is compiled once, and a different set of shared
 * schemas never gets another set's serializer.
 */
import { describe, expect, it } from 'vitest';
import { cachedSerializerFactory } from '../../src/http/serializers.js';

const route = (schema: object) => ({ schema, method: 'GET', url: '/x', httpStatus: '200' });
const item = (property: string) => ({ $id: 'Item', type: 'object', properties: { [property]: { type: 'string' } } });

describe('cached response serializers', () => {
  it('compiles a schema once for the same shared schemas, whatever object holds them', () => {
    const shared = item('name');
    const response = { $ref: 'Item#' };
    // Fastify hands each plugin context a new object holding the same schema objects.
    const first = cachedSerializerFactory({ Item: shared }, {})(route(response));
    const second = cachedSerializerFactory({ Item: shared }, {})(route(response));
    expect(second).toBe(first);
    expect(first({ name: 'Ana', secret: 'x' })).toBe('{"name":"Ana"}');
  });

  it('gives other shared schemas, or other options, serializers of their own', () => {
    const response = { $ref: 'Item#' };
    const byName = cachedSerializerFactory({ Item: item('name') }, {})(route(response));
    const byTitle = cachedSerializerFactory({ Item: item('title') }, {})(route(response));
    expect(byTitle).not.toBe(byName);
    expect(byTitle({ name: 'Ana', title: 'Lead' })).toBe('{"title":"Lead"}');
    expect(byName({ name: 'Ana', title: 'Lead' })).toBe('{"name":"Ana"}');
    // The same schemas with other options are another context too.
    const shared = item('name');
    const plain = cachedSerializerFactory({ Item: shared }, {})(route(response));
    const rounded = cachedSerializerFactory({ Item: shared }, { rounding: 'floor' })(route(response));
    expect(rounded).not.toBe(plain);
  });
});
