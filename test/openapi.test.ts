import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../src/app.js';
import { OPERATIONS } from '../src/http/operations.js';
import type { App } from '../src/http/types.js';
import { testConfig } from './helpers/test-app.js';
import { testDatabase } from './helpers/test-database.js';

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  responses: Record<string, { content?: Record<string, unknown> }>;
  security?: unknown[];
}

describe('the OpenAPI document', () => {
  let app: App;
  let operations: { key: string; operation: Operation }[];
  let document: any;

  beforeAll(async () => {
    app = await buildApp({
      config: testConfig({ publicBaseUrl: 'https://reports.example.com' }),
      database: await testDatabase(),
      logger: false,
    });
    document = app.swagger();
    operations = Object.entries<Record<string, Operation>>(document.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
    );
  });
  afterAll(() => app.close());

  test('every operation has a unique camelCase operationId, a summary and a description', () => {
    expect(operations.length).toBeGreaterThan(50);
    const missing = operations.filter(({ operation }) => !operation.operationId || !operation.summary || !operation.description);
    expect(missing.map(({ key }) => key)).toEqual([]);
    const ids = operations.map(({ operation }) => operation.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('every entry of the operations table names a route that exists', () => {
    const routes = new Set(operations.map(({ key }) => key.replace(/\{(\w+)\}/g, ':$1')));
    expect(Object.keys(OPERATIONS).filter((key) => !routes.has(key))).toEqual([]);
  });

  test('every API operation declares its errors as application/problem+json', () => {
    const api = operations.filter(({ key }) => key.includes(' /api/v1/'));
    for (const { key, operation } of api) {
      // Public API routes (signing in, redeeming a password link) take no token: no 401 or 403 for one.
      const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
      for (const status of isPublic ? ['400', '503'] : ['400', '401', '403', '404', '503']) {
        expect(operation.responses[status]?.content, `${key} ${status}`).toHaveProperty(['application/problem+json']);
        expect(operation.responses[status]?.content, `${key} ${status}`).not.toHaveProperty(['application/json']);
      }
    }
    for (const { key, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        // The public viewer answers its errors as HTML pages; everything else as problem+json.
        if (Number(status) >= 400) expect(response.content ?? {}, `${key} ${status}`).not.toHaveProperty(['application/json']);
      }
    }
  });

  test('the document names its server and licence', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: 'https://reports.example.com' })]);
    expect(document.info.license).toHaveProperty('name');
  });

  test('/openapi.json serves the same document', async () => {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.json().paths['/api/v1/reports'].post.operationId).toBe('createReport');
  });
});
