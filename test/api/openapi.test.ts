import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/http/types.js';
import { testConfig } from '../helpers/test-app.js';
import { testDatabase } from '../helpers/test-database.js';

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }>;
  security?: unknown[];
}

describe('the OpenAPI document', () => {
  let app: App;
  let operations: { key: string; operation: Operation }[];
  let document: any;

  beforeAll(async () => {
    app = await buildApp({
      config: testConfig({ publicBaseUrl: 'https://chronicle.acme.test' }),
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
    expect(document.servers).toEqual([expect.objectContaining({ url: 'https://chronicle.acme.test' })]);
    expect(document.info.license).toHaveProperty('name');
  });

  test("Redocly's recommended rules find nothing to say", async () => {
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: 'openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    });
    const reported = problems
      // /healthz and /readyz take nothing a client could get wrong: they have no 4xx answer to declare.
      .filter((p) => !(p.ruleId === 'operation-4xx-response' && /^#\/paths\/~1(healthz|readyz)\//.test(p.location[0]?.pointer ?? '')))
      .map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(reported).toEqual([]);
  });

  test('named schemas are components, and operations refer to them', () => {
    const names = Object.keys(document.components.schemas);
    for (const name of [
      'Report',
      'ReportSummary',
      'Filters',
      'FiltersInput',
      'Share',
      'InboxMessage',
      'Discussion',
      'Comment',
      'ReactionSummary',
      'Problem',
      'User',
      'Token',
      'Workspace',
      'Project',
      'TimeEntry',
      'Template',
      'SendHistoryEntry',
      'RecipientCandidate',
      'ReportVersion',
      'VersionSummary',
    ]) {
      expect(names).toContain(name);
    }
    const json = (key: string, status: string) => {
      const [method, path] = key.split(' ') as [string, string];
      const content = document.paths[path][method.toLowerCase()].responses[status].content;
      return (content['application/json'] ?? content['application/problem+json']).schema;
    };
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    expect(json('GET /api/v1/reports', '200').items).toEqual(ref('ReportSummary'));
    expect(json('GET /api/v1/reports/{id}', '200')).toEqual(ref('Report'));
    expect(json('GET /api/v1/reports/{id}', '404')).toEqual(ref('Problem'));
    expect(json('GET /api/v1/reports/{id}/shares', '200').items).toEqual(ref('Share'));
    expect(json('GET /api/v1/inbox', '200').items).toEqual(ref('InboxMessage'));
    expect(json('GET /api/v1/reports/{id}/recipients', '200').items).toEqual(ref('RecipientCandidate'));
    expect(json('GET /api/v1/reports/{id}/sends', '200').items).toEqual(ref('SendHistoryEntry'));
    expect(json('GET /api/v1/report-contents/{id}/discussion', '200')).toEqual(ref('Discussion'));
    expect(document.components.schemas.Report.properties.filters).toEqual(ref('Filters'));
    expect(document.components.schemas.Discussion.properties.comments.items).toEqual(ref('Comment'));
    expect(document.components.schemas.Comment.properties.reactions.items).toEqual(ref('ReactionSummary'));
    expect(document.paths['/api/v1/reports'].post.requestBody.content['application/json'].schema).toEqual(ref('ReportBody'));
    // No schema is repeated inline under its own name.
    expect(JSON.stringify(document.paths)).not.toContain('"$id"');
  });

  test('paged lists declare X-Total-Count and Link; 429 and 503 declare Retry-After', () => {
    const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
    for (const key of [
      'GET /api/v1/reports',
      'GET /api/v1/time-entries',
      'GET /api/v1/inbox',
      'GET /api/v1/reports/{id}/sends',
      'GET /api/v1/reports/{id}/shares',
      'GET /api/v1/report-contents/{id}/discussion',
    ]) {
      const { operation } = operations.find((o) => o.key === key)!;
      expect(operation.responses['200']?.headers, key).toMatchObject({ 'X-Total-Count': header('X-Total-Count'), Link: header('Link') });
    }
    for (const { key, operation } of operations) {
      for (const status of ['429', '503']) {
        if (operation.responses[status] && key !== 'GET /readyz') {
          expect(operation.responses[status].headers, `${key} ${status}`).toHaveProperty(['Retry-After'], header('Retry-After'));
        }
      }
    }
    expect(document.components.headers['Retry-After'].schema).toEqual({ type: 'integer', minimum: 0 });
    const report = operations.find((o) => o.key === 'GET /api/v1/reports/{id}')!.operation;
    expect(report.responses['200']?.headers).toMatchObject({ ETag: header('ETag'), 'RateLimit-Remaining': header('RateLimit-Remaining') });
  });

  test('answers that hold a secret declare Cache-Control; share pages declare the headers they are sent with', async () => {
    const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
    const secret = [
      ['POST /api/v1/users/{id}/tokens', '201'],
      ['POST /api/v1/reports/{id}/shares', '201'],
      ['GET /api/v1/reports/{id}/shares', '200'],
      ['POST /api/v1/inbox/{id}/shares', '201'],
      ['GET /api/v1/inbox/{id}/shares', '200'],
      ['POST /api/v1/report-shares/{id}/revoke', '200'],
      ['POST /api/v1/workspaces/{id}/webhooks', '201'],
      ['POST /api/v1/users/{id}/password-link', '201'],
      ['POST /api/v1/password-links/redeem', '201'],
      ['POST /api/v1/sessions', '201'],
      ['GET /api/v1/admin/outbox', '200'],
    ];
    for (const [key, status] of secret) {
      const { operation } = operations.find((o) => o.key === key)!;
      expect(operation.responses[status!]?.headers, key).toHaveProperty(['Cache-Control'], header('Cache-Control'));
    }
    // Only those, and the logo, whose Cache-Control says how long to keep it: a list of reports is not a secret.
    const declaring = operations.filter(({ operation }) =>
      Object.entries(operation.responses).some(([status, r]) => status.startsWith('2') && r.headers?.['Cache-Control']),
    );
    expect(declaring.map(({ key }) => key).sort()).toEqual(
      [
        ...secret.map(([key]) => key!),
        'GET /share/{token}',
        'POST /share/{token}',
        'GET /share/{token}/export.pdf',
        'GET /share/{token}/export.csv',
        'GET /branding/{workspaceId}/logo.png',
        'GET /mail/unsubscribe/{token}',
        'POST /mail/unsubscribe/{token}',
      ].sort(),
    );

    const markdown = operations.find((o) => o.key === 'GET /api/v1/report-contents/{id}')!.operation;
    expect(markdown.responses['200']?.headers).toMatchObject({
      Vary: header('Vary'),
      'X-Content-Type-Options': header('X-Content-Type-Options'),
    });

    // What the viewer declares is what it sends, on every status.
    const page = await app.inject({ method: 'GET', url: '/share/not-a-real-token' });
    expect(page.statusCode).toBe(404);
    const viewer = document.paths['/share/{token}'];
    for (const [method, statuses] of [
      ['get', ['200', '404', '503']],
      ['post', ['200', '401', '404', '429', '503']],
    ] as const) {
      for (const status of statuses) {
        const declared = Object.keys(viewer[method].responses[status].headers).filter(
          (name) => !['X-Request-Id', 'Retry-After'].includes(name),
        );
        const always = ['Cache-Control', 'Content-Security-Policy', 'Referrer-Policy', 'X-Content-Type-Options', 'X-Robots-Tag'];
        // A report page may be sent compressed (test/api/viewer.test.ts "compressed pages").
        const page200 = status === '200' ? ['Content-Encoding', 'Vary'] : [];
        expect(declared.sort(), `${method} ${status}`).toEqual([...always, ...page200].sort());
        for (const name of always) expect(page.headers[name.toLowerCase()], name).toBeTruthy();
      }
    }
  });

  test("the viewer's passcode form is declared", () => {
    const body = document.paths['/share/{token}'].post.requestBody;
    expect(body.content['application/x-www-form-urlencoded'].schema.properties).toHaveProperty('passcode');
  });

  test('every example a schema gives is valid against that schema', () => {
    const ajv = new Ajv({ strict: false, allErrors: false });
    addFormats.default(ajv);
    ajv.addSchema(document, 'openapi');
    /** JSON pointers (under components/schemas) of every schema node that carries examples. */
    const withExamples: string[] = [];
    const walk = (node: unknown, pointer: string) => {
      if (typeof node !== 'object' || node === null) return;
      if (Array.isArray((node as { examples?: unknown }).examples) && !pointer.endsWith('/properties')) withExamples.push(pointer);
      for (const [key, value] of Object.entries(node)) {
        if (key === 'examples' || key === 'enum' || key === 'const' || key === 'default') continue;
        walk(value, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
      }
    };
    walk(document.components.schemas, '#/components/schemas');
    expect(withExamples.length).toBeGreaterThan(10);
    expect(withExamples).toContain('#/components/schemas/ScheduleBody');
    const invalid = withExamples.flatMap((pointer) => {
      const validate = ajv.getSchema(`openapi${pointer}`)!;
      const { examples } = validate.schema as { examples: unknown[] };
      return examples.flatMap((example, i) => (validate(example) ? [] : [`${pointer} example ${i}: ${ajv.errorsText(validate.errors)}`]));
    });
    expect(invalid).toEqual([]);
  });

  test('/openapi.json serves the same document', async () => {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.json().paths['/api/v1/reports'].post.operationId).toBe('createReport');
  });
});
