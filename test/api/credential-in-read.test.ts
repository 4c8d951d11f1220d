/**
 * A hot read that finds the caller's credential in its own statement (`route({ credentialInRead })`,
 * auth.ts readAs) refuses exactly as the auth hook does on every other route: the same status, in
 * the same order, with the same headers, and the user charged the same. Each case runs against
 * the three reads that find the credential themselves (a report, a version, a discussion) and
 * against `GET /reports/:id/versions`, whose credential the hook finds, so a difference between the
 * two paths fails here.
 */
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { SESSION_IDLE_MS, SESSION_TOUCH_MS } from '../../src/modules/auth/session-policy.js';
import { newWorkspace } from '../helpers/factories.js';
import { newReport, type TestReport } from '../helpers/report-factories.js';
import { buildTestApp, expectProblem, newUser, type Response, type TestContext, type TestUser } from '../helpers/test-app.js';

const LIMIT = 40;
const START = '2026-11-20T10:00:15.000Z';

let t: TestContext;
let owner: TestUser;
let report: TestReport;
let hour = 0;

beforeAll(async () => {
  t = await buildTestApp({ config: { apiRateLimit: LIMIT } });
  t.clock.set(START);
  owner = await newUser(t);
  report = await newReport(t, owner, [(await newWorkspace(t, owner)).id]);
});
afterAll(() => t.close());
afterEach(() => {
  t.clock.reset();
});

/** A window of its own for each test: every budget is whole again, whoever set things up. */
function nextWindow(): void {
  hour += 1;
  t.clock.set(new Date(Date.parse(START) + hour * 3_600_000));
}

/** What a path names: a report and one of its versions. */
interface Target {
  id: string;
  reportContentId: string;
}

const PATHS = {
  'found in the read of a report': (r: Target) => `/api/v1/reports/${r.id}`,
  'found in the read of a version': (r: Target) => `/api/v1/report-contents/${r.reportContentId}`,
  'found in the read of a discussion': (r: Target) => `/api/v1/report-contents/${r.reportContentId}/discussion`,
  'found by the hook': (r: Target) => `/api/v1/reports/${r.id}/versions`,
} as const;

const MISSING: Target = { id: 'no-such-report', reportContentId: 'no-such-version' };
const INVALID: Target = { id: 'x'.repeat(65), reportContentId: 'x'.repeat(65) };

const get = (path: string, token: string | null, headers: Record<string, string> = {}, method = 'GET') =>
  t.request(method, path, { token, headers });

async function mint(user: TestUser, body: Record<string, unknown>): Promise<string> {
  const res = await t.post(`/api/v1/users/${user.id}/tokens`, body, user.token);
  expect(res.status).toBe(201);
  return res.body.token;
}

async function sessionOf(user: TestUser): Promise<string> {
  const link = await t.post(`/api/v1/users/${user.id}/password-link`);
  const signedIn = await t.request('POST', '/api/v1/password-links/redeem', {
    token: null,
    body: { token: new URL(link.body.url).hash.slice(1), password: 'a long enough password' },
  });
  expect(signedIn.status).toBe(201);
  return String(signedIn.headers['set-cookie']).split(';')[0]!;
}

const lastSeenOf = async (user: TestUser): Promise<number> => {
  const rows = rowsOf<{ last_seen_at: Date | string }>(
    await t.database.db.execute(sql`select last_seen_at from sessions where user_id = ${user.id}`),
  );
  return new Date(rows[0]!.last_seen_at).getTime();
};

const remaining = (res: Response) => Number(res.headers['ratelimit-remaining']);

describe.each(Object.entries(PATHS))('a credential %s', (_, pathOf) => {
  it('answers 401 with WWW-Authenticate without a credential, with an unknown token, and before a 400 or a 404', async () => {
    nextWindow();
    for (const res of [
      await get(pathOf(report), null),
      await get(pathOf(report), 'not-a-token-of-anyone'),
      await get(pathOf(INVALID), 'not-a-token-of-anyone'),
      await get(pathOf(MISSING), 'not-a-token-of-anyone'),
      await get(pathOf(report), null, { authorization: 'Basic abc' }),
    ]) {
      expectProblem(res, 401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="api"');
    }
  });

  it('answers 400 for an invalid id to a valid token, charged like any read', async () => {
    nextWindow();
    const res = await get(pathOf(INVALID), owner.token);
    expect(expectProblem(res, 400).type).toMatch(/validation/);
    expect(remaining(await get(pathOf(report), owner.token))).toBe(LIMIT - 2);
  });

  it('answers 403 insufficient_scope to a token without the read scope, before saying whether the report exists', async () => {
    nextWindow();
    const writeOnly = await mint(owner, { scopes: ['write'] });
    for (const target of [report, MISSING]) {
      const res = await get(pathOf(target), writeOnly);
      expectProblem(res, 403);
      expect(res.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="read"');
    }
  });

  it('refuses a revoked token at once and an expired one from its expiry', async () => {
    nextWindow();
    const revoked = await mint(owner, { scopes: ['read'] });
    expect((await get(pathOf(report), revoked)).status).toBe(200);
    const mine = await t.get('/api/v1/me/tokens', owner.token);
    const id = mine.body.find((token: { scopes: string[]; name: string | null; id: string }) => token.id && token.scopes.join() === 'read');
    expect((await t.request('DELETE', `/api/v1/me/tokens/${id.id}`, { token: owner.token })).status).toBe(204);
    expectProblem(await get(pathOf(report), revoked), 401);

    const expiring = await mint(owner, { scopes: ['read'], expiresInDays: 1 });
    expect((await get(pathOf(report), expiring)).status).toBe(200);
    t.clock.advance(86_400_000);
    expectProblem(await get(pathOf(report), expiring), 401);
  });

  it('hides a report the caller may not read behind the same 404 as one that does not exist, and charges both', async () => {
    nextWindow();
    const stranger = await newUser(t);
    nextWindow();
    const hidden = await get(pathOf(report), stranger.token);
    const missing = await get(pathOf(MISSING), stranger.token);
    expect(expectProblem(hidden, 404)).toEqual(expectProblem(missing, 404));
    expect([remaining(hidden), remaining(missing)]).toEqual([LIMIT - 1, LIMIT - 2]);
  });

  it(`counts ${LIMIT} reads a minute, then answers 429 with Retry-After, also when they arrive at once`, async () => {
    nextWindow();
    const reader = await newUser(t);
    nextWindow();
    const burst = await Promise.all(Array.from({ length: LIMIT + 4 }, () => get(pathOf(report), reader.token)));
    // The reader may not read the owner's report: every answer within the budget is the 404.
    expect(burst.filter((res) => res.status === 404)).toHaveLength(LIMIT);
    const refused = burst.filter((res) => res.status === 429);
    expect(refused).toHaveLength(4);
    for (const res of refused) {
      expectProblem(res, 429);
      expect(res.headers['retry-after']).toBe('45');
      expect(res.headers['ratelimit-remaining']).toBe('0');
    }
    expect(new Set(burst.filter((res) => res.status === 404).map(remaining))).toEqual(new Set(Array.from({ length: LIMIT }, (_, i) => i)));
    // The next window starts afresh.
    t.clock.advance(60_000);
    expect((await get(pathOf(report), reader.token)).status).toBe(404);
  });

  it('reads with the session cookie, moves its idle limit in steps, and refuses it once idle', async () => {
    nextWindow();
    const user = await newUser(t);
    const mineReport = await newReport(t, user, [(await newWorkspace(t, user)).id]);
    const cookie = await sessionOf(user);
    const seen = await lastSeenOf(user);
    expect((await get(pathOf(mineReport), null, { cookie })).status).toBe(200);
    expect(await lastSeenOf(user)).toBe(seen);
    t.clock.advance(SESSION_TOUCH_MS);
    expect((await get(pathOf(mineReport), null, { cookie })).status).toBe(200);
    expect(await lastSeenOf(user)).toBe(seen + SESSION_TOUCH_MS);
    t.clock.advance(SESSION_IDLE_MS);
    expectProblem(await get(pathOf(mineReport), null, { cookie }), 401);
  });

  it('answers HEAD as GET, without a body', async () => {
    nextWindow();
    const res = await get(pathOf(report), owner.token, {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });
});
