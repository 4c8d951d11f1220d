/** route(): what a route's definition derives (config, problem answers, documented headers). */
import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { route } from '../../src/http/route.js';
import { ProblemSchema } from '../../src/http/schemas.js';

const base = { tags: ['t'], operationId: 'op', summary: 's', description: 'd', handler: async () => ({ ok: true }) };
const Ok = Type.Object({ ok: Type.Boolean() });

describe('route()', () => {
  it('gives a read or write route the problems every token route may answer, and the ones it names', () => {
    const options = route({ ...base, method: 'POST', url: '/x', scope: 'write', response: { 201: Ok }, problems: [409] });
    expect(options.config).toEqual({ scope: 'write' });
    expect(Object.keys(options.schema?.response as object)).toEqual(['201', '400', '401', '403', '404', '409', '429', '503']);
    expect((options.schema?.response as Record<number, unknown>)[409]).toBe(ProblemSchema);
  });

  it('gives a public route only the problems it names, and leaves out what is not defined', () => {
    const options = route({ ...base, method: 'GET', url: '/x', scope: 'public', response: { 200: Ok }, problems: [401] });
    expect(Object.keys(options.schema?.response as object)).toEqual(['200', '401']);
    expect(options.schema).not.toHaveProperty('body');
    expect(options).not.toHaveProperty('bodyLimit');
  });

  it('declares Cache-Control on every success answer of a secret route, after its own headers', () => {
    const options = route({
      ...base,
      method: 'GET',
      url: '/x',
      scope: 'read',
      secret: true,
      rateCost: 10,
      responseHeaders: { 200: ['X-Total-Count'] },
      response: { 200: Ok, 201: Ok },
    });
    expect(options.config).toEqual({ scope: 'read', rateCost: 10, secret: true });
    expect(options.schema).toMatchObject({ 'x-response-headers': { 200: ['X-Total-Count', 'Cache-Control'], 201: ['Cache-Control'] } });
  });
});
