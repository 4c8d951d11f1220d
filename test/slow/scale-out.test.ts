/**
 * Two Chronicle instances on one database, as two processes behind a load balancer (on
 * PostgreSQL each with a connection pool of its own): they share nothing in memory, so every
 * rule that must hold across processes is decided by the database. Requests alternate between
 * them.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { buildPeerApp, buildTestApp, newUser, type TestContext } from '../helpers/test-app.js';
import { newWorkspace } from '../helpers/factories.js';
import { newReport } from '../helpers/report-factories.js';
import { peerDatabase } from '../helpers/test-database.js';

let a: TestContext;
let b: TestContext;
let closePeerDatabase: () => Promise<void> = async () => {};

beforeAll(async () => {
  a = await buildTestApp();
  const peer = await peerDatabase();
  b = await buildPeerApp(a, {}, peer.database);
  if (peer.own) closePeerDatabase = () => peer.database.close();
});
afterAll(async () => {
  await b.close();
  await closePeerDatabase();
  await a.close();
});

/** The instance for the i-th request: a, b, a, b, ... */
const node = (i: number) => (i % 2 === 0 ? a : b);

async function ownerWithReport() {
  const owner = await newUser(a);
  const ws = await newWorkspace(a, owner);
  const report = await newReport(b, owner, [ws.id]);
  return { owner, ws, report };
}

describe('two instances on one database', () => {
  it('serves a link minted on one from the other, and stops serving it on both at once when revoked', async () => {
    const { owner, report } = await ownerWithReport();
    const minted = await a.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token);
    expect(minted.status).toBe(201);
    const page = (t: TestContext) => t.request('GET', `/share/${minted.body.token}`, { token: null });
    // Both serve it, and both have the page in their cache now.
    for (let i = 0; i < 4; i++) expect((await page(node(i))).status).toBe(200);
    const listed = await b.get(`/api/v1/reports/${report.id}/shares`, owner.token);
    expect(listed.body.map((s: { token: string }) => s.token)).toEqual([minted.body.token]);

    expect((await a.post(`/api/v1/report-shares/${minted.body.id}/revoke`, undefined, owner.token)).status).toBe(200);
    // The very next request, on either instance, is refused.
    expect((await page(b)).status).toBe(404);
    expect((await page(a)).status).toBe(404);
    expect((await b.get(`/api/v1/reports/${report.id}/shares`, owner.token)).body[0].revokedAt).not.toBeNull();
  });

  it('refuses a token on the other instance as soon as it is revoked on one', async () => {
    const user = await newUser(a);
    const extra = await b.post(`/api/v1/users/${user.id}/tokens`, { scopes: ['read'] }, user.token);
    expect(extra.status).toBe(201);
    expect((await a.get('/api/v1/me', extra.body.token)).status).toBe(200);
    expect((await b.del(`/api/v1/me/tokens/${extra.body.id}`, user.token)).status).toBe(204);
    expect((await a.get('/api/v1/me', extra.body.token)).status).toBe(401);
    expect((await b.get('/api/v1/me', extra.body.token)).status).toBe(401);
  });

  it('counts wrong passcodes of a link across both instances', async () => {
    const { owner, report } = await ownerWithReport();
    const mint = async () => (await a.post(`/api/v1/reports/${report.id}/shares`, { passcode: 'right one' }, owner.token)).body.token;
    const wrongUntilRefused = async (token: string, pick: (i: number) => TestContext) => {
      for (let i = 0; i < 200; i++) {
        const res = await pick(i).request('POST', `/share/${token}`, {
          token: null,
          raw: 'passcode=wrong+guess',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        if (res.status === 429) return i;
        expect(res.status).toBe(401);
      }
      throw new Error('never refused');
    };
    // What one instance allows, both together allow: no more.
    const alone = await wrongUntilRefused(await mint(), () => a);
    expect(alone).toBeGreaterThan(0);
    const token = await mint();
    expect(await wrongUntilRefused(token, node)).toBe(alone);
    // And the right passcode is refused on either instance too while the limit holds.
    for (const t of [a, b]) {
      const res = await t.request('POST', `/share/${token}`, {
        token: null,
        raw: 'passcode=right+one',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(429);
    }
  });

  it('keeps versions contiguous under concurrent edits split over both instances', async () => {
    const { owner, report } = await ownerWithReport();
    const edits = 16;
    const results = await Promise.all(
      Array.from({ length: edits }, (_, i) =>
        node(i).patch(
          `/api/v1/reports/${report.id}`,
          { name: `Edit ${i}`, templateId: report.templateId, filters: report.filters },
          owner.token,
        ),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(edits).fill(200));
    const versions = results.map((r) => r.body.version as number).sort((x, y) => x - y);
    expect(versions).toEqual(Array.from({ length: edits }, (_, i) => i + 2));
    for (const t of [a, b]) expect((await t.get(`/api/v1/reports/${report.id}`, owner.token)).body.version).toBe(edits + 1);
    const stored = rowsOf<{ version: number }>(
      await a.database.db.execute(sql`select version from report_contents where report_id = ${report.id} order by version`),
    );
    expect(stored.map((r) => r.version)).toEqual(Array.from({ length: edits + 1 }, (_, i) => i + 1));
    // Each answer is the version it committed: its name is in that version's document.
    for (const r of results) {
      const content = rowsOf<{ markdown: string }>(
        await a.database.db.execute(
          sql`select rendered_markdown as markdown from report_contents where report_id = ${report.id} and version = ${r.body.version}`,
        ),
      );
      expect(content[0]?.markdown).toContain(r.body.name as string);
    }
  });
});
