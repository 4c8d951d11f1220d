/**
 * Edits of one report arriving together: every valid edit succeeds with its own version, on one
 * process and across two, and If-Match gives lost-update protection to clients that ask for it.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from '../../packages/document/src/index.js';
import { newWorkspace } from '../helpers/factories.js';
import { builtInTemplateId, newReport, type TestReport } from '../helpers/report-factories.js';
import { buildPeerApp, buildTestApp, expectProblem, newUser, type Response, type TestContext, type TestUser } from '../helpers/test-app.js';
import { rowsOf } from '../../src/db/rows.js';

let t: TestContext;
let owner: TestUser;
let workspaceId: string;
let templateId: string;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await newUser(t, { name: 'Owner' });
  workspaceId = (await newWorkspace(t, owner)).id;
  templateId = await builtInTemplateId(t);
  const entry = await t.post(
    '/api/v1/time-entries',
    { workspaceId, start: '2026-11-03T09:00:00.000Z', minutes: 90, description: 'Planning' },
    owner.token,
  );
  expect(entry.status).toBe(201);
});
afterAll(() => t.close());

const editBody = (report: TestReport, name: string) => ({ name, templateId, filters: report.filters as object });

async function contentRows(reportId: string): Promise<{ version: number; rendered_markdown: string }[]> {
  const result = await t.database.db.execute(
    sql`select version, rendered_markdown from report_contents where report_id = ${reportId} order by version`,
  );
  return rowsOf<{ version: number; rendered_markdown: string }>(result);
}

/**
 * Every edit answered 200 with versions 2..n+1, each exactly once; each stored version is whole:
 * its front matter names its own version and the name of the edit that got it.
 */
async function expectConsecutiveWholeVersions(report: TestReport, names: string[], results: Response[]): Promise<void> {
  expect(results.map((r) => r.status)).toEqual(names.map(() => 200));
  const versions = results.map((r) => r.body.version as number);
  expect([...versions].sort((a, b) => a - b)).toEqual(names.map((_, i) => i + 2));
  const nameOfVersion = new Map(results.map((r) => [r.body.version as number, r.body.name as string]));
  results.forEach((r, i) => {
    expect(r.body.name).toBe(names[i]);
    expect(parseDocument(r.body.renderedMarkdown).frontMatter?.report).toEqual({ id: report.id, name: names[i], version: r.body.version });
  });

  const stored = await contentRows(report.id);
  expect(stored.map((row) => row.version)).toEqual([1, ...names.map((_, i) => i + 2)]);
  for (const row of stored.slice(1)) {
    const frontMatter = parseDocument(row.rendered_markdown).frontMatter;
    expect(frontMatter?.report).toEqual({ id: report.id, name: nameOfVersion.get(row.version), version: row.version });
  }
  const current = await t.get(`/api/v1/reports/${report.id}`, owner.token);
  expect(current.body.version).toBe(names.length + 1);
  expect(current.body.name).toBe(nameOfVersion.get(names.length + 1));
}

describe('concurrent PATCH /api/v1/reports/:id', () => {
  it('gives 30 parallel edits versions 2-31, each whole, with no 409', async () => {
    const report = await newReport(t, owner, [workspaceId], { templateId });
    const names = Array.from({ length: 30 }, (_, i) => `Edit ${i}`);
    const results = await Promise.all(names.map((name) => t.patch(`/api/v1/reports/${report.id}`, editBody(report, name), owner.token)));
    await expectConsecutiveWholeVersions(report, names, results);
  });

  it('gives 30 parallel edits split over two processes on one database versions 2-31', async () => {
    const peer = await buildPeerApp(t);
    try {
      const report = await newReport(t, owner, [workspaceId], { templateId });
      const names = Array.from({ length: 30 }, (_, i) => `Split ${i}`);
      const results = await Promise.all(
        names.map((name, i) => (i % 2 === 0 ? t : peer).patch(`/api/v1/reports/${report.id}`, editBody(report, name), owner.token)),
      );
      await expectConsecutiveWholeVersions(report, names, results);
    } finally {
      await peer.close();
    }
  });

  it('keeps answering other requests while edits queue', async () => {
    const report = await newReport(t, owner, [workspaceId], { templateId });
    const edits = Array.from({ length: 10 }, (_, i) => t.patch(`/api/v1/reports/${report.id}`, editBody(report, `Busy ${i}`), owner.token));
    const me = await t.get('/api/v1/me', owner.token);
    expect(me.status).toBe(200);
    expect((await Promise.all(edits)).map((r) => r.status)).toEqual(edits.map(() => 200));
  });
});

describe('ETag and If-Match', () => {
  it('sends the version as ETag on create, read and edit', async () => {
    const report = await newReport(t, owner, [workspaceId], { templateId });
    const read = await t.get(`/api/v1/reports/${report.id}`, owner.token);
    expect(read.headers.etag).toBe('"1"');
    const edited = await t.patch(`/api/v1/reports/${report.id}`, editBody(report, 'Two'), owner.token);
    expect(edited.headers.etag).toBe('"2"');
    const created = await t.post(
      '/api/v1/reports',
      { name: 'Fresh', templateId, filters: { workspaceIds: [workspaceId], dateRange: 'last_month' } },
      owner.token,
    );
    expect(created.status).toBe(201);
    expect(created.headers.etag).toBe('"1"');
  });

  it('edits when If-Match names the current version (or *), and refuses any other with 412', async () => {
    const report = await newReport(t, owner, [workspaceId], { templateId });
    const patch = (ifMatch: string, name: string) =>
      t.request('PATCH', `/api/v1/reports/${report.id}`, {
        token: owner.token,
        body: editBody(report, name),
        headers: { 'if-match': ifMatch },
      });

    const ok = await patch('"1"', 'Second');
    expect(ok.status).toBe(200);
    expect(ok.body.version).toBe(2);

    // A client that saw version 1 and edits again has not seen version 2: refused, nothing stored.
    const stale = expectProblem(await patch('"1"', 'Lost update'), 412);
    expect(stale.detail).toContain('version 2');
    for (const header of ['W/"2"', '"02"', 'garbage', '""']) expectProblem(await patch(header, 'No'), 412);
    expect((await contentRows(report.id)).map((r) => r.version)).toEqual([1, 2]);

    expect((await patch('"7", "2"', 'Third')).body.version).toBe(3);
    expect((await patch('*', 'Fourth')).body.version).toBe(4);
  });

  it('answers 404 before 412: If-Match tells nothing about a report the caller cannot edit', async () => {
    const report = await newReport(t, owner, [workspaceId], { templateId });
    const stranger = await newUser(t);
    const res = await t.request('PATCH', `/api/v1/reports/${report.id}`, {
      token: stranger.token,
      body: editBody(report, 'x'),
      headers: { 'if-match': '"9"' },
    });
    expectProblem(res, 404);
  });

  it('lets exactly one of several edits that name the same version through', async () => {
    const report = await newReport(t, owner, [workspaceId], { templateId });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.request('PATCH', `/api/v1/reports/${report.id}`, {
          token: owner.token,
          body: editBody(report, `Racer ${i}`),
          headers: { 'if-match': '"1"' },
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412, 412, 412]);
    expect((await contentRows(report.id)).map((r) => r.version)).toEqual([1, 2]);
  });
});
