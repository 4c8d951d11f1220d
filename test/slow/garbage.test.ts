/**
 * Every route of the OpenAPI document, fed garbage in its path, query and body, as an instance
 * admin and as a plain user: the answer is never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { newWorkspace } from '../helpers/factories.js';
import { newReport } from '../helpers/report-factories.js';

let t: TestContext;
let user: TestUser;
const realIds: string[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  user = await newUser(t);
  const ws = await newWorkspace(t, user);
  const report = await newReport(t, user, [ws.id]);
  realIds.push(ws.id, report.id, report.reportContentId, user.id);
});
afterAll(() => t.close());

const PATH_VALUES = ['x', '%00', "'; drop table users; --", 'a'.repeat(65), '..%2F..%2Fetc%2Fpasswd', '%F0%9F%92%A9', '-1', '1e999'];
const BODIES: unknown[] = [
  null,
  [],
  'text',
  42,
  {},
  { name: null, body: null, emoji: null, scopes: null, filters: null, workspaceId: null },
  { name: 'x'.repeat(100_000) },
  { name: 'a\u0000b', body: 'a\u0000b', email: 'a\u0000@b.c', message: 'a\u0000', passcode: 'a\u0000bcd' },
  { name: ['x'], role: {}, minutes: 1e308, start: '99999-01-01T00:00:00Z', scopes: ['read', 'read'], emoji: '🚀' },
  { filters: { workspaceIds: ['x'], dateRange: { from: '0000-00-00', to: '9999-99-99' } }, templateId: 'x', name: 'x' },
  { recipientUserIds: [null, 1, 'x'], sendToSelf: 'yes', expiresInDays: 1.5, tags: [''] },
];
const QUERIES: Record<string, string>[] = [
  { limit: '-5', offset: 'abc', from: 'x', to: '2026-02-31' },
  { workspaceId: '%00', ownerUserId: "'" },
];

describe('garbage on every route', () => {
  it('never answers 500', async () => {
    const doc = (await t.get('/openapi.json', null)).body as { paths: Record<string, Record<string, unknown>> };
    const failures: string[] = [];
    for (const [template, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        const fills = [...PATH_VALUES, ...realIds];
        for (const [i, fill] of fills.entries()) {
          const url = template.replace(/\{[^}]+\}/g, fill);
          const bodies = method === 'get' || method === 'delete' ? [undefined] : BODIES.slice(i % 3, (i % 3) + 5);
          for (const body of bodies) {
            for (const token of [undefined, user.token]) {
              const res = await t.request(method.toUpperCase(), url, {
                token,
                ...(body === undefined ? {} : { body }),
                ...(i === 0 ? { query: QUERIES[0] } : i === 1 ? { query: QUERIES[1] } : {}),
              });
              if (res.status >= 500)
                failures.push(`${method.toUpperCase()} ${url} ${JSON.stringify(body ?? null).slice(0, 80)} -> ${res.status}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
