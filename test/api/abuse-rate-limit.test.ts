/**
 * The API rate limit (docs/operations.md "Rate limit"): per user (all their tokens and sessions
 * together), in request units per minute, held in the database so two processes count against
 * one budget. The clock is pinned, so the
 * window and Retry-After are exact figures, not timings.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { HEAVY_RATE_COST, RATE_BODY_BYTES_PER_UNIT, RATE_COST } from '../../src/modules/auth/auth.js';
import { newWorkspace } from '../helpers/factories.js';
import { builtInTemplateId, newReport, newTemplate } from '../helpers/report-factories.js';
import { hold } from '../helpers/render-gate.js';
import { seedEntries } from '../helpers/seed.js';
import { buildPeerApp, buildTestApp, expectProblem, newUser, readOnlyToken, type TestContext, type TestUser } from '../helpers/test-app.js';

const LIMIT = 30;
/** 15 s into a minute: the window ends in 45 s. */
const IN_WINDOW = '2026-11-20T10:00:15.000Z';

let t: TestContext;
let user: TestUser;
/** Made before any test moves the clock, since the admin's budget runs out in the later tests. */
let bodyCaller: TestUser;
let refusedCaller: TestUser;

beforeAll(async () => {
  t = await buildTestApp({ config: { apiRateLimit: LIMIT } });
  user = await freshToken();
  bodyCaller = await freshToken();
  refusedCaller = await freshToken();
});
afterAll(() => t.close());

let setups = 0;

/**
 * A fresh user with a fresh token: its own budget. Made in an hour of its own, so the bootstrap
 * admin's requests that make it never meet the (small) limit either.
 */
async function freshToken(): Promise<TestUser> {
  setups += 1;
  // A window never moves back (a clock behind another process's), so the admin's counter from a
  // later test's clock would still be charged here: start the admin afresh.
  await t.database.db.execute(sql`delete from user_rate_windows w using users u where u.id = w.user_id and u.instance_admin`);
  t.clock.set(new Date(Date.parse('2026-10-01T00:00:00.000Z') + setups * 3_600_000));
  return newUser(t);
}

/** A fresh user's report whose document is about 212,000 characters (no entries read), and its template. */
async function largeReport() {
  const caller = await freshToken();
  const ws = await newWorkspace(t, caller);
  const templateId = await newTemplate(t, `# {{ report.name }}\n{% for i in (1..2000) %}{{ i }} ${'x'.repeat(100)}\n{% endfor %}`);
  const report = await newReport(t, caller, [ws.id], { name: 'Large', templateId });
  return { caller, ws, templateId, report };
}

/** The units `size` characters cost past their route's price. */
const unitsFor = (size: number) => Math.ceil(size / RATE_BODY_BYTES_PER_UNIT) - 1;

describe('API_RATE_LIMIT', () => {
  it(`allows ${LIMIT} reads a minute per user, then answers 429 problem+json with Retry-After and RateLimit-*`, async () => {
    const caller = await freshToken();
    const other = await readOnlyToken(t, caller);
    t.clock.set(IN_WINDOW);
    for (let i = 1; i <= LIMIT; i++) {
      const res = await t.get('/api/v1/me', caller.token);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe(String(LIMIT));
      expect(res.headers['ratelimit-remaining']).toBe(String(LIMIT - i));
      expect(res.headers['ratelimit-reset']).toBe('45');
      expect(res.headers['ratelimit-policy']).toBe(`${LIMIT};w=60`);
    }
    const refused = await t.get('/api/v1/me', caller.token);
    expect(expectProblem(refused, 429).detail).toMatch(/30 request units/);
    expect(refused.headers['retry-after']).toBe('45');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.headers.connection).not.toBe('close');
    // Another token of the same user spends the same budget: minting tokens does not multiply it.
    const sameUser = await t.get('/api/v1/me', other);
    expectProblem(sameUser, 429);
    expect(sameUser.headers['retry-after']).toBe('45');
    // The next window starts afresh.
    t.clock.set('2026-11-20T10:01:00.000Z');
    const next = await t.get('/api/v1/me', caller.token);
    expect(next.status).toBe(200);
    expect(next.headers['ratelimit-remaining']).toBe(String(LIMIT - 1));
    expect(next.headers['ratelimit-reset']).toBe('60');
  });

  it('counts a session against the same budget as the user’s tokens, and leaves other users alone', async () => {
    const caller = await freshToken();
    const bystander = await freshToken();
    // Signed in shortly before the window, so the session is live in it.
    t.clock.set('2026-11-22T09:30:00.000Z');
    const link = await t.post(`/api/v1/users/${caller.id}/password-link`);
    const secret = new URL(link.body.url as string).hash.slice(1);
    const signedIn = await t.request('POST', '/api/v1/password-links/redeem', {
      token: null,
      body: { token: secret, password: 'a long enough password' },
    });
    expect(signedIn.status).toBe(201);
    const cookie = /^(chronicle_session=[^;]+)/.exec(String(signedIn.headers['set-cookie']))![1]!;
    const bySession = () => t.request('GET', '/api/v1/me', { token: null, headers: { cookie } });
    t.clock.set('2026-11-22T10:00:15.000Z');
    const first = await bySession();
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-remaining']).toBe(String(LIMIT - 1));
    for (let i = 2; i <= LIMIT; i++) {
      const res = await (i % 2 ? bySession() : t.get('/api/v1/me', caller.token));
      expect(res.headers['ratelimit-remaining']).toBe(String(LIMIT - i));
    }
    const refused = await bySession();
    expect(expectProblem(refused, 429).detail).toMatch(/shared by all its tokens and sessions/);
    expect(refused.headers['retry-after']).toBe('45');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expectProblem(await t.get('/api/v1/me', caller.token), 429);
    const other = await t.get('/api/v1/me', bystander.token);
    expect(other.status).toBe(200);
    expect(other.headers['ratelimit-remaining']).toBe(String(LIMIT - 1));
    // The injected clock moves to the next window: the session is served again.
    t.clock.set('2026-11-22T10:01:00.000Z');
    expect((await bySession()).headers['ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  it(`counts a write as ${RATE_COST.write} and a render as ${HEAVY_RATE_COST}`, async () => {
    const caller = await freshToken();
    const ws = await newWorkspace(t, caller);
    const templateId = await builtInTemplateId(t);
    t.clock.set('2026-11-21T10:00:00.000Z');
    const write = await t.patch('/api/v1/me', { name: 'Renamed' }, caller.token);
    expect(write.headers['ratelimit-remaining']).toBe(String(LIMIT - RATE_COST.write));
    const preview = await t.post(
      '/api/v1/reports/preview',
      { name: 'P', templateId, filters: { workspaceIds: [ws.id], dateRange: 'today' } },
      caller.token,
    );
    expect(preview.status).toBe(200);
    expect(preview.headers['ratelimit-remaining']).toBe(String(LIMIT - RATE_COST.write - HEAVY_RATE_COST));
  });

  it(`counts a version diff as ${HEAVY_RATE_COST}, like a render`, async () => {
    const caller = await freshToken();
    const ws = await newWorkspace(t, caller);
    const report = await newReport(t, caller, [ws.id]);
    t.clock.set('2026-11-22T10:00:00.000Z');
    const res = await t.get(`/api/v1/reports/${report.id}/diff`, caller.token, {
      from: report.reportContentId,
      to: report.reportContentId,
    });
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe(String(LIMIT - HEAVY_RATE_COST));
  });

  it(`charges a render and a diff for their size: a unit for every ${RATE_BODY_BYTES_PER_UNIT / 1024} Ki characters past the first`, async () => {
    const { caller, ws, templateId, report } = await largeReport();

    t.clock.set('2026-11-23T10:00:00.000Z');
    const body = { name: 'Large', templateId, filters: { workspaceIds: [ws.id], dateRange: 'today' } };
    const preview = await t.post('/api/v1/reports/preview', body, caller.token);
    expect(preview.status).toBe(200);
    const extra = unitsFor((preview.body.renderedMarkdown as string).length);
    expect(extra).toBe(6);
    // The answer shows what was paid up front; the size is charged once the work is done.
    expect(preview.headers['ratelimit-remaining']).toBe(String(LIMIT - HEAVY_RATE_COST));
    const next = await t.get('/api/v1/me', caller.token);
    expect(next.headers['ratelimit-remaining']).toBe(String(LIMIT - HEAVY_RATE_COST - extra - 1));

    t.clock.set('2026-11-23T10:01:00.000Z');
    const diff = await t.get(`/api/v1/reports/${report.id}/diff`, caller.token, {
      from: report.reportContentId,
      to: report.reportContentId,
    });
    expect(diff.status).toBe(200);
    expect(diff.body.markdownDiff).toBe('');
    const diffExtra = unitsFor(report.renderedMarkdown.length * 2);
    expect(diffExtra).toBe(12);
    const after = await t.get('/api/v1/me', caller.token);
    expect(after.headers['ratelimit-remaining']).toBe(String(LIMIT - HEAVY_RATE_COST - diffExtra - 1));
  });

  it(`charges a read for its answer past the first ${RATE_BODY_BYTES_PER_UNIT / 1024} KiB, and a 304 for nothing more`, async () => {
    const { caller, report } = await largeReport();

    t.clock.set('2026-11-24T10:00:00.000Z');
    for (const url of [`/api/v1/reports/${report.id}`, `/api/v1/report-contents/${report.reportContentId}`]) {
      const read = await t.get(url, caller.token);
      expect(read.status).toBe(200);
      const extra = unitsFor(read.text.length);
      expect(extra).toBe(6);
      // The answer shows its one unit; its size is charged once it is made, and the next request sees it.
      const before = Number(read.headers['ratelimit-remaining']);
      const next = await t.get('/api/v1/me', caller.token);
      expect(next.headers['ratelimit-remaining']).toBe(String(before - extra - 1));
      // The same read answered 304 sends no document and costs its one unit only.
      expect(read.headers.etag).toBeTruthy();
      const again = await t.request('GET', url, { token: caller.token, headers: { 'if-none-match': String(read.headers.etag) } });
      expect(again.status).toBe(304);
      expect(again.headers['ratelimit-remaining']).toBe(String(before - extra - 2));
      const last = await t.get('/api/v1/me', caller.token);
      expect(last.headers['ratelimit-remaining']).toBe(String(before - extra - 3));
      t.clock.set('2026-11-24T10:01:00.000Z');
    }
    // A small answer is the read's one unit.
    const small = await t.get('/api/v1/me', caller.token);
    const after = await t.get('/api/v1/me', caller.token);
    expect(Number(after.headers['ratelimit-remaining'])).toBe(Number(small.headers['ratelimit-remaining']) - 1);
  });

  it('refuses a render whose entries overspend the budget before its template runs, and charges what it read', async () => {
    const caller = await freshToken();
    const ws = await newWorkspace(t, caller);
    // 200 entries of 2,000 characters: 420-450 Ki characters of entries as JSON, 12-14 units.
    await seedEntries(
      t,
      Array.from({ length: 200 }, (_, i) => ({
        workspaceId: ws.id,
        userId: caller.id,
        start: `2026-11-02T${String(i % 24).padStart(2, '0')}:${String(Math.floor(i / 24)).padStart(2, '0')}:00Z`,
        minutes: 1,
        description: 'd'.repeat(2000),
      })),
    );
    // Had the template run, it would fail (a 400): it reads every entry, then runs out of memory.
    const templateId = await newTemplate(
      t,
      '{% for e in entries %}{{ e.description | size }}{% endfor %}{% assign s = "xxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s }}',
    );
    const body = { name: 'Entries', templateId, filters: { workspaceIds: [ws.id], dateRange: { from: '2026-11-01', to: '2026-11-30' } } };

    t.clock.set('2026-11-24T10:00:00.000Z');
    // 18 units spent first: the preview's 10 leaves 2, and its entries cost more.
    for (let i = 0; i < 6; i++) expect((await t.patch('/api/v1/me', { name: `N${i}` }, caller.token)).status).toBe(200);
    const refused = await t.post('/api/v1/reports/preview', body, caller.token);
    expect(expectProblem(refused, 429).detail).toMatch(/request units/);
    expect(refused.headers['retry-after']).toBe('60');
    const [row] = rowsOf<{ used: number }>(
      await t.database.db.execute(sql`select used from user_rate_windows where user_id = ${caller.id}`),
    );
    const entryUnits = Number(row?.used) - 6 * RATE_COST.write - HEAVY_RATE_COST;
    expect(entryUnits).toBeGreaterThanOrEqual(12);
    expect(entryUnits).toBeLessThanOrEqual(14);

    // In a fresh minute the same preview runs its template (and fails as a render, not as a refusal).
    t.clock.set('2026-11-24T10:01:00.000Z');
    expectProblem(await t.post('/api/v1/reports/preview', body, caller.token), 400);
  });

  it('refuses a queued render whose owner spent the budget while it waited, without reading its entries', async () => {
    const caller = await freshToken();
    const ws = await newWorkspace(t, caller);
    const templateId = await builtInTemplateId(t);
    const gate = t.app.chronicle.renderGate;
    const holds = Array.from({ length: t.app.chronicle.config.renderUserConcurrency }, () => hold(gate, caller.id));
    await Promise.all(holds.map((h) => h.started));

    t.clock.set('2026-11-25T10:00:00.000Z');
    const body = { name: 'Queued', templateId, filters: { workspaceIds: [ws.id], dateRange: 'today' } };
    const waiting = t.post('/api/v1/reports/preview', body, caller.token);
    await expect.poll(() => gate.stats().waiting, { timeout: 60_000, interval: 5 }).toBe(1);
    // Admitted at the door (10 of 30), then the rest of the budget goes while it waits.
    for (let i = 0; i < LIMIT - HEAVY_RATE_COST; i++) expect((await t.get('/api/v1/me', caller.token)).status).toBe(200);
    expectProblem(await t.get('/api/v1/me', caller.token), 429);
    for (const h of holds) h.release();
    await Promise.all(holds.map((h) => h.done));
    const refused = await waiting;
    expect(expectProblem(refused, 429).detail).toMatch(/request units/);
    expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it('counts across two processes on one database', async () => {
    const caller = await freshToken();
    const peer = await buildPeerApp(t, { apiRateLimit: LIMIT });
    try {
      t.clock.set(IN_WINDOW);
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 2; i++) statuses.push((await (i % 2 ? peer : t).get('/api/v1/me', caller.token)).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
      expect(statuses.slice(LIMIT)).toEqual([429, 429]);
    } finally {
      await peer.close();
    }
  });

  it(`never lets ${LIMIT * 2} concurrent requests of one user's two tokens through more than ${LIMIT}`, async () => {
    const caller = await freshToken();
    const second = await readOnlyToken(t, caller);
    t.clock.set(IN_WINDOW);
    const results = await Promise.all(Array.from({ length: LIMIT * 2 }, (_, i) => t.get('/api/v1/me', i % 2 ? second : caller.token)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(LIMIT);
    expect(results.filter((r) => r.status === 429)).toHaveLength(LIMIT);
  });

  it('does not count a request whose token is unknown, and sends no RateLimit headers then', async () => {
    t.clock.set(IN_WINDOW);
    const res = await t.get('/api/v1/me', 'chr_not-a-real-token');
    expectProblem(res, 401);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });

  it('is off with API_RATE_LIMIT=0: no headers, no count', async () => {
    const off = await buildPeerApp(t, { apiRateLimit: 0 });
    try {
      t.clock.set(IN_WINDOW);
      const res = await off.get('/api/v1/me', user.token);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    } finally {
      await off.close();
    }
  });

  it('refuses a credential again in the same window without a statement, and counts it again in the next', async () => {
    const caller = refusedCaller;
    t.clock.set('2026-11-24T10:00:00.000Z');
    for (let i = 0; i < LIMIT; i++) expect((await t.get('/api/v1/me', caller.token)).status).toBe(200);
    expect((await t.get('/api/v1/me', caller.token)).status).toBe(429);
    const seen: string[] = [];
    const stop = t.database.observeQueries((sql) => seen.push(sql));
    try {
      t.clock.set('2026-11-24T10:00:40.000Z');
      const again = expectProblem(await t.get('/api/v1/me', caller.token), 429);
      expect(again.status).toBe(429);
    } finally {
      stop();
    }
    expect(seen).toEqual([]);
    t.clock.set('2026-11-24T10:01:00.000Z');
    const next = await t.get('/api/v1/me', caller.token);
    expect(next.status).toBe(200);
    expect(next.headers['ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  it(`counts a body's size: one more unit for every ${RATE_BODY_BYTES_PER_UNIT / 1024} KiB past the first, refused or not`, async () => {
    const caller = bodyCaller;
    t.clock.set('2026-11-23T10:00:00.000Z');
    // A body of 150,000 invalid scopes (about 600 KB): a 400, charged by its size before it is read.
    const body = JSON.stringify({ scopes: Array.from({ length: 150_000 }, () => 'x') });
    const bytes = Buffer.byteLength(body);
    const huge = await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/${caller.id}/tokens`,
      headers: { authorization: `Bearer ${caller.token}`, 'content-type': 'application/json' },
      payload: body,
    });
    expect(huge.statusCode).toBe(400);
    const cost = RATE_COST.write + Math.ceil(bytes / RATE_BODY_BYTES_PER_UNIT) - 1;
    expect(cost).toBeGreaterThan(LIMIT / 2);
    expect(huge.headers['ratelimit-remaining']).toBe(String(LIMIT - cost));
    // A second one is over the budget: refused before its body is parsed.
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/${caller.id}/tokens`,
      headers: { authorization: `Bearer ${caller.token}`, 'content-type': 'application/json' },
      payload: body,
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers.connection).toBe('close');
    // In the next minute, a small write costs what a write costs.
    t.clock.set('2026-11-23T10:01:00.000Z');
    const small = await t.patch('/api/v1/me', { name: 'x'.repeat(100) }, caller.token);
    expect(small.headers['ratelimit-remaining']).toBe(String(LIMIT - RATE_COST.write));
  });
});
