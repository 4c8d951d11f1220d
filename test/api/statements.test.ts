/**
 * Hot paths run a fixed, small number of statements whatever the size of the data, and
 * authentication is one of them. A change that adds a statement to one of these shows here.
 * The API rate limit is on: its count is folded into the statement that finds the token, so
 * every authenticated request still costs what it did without it.
 *
 * The statements themselves are checked in (test/sql/<path>.sql), so a change to a hot query
 * shows as a SQL diff in review. The test never writes them: `npm run test:sql-update` does.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { newReport, type TestReport } from '../helpers/report-factories.js';
import { buildTestApp, newUser, type Response, type TestContext, type TestUser } from '../helpers/test-app.js';

let t: TestContext;
let owner: TestUser;
let reader: TestUser;
let workspaceId: string;
let report: TestReport;
let shareToken: string;
let sessionCookie: string;

beforeAll(async () => {
  t = await buildTestApp({ config: { apiRateLimit: 1_000_000 } });
  owner = await newUser(t);
  reader = await newUser(t);
  workspaceId = (await newWorkspace(t, owner)).id;
  await addMember(t, workspaceId, reader, 'member', owner.token);
  for (let i = 0; i < 20; i++) {
    const res = await t.post(
      '/api/v1/time-entries',
      { workspaceId, start: `2026-11-0${1 + (i % 9)}T09:00:00Z`, minutes: 30 + i, tags: ['a'] },
      owner.token,
    );
    expect(res.status).toBe(201);
  }
  for (let i = 0; i < 5; i++) report = await newReport(t, owner, [workspaceId]);
  expect((await t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: [reader.id] }, owner.token)).status).toBe(201);
  for (let i = 0; i < 10; i++) {
    const comment = await t.post(`/api/v1/report-contents/${report.reportContentId}/comments`, { body: `c${i}` }, reader.token);
    await t.put(`/api/v1/report-contents/${report.reportContentId}/comments/${comment.body.id}/reactions`, { emoji: 'heart' }, owner.token);
  }
  shareToken = (await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token)).body.token;
  const link = await t.post(`/api/v1/users/${owner.id}/password-link`);
  const password = 'a long enough password';
  const signedIn = await t.request('POST', '/api/v1/password-links/redeem', {
    token: null,
    body: { token: link.body.url.split('#')[1], password },
  });
  sessionCookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
});
afterAll(() => t.close());

/** The statements one request runs, after a first request has warmed whatever it caches. */
async function statementsOf(request: () => Promise<Response>): Promise<string[]> {
  expect((await request()).status).toBeLessThan(300);
  const seen: string[] = [];
  const stop = t.database.observeQueries((sql) => seen.push(sql));
  try {
    expect((await request()).status).toBeLessThan(300);
  } finally {
    stop();
  }
  return seen;
}

describe('statements per request', () => {
  it.each([
    ['GET /api/v1/me', 1, () => t.get('/api/v1/me', owner.token)],
    ['GET /api/v1/me (session cookie)', 1, () => t.request('GET', '/api/v1/me', { token: null, headers: { cookie: sessionCookie } })],
    // The credential is found, and its user charged, in the statement that reads the report.
    ['GET /api/v1/reports/:id', 1, () => t.get(`/api/v1/reports/${report.id}`, owner.token)],
    [
      'GET /api/v1/reports/:id (session cookie)',
      1,
      () => t.request('GET', `/api/v1/reports/${report.id}`, { token: null, headers: { cookie: sessionCookie } }),
    ],
    ['GET /api/v1/reports?limit=50', 2, () => t.get('/api/v1/reports', owner.token, { limit: 50 })],
    ['GET /api/v1/report-contents/:id', 1, () => t.get(`/api/v1/report-contents/${report.reportContentId}`, reader.token)],
    // Unchanged since this process built the page: the credential and the access check (with the
    // discussion's revision) in one statement; the page comes from the process's cache.
    ['GET …/discussion', 1, () => t.get(`/api/v1/report-contents/${report.reportContentId}/discussion`, reader.token)],
    // Not in the cache (changed, or built by another process): the document too.
    [
      'GET …/discussion (not cached)',
      2,
      () => {
        t.app.chronicle.discussions.clear();
        return t.get(`/api/v1/report-contents/${report.reportContentId}/discussion`, reader.token);
      },
    ],
    // The token, then the insert, which checks the rules and the quota itself (its trigger keeps
    // the entry count).
    [
      'POST /api/v1/time-entries',
      2,
      () => t.post('/api/v1/time-entries', { workspaceId, start: '2026-11-20T09:00:00Z', minutes: 15 }, owner.token),
    ],
    ['GET /share/:token (a link seen before)', 1, () => t.request('GET', `/share/${shareToken}`, { token: null })],
  ] as const)('%s: %i', async (route, expected, request) => {
    const statements = await statementsOf(request);
    expect(statements).toHaveLength(expected);
    expectCheckedInSql(route, statements);
  });
});

/** test/sql/get-api-v1-me.sql for 'GET /api/v1/me', and so on. */
const sqlFileOf = (route: string) =>
  new URL(
    `../sql/${route
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')}.sql`,
    import.meta.url,
  );

/**
 * The statements as the checked-in file holds them: one per paragraph, without the BEGIN and
 * COMMIT node-postgres sends as statements of their own (PGlite does not show them), so both
 * engines compare with one file.
 */
function expectCheckedInSql(route: string, statements: readonly string[]): void {
  const text = `${statements
    .filter((sql) => !/^\s*(begin|commit)\s*;?\s*$/i.test(sql))
    .map((sql) => `${sql.trim()};`)
    .join('\n\n')}\n`;
  const file = sqlFileOf(route);
  if (process.env.UPDATE_SQL === '1') writeFileSync(file, text);
  expect(existsSync(file), `${file.pathname} is missing: run npm run test:sql-update`).toBe(true);
  expect(text, `the SQL of ${route} changed: review it, then run npm run test:sql-update`).toBe(readFileSync(file, 'utf8'));
}
