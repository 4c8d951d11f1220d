/** Reports API (docs/api.md "Recipients and sending"): create, read, edit, delete, list, template ids, access rules. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { buildTestApp, expectProblem, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, addProjectMember, newProject, newWorkspace } from '../helpers/factories.js';
import { builtInTemplateId, editReport, newReport, newTemplate } from '../helpers/report-factories.js';
import { rowsOf } from '../../src/db/rows.js';

let t: TestContext;
let owner: TestUser;
let ws: { id: string };
let timesheet: string;

async function entry(user: TestUser, fields: Record<string, unknown>) {
  const res = await t.post('/api/v1/time-entries', { start: '2026-11-03T09:00:00.000Z', minutes: 30, ...fields }, user.token);
  if (res.status !== 201) throw new Error(`entry failed: ${res.status} ${res.text}`);
  return res.body as { id: string };
}

function frontMatter(markdown: string): Record<string, any> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(markdown);
  if (!match) throw new Error('no front matter');
  return parseYaml(match[1]!);
}

async function rows(query: string): Promise<Record<string, unknown>[]> {
  const result = await t.database.db.execute(sql.raw(query));
  return rowsOf<Record<string, unknown>>(result);
}

beforeAll(async () => {
  t = await buildTestApp();
  owner = await newUser(t, { name: 'Olive Owner', timezone: 'Europe/Berlin' });
  ws = await newWorkspace(t, owner, 'Main');
  timesheet = await builtInTemplateId(t);
});
afterAll(() => t.close());

describe('POST /api/v1/reports', () => {
  it('renders and stores version 1 with the resolved filters', async () => {
    await entry(owner, { workspaceId: ws.id, minutes: 90, description: 'Planning' });
    const res = await t.post(
      '/api/v1/reports',
      {
        name: 'November',
        templateId: timesheet,
        note: 'Shipped it.',
        filters: { workspaceIds: [ws.id], dateRange: { from: '2026-11-01', to: '2026-11-30' } },
      },
      owner.token,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'November',
      ownerUserId: owner.id,
      templateId: timesheet,
      note: 'Shipped it.',
      version: 1,
      totalMinutes: 90,
      snapshotProjectIds: [],
      filters: { workspaceIds: [ws.id], dateRange: { from: '2026-11-01', to: '2026-11-30' } },
    });
    expect(res.body.reportContentId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.renderedMarkdown).toContain('Planning');
    expect(res.body.renderedMarkdown).toContain('Shipped it.');
    const back = await t.get(`/api/v1/reports/${res.body.id}`, owner.token);
    expect(back.body).toEqual(res.body);
  });

  it('writes a YAML front matter that parses back to the report fields, whatever the name', async () => {
    const names = [
      'Q: "quotes", colons: and # hashes',
      "it's 'single'",
      '---',
      'yes',
      'null',
      '123',
      ' leading space',
      'line\u2028sep',
      'ümlaut ✓ 日本',
    ];
    for (const name of names) {
      const report = await newReport(t, owner, [ws.id], { name, templateId: timesheet });
      const fm = frontMatter(report.renderedMarkdown);
      expect(fm.report).toEqual({ id: report.id, name, version: 1 });
      expect(fm.owner).toEqual({ id: owner.id, name: 'Olive Owner' });
      expect(fm.period).toEqual({ from: '2026-11-01', to: '2026-11-30' });
      expect(fm.timezone).toBe('Europe/Berlin');
      expect(fm.template).toMatchObject({ id: timesheet });
      expect(fm.filters).toEqual(report.filters);
      expect(fm.totalMinutes).toBe(report.totalMinutes);
      expect(Date.parse(fm.generatedAt)).not.toBeNaN();
    }
  });

  it('collapses a blank note to null and keeps a note of 20000 characters', async () => {
    expect((await newReport(t, owner, [ws.id], { note: '  \n\t ' })).note).toBeNull();
    expect((await newReport(t, owner, [ws.id], { note: '' })).note).toBeNull();
    expect((await newReport(t, owner, [ws.id], { note: 'n'.repeat(20000) })).note).toHaveLength(20000);
  });

  it.each([
    ['name missing', { name: undefined }, '/name'],
    ['name empty', { name: '' }, '/name'],
    ['name 101', { name: 'x'.repeat(101) }, '/name'],
    ['note 20001', { note: 'x'.repeat(20001) }, '/note'],
    ['unknown property', { colour: 'red' }, '/colour'],
    ['no workspaces', { filters: { workspaceIds: [], dateRange: 'today' } }, '/filters/workspaceIds'],
    [
      '21 workspaces',
      { filters: { workspaceIds: Array.from({ length: 21 }, (_, i) => `w${i}`), dateRange: 'today' } },
      '/filters/workspaceIds',
    ],
    [
      '51 projects',
      { filters: { workspaceIds: ['w'], projectIds: Array.from({ length: 51 }, (_, i) => `p${i}`), dateRange: 'today' } },
      '/filters/projectIds',
    ],
    [
      '51 users',
      { filters: { workspaceIds: ['w'], userIds: Array.from({ length: 51 }, (_, i) => `u${i}`), dateRange: 'today' } },
      '/filters/userIds',
    ],
    [
      '21 tags',
      { filters: { workspaceIds: ['w'], tags: Array.from({ length: 21 }, (_, i) => `t${i}`), dateRange: 'today' } },
      '/filters/tags',
    ],
    ['unknown preset', { filters: { workspaceIds: ['w'], dateRange: 'last_year' } }, '/filters/dateRange'],
    ['bad date', { filters: { workspaceIds: ['w'], dateRange: { from: '2026-02-30', to: '2026-03-01' } } }, '/filters/dateRange/from'],
    ['unknown filter', { filters: { workspaceIds: ['w'], dateRange: 'today', clients: [] } }, '/filters/clients'],
    ['missing dateRange', { filters: { workspaceIds: ['w'] } }, '/filters/dateRange'],
  ])('400 for %s', async (_label, change, path) => {
    const body: Record<string, unknown> = {
      name: 'R',
      templateId: timesheet,
      filters: { workspaceIds: [ws.id], dateRange: 'today' },
      ...change,
    };
    if ('name' in change && change.name === undefined) delete body.name;
    const problem = expectProblem(await t.post('/api/v1/reports', body, owner.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
  });

  it('accepts a span of 366 days and refuses 367, and from after to', async () => {
    const ok = await newReport(t, owner, [ws.id], { filters: { dateRange: { from: '2025-01-01', to: '2026-01-01' } } });
    expect(ok.filters).toMatchObject({ dateRange: { from: '2025-01-01', to: '2026-01-01' } });
    const body = (dateRange: unknown) => ({ name: 'R', templateId: timesheet, filters: { workspaceIds: [ws.id], dateRange } });
    const tooLong = expectProblem(await t.post('/api/v1/reports', body({ from: '2025-01-01', to: '2026-01-02' }), owner.token), 400);
    expect(tooLong.errors?.[0]?.path).toBe('/filters/dateRange');
    const reversed = expectProblem(await t.post('/api/v1/reports', body({ from: '2026-02-02', to: '2026-02-01' }), owner.token), 400);
    expect(reversed.errors?.[0]?.path).toBe('/filters/dateRange/to');
  });

  it('refuses workspaces the caller does not belong to, foreign projects and unusable templates', async () => {
    const other = await newUser(t);
    const foreign = await newWorkspace(t, other);
    const foreignProject = await newProject(t, foreign.id, other.token);
    const body = (filters: Record<string, unknown>, templateId = timesheet) => ({
      name: 'R',
      templateId,
      filters: { workspaceIds: [ws.id], dateRange: 'today', ...filters },
    });
    const notMember = expectProblem(await t.post('/api/v1/reports', body({ workspaceIds: [ws.id, foreign.id] }), owner.token), 400);
    expect(notMember.errors).toEqual([{ path: '/filters/workspaceIds/1', message: 'is not a workspace you belong to' }]);
    const project = expectProblem(await t.post('/api/v1/reports', body({ projectIds: [foreignProject.id] }), owner.token), 400);
    expect(project.errors?.[0]?.path).toBe('/filters/projectIds/0');
    expectProblem(await t.post('/api/v1/reports', body({}, 'no-such-template'), owner.token), 400);
    const disabled = await newTemplate(t);
    await t.patch(`/api/v1/templates/${disabled}`, { enabled: false });
    const problem = expectProblem(await t.post('/api/v1/reports', body({}, disabled), owner.token), 400);
    expect(problem.errors).toEqual([{ path: '/templateId', message: 'is disabled' }]);
  });

  it('needs the write scope', async () => {
    const readOnly = await t.post(`/api/v1/users/${owner.id}/tokens`, { scopes: ['read'] }, owner.token);
    expectProblem(
      await t.post(
        '/api/v1/reports',
        { name: 'R', templateId: timesheet, filters: { workspaceIds: [ws.id], dateRange: 'today' } },
        readOnly.body.token,
      ),
      403,
    );
  });
});

describe('POST /api/v1/reports/preview', () => {
  it('renders without persisting and suggests a name and note from the template', async () => {
    const template = await newTemplate(t, 'Body for {{ owner.name }}', {
      nameTemplate: '{{ owner.name }} {{ report.period.from }}',
      noteTemplate: 'Total {{ totals.minutes | duration }}',
    });
    const before = await t.get('/api/v1/reports', owner.token);
    const res = await t.post(
      '/api/v1/reports/preview',
      { name: 'Draft', templateId: template, filters: { workspaceIds: [ws.id], dateRange: { from: '2026-11-01', to: '2026-11-30' } } },
      owner.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.suggestedName).toBe('Olive Owner 2026-11-01');
    expect(res.body.suggestedNote).toMatch(/^Total \d+h \d{2}m$/);
    expect(res.body.renderedMarkdown).toContain('Body for Olive Owner');
    expect(res.body.filters).toEqual({ workspaceIds: [ws.id], dateRange: { from: '2026-11-01', to: '2026-11-30' } });
    expect(typeof res.body.totalMinutes).toBe('number');
    expect(res.body.snapshotProjectIds).toEqual([]);
    const after = await t.get('/api/v1/reports', owner.token);
    expect(after.headers['x-total-count']).toBe(before.headers['x-total-count']);
  });

  it('suggests empty strings when the template defines no defaults, and needs only the read scope', async () => {
    const template = await newTemplate(t, 'x');
    const readOnly = await t.post(`/api/v1/users/${owner.id}/tokens`, { scopes: ['read'] }, owner.token);
    const res = await t.post(
      '/api/v1/reports/preview',
      { name: 'D', templateId: template, filters: { workspaceIds: [ws.id], dateRange: 'today' } },
      readOnly.body.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ suggestedName: '', suggestedNote: '' });
  });

  it('applies the same validation as create', async () => {
    const other = await newUser(t);
    expectProblem(
      await t.post(
        '/api/v1/reports/preview',
        { name: 'D', templateId: timesheet, filters: { workspaceIds: [ws.id], dateRange: 'today' } },
        other.token,
      ),
      400,
    );
  });
});

describe('GET /api/v1/reports/:id access', () => {
  it('lets the owner, instance admins and admins of a single-workspace report read it; hides it from everyone else', async () => {
    const admin = await newUser(t);
    const member = await newUser(t);
    const stranger = await newUser(t);
    const instanceAdmin = await newUser(t, { instanceAdmin: true });
    await addMember(t, ws.id, admin, 'admin');
    await addMember(t, ws.id, member, 'member');
    const report = await newReport(t, owner, [ws.id]);
    for (const reader of [owner, admin, instanceAdmin])
      expect((await t.get(`/api/v1/reports/${report.id}`, reader.token)).status).toBe(200);
    for (const outsider of [member, stranger]) expectProblem(await t.get(`/api/v1/reports/${report.id}`, outsider.token), 404);
    expectProblem(await t.get('/api/v1/reports/01890000-0000-7000-8000-000000000000', owner.token), 404);
  });

  it('hides a multi-workspace report from workspace admins', async () => {
    const second = await newWorkspace(t, owner, 'Second');
    const admin = await newUser(t);
    await addMember(t, ws.id, admin, 'owner');
    await addMember(t, second.id, admin, 'admin');
    const report = await newReport(t, owner, [ws.id, second.id]);
    expectProblem(await t.get(`/api/v1/reports/${report.id}`, admin.token), 404);
    expect((await t.get(`/api/v1/reports/${report.id}`)).status).toBe(200);
  });

  it("revokes the owner's access when they leave a filtered workspace", async () => {
    const leaver = await newUser(t);
    const shared = await newWorkspace(t, owner, 'Shared');
    await addMember(t, shared.id, leaver, 'member');
    const report = await newReport(t, leaver, [shared.id]);
    expect((await t.get(`/api/v1/reports/${report.id}`, leaver.token)).status).toBe(200);
    expect((await t.del(`/api/v1/workspaces/${shared.id}/members/${leaver.id}`, leaver.token)).status).toBe(204);
    expectProblem(await t.get(`/api/v1/reports/${report.id}`, leaver.token), 404);
    expectProblem(
      await t.patch(`/api/v1/reports/${report.id}`, { name: 'x', templateId: timesheet, filters: report.filters }, leaver.token),
      404,
    );
  });
});

describe('PATCH /api/v1/reports/:id', () => {
  it('appends a new immutable version and leaves the old one as it was', async () => {
    const report = await newReport(t, owner, [ws.id], { name: 'Before', note: 'old note' });
    const edited = await editReport(t, owner, report, { name: 'After', note: '   ' });
    expect(edited).toMatchObject({ id: report.id, name: 'After', note: null, version: 2 });
    expect(edited.reportContentId).not.toBe(report.reportContentId);
    expect(frontMatter(edited.renderedMarkdown).report).toEqual({ id: report.id, name: 'After', version: 2 });
    const versions = await rows(`select version, rendered_markdown from report_contents where report_id = '${report.id}' order by version`);
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    expect(versions[0]!.rendered_markdown).toBe(report.renderedMarkdown);
  });

  it('is for the owner only: a workspace admin who can read it gets 404', async () => {
    const admin = await newUser(t);
    await addMember(t, ws.id, admin, 'admin');
    const report = await newReport(t, owner, [ws.id]);
    expectProblem(
      await t.patch(`/api/v1/reports/${report.id}`, { name: 'x', templateId: timesheet, filters: report.filters }, admin.token),
      404,
    );
    expectProblem(await t.patch(`/api/v1/reports/${report.id}`, { name: 'x', templateId: timesheet, filters: report.filters }), 404);
  });

  it('needs name, templateId and filters, validated like create', async () => {
    const report = await newReport(t, owner, [ws.id]);
    expectProblem(await t.patch(`/api/v1/reports/${report.id}`, { name: 'only a name' }, owner.token), 400);
    expectProblem(
      await t.patch(`/api/v1/reports/${report.id}`, { name: '', templateId: timesheet, filters: report.filters }, owner.token),
      400,
    );
  });

  it('gives concurrent edits consecutive versions, never a duplicate or a gap', async () => {
    const report = await newReport(t, owner, [ws.id]);
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        t.patch(`/api/v1/reports/${report.id}`, { name: `Edit ${i}`, templateId: timesheet, filters: report.filters }, owner.token),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(results.map((r) => r.body.version).sort()).toEqual([2, 3, 4, 5]);
    const versions = await rows(`select version from report_contents where report_id = '${report.id}' order by version`);
    expect(versions.map((v) => v.version)).toEqual([1, 2, 3, 4, 5]);
    const current = await t.get(`/api/v1/reports/${report.id}`, owner.token);
    expect(current.body.version).toBe(5);
    expect(frontMatter(current.body.renderedMarkdown).report.version).toBe(5);
  });
});

describe('content versions are immutable in the database itself', () => {
  it('refuses UPDATE and a lone DELETE of a content row, and keeps version and content id together', async () => {
    const report = await newReport(t, owner, [ws.id]);
    await expect(
      t.database.db.execute(sql.raw(`update report_contents set rendered_markdown = 'x' where id = '${report.reportContentId}'`)),
    ).rejects.toThrow();
    await expect(t.database.db.execute(sql.raw(`delete from report_contents where id = '${report.reportContentId}'`))).rejects.toThrow();
    await expect(t.database.db.execute(sql.raw(`update reports set version = 7 where id = '${report.id}'`))).rejects.toThrow();
    expect((await t.get(`/api/v1/reports/${report.id}`, owner.token)).body.renderedMarkdown).toBe(report.renderedMarkdown);
  });
});

describe('DELETE /api/v1/reports/:id', () => {
  it('deletes the report with its versions; owner only', async () => {
    const admin = await newUser(t);
    await addMember(t, ws.id, admin, 'admin');
    const report = await newReport(t, owner, [ws.id]);
    await editReport(t, owner, report);
    expectProblem(await t.del(`/api/v1/reports/${report.id}`, admin.token), 404);
    expectProblem(await t.del(`/api/v1/reports/${report.id}`), 404);
    const res = await t.del(`/api/v1/reports/${report.id}`, owner.token);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectProblem(await t.get(`/api/v1/reports/${report.id}`, owner.token), 404);
    expect(await rows(`select id from report_contents where report_id = '${report.id}'`)).toEqual([]);
    expectProblem(await t.del(`/api/v1/reports/${report.id}`, owner.token), 404);
  });

  it('survives the deletion of its template', async () => {
    const template = await newTemplate(t);
    const report = await newReport(t, owner, [ws.id], { templateId: template });
    expect((await t.del(`/api/v1/templates/${template}`)).status).toBe(204);
    const back = await t.get(`/api/v1/reports/${report.id}`, owner.token);
    expect(back.status).toBe(200);
    expect(back.body.templateId).toBe(template);
  });
});

describe('GET /api/v1/reports', () => {
  let lister: TestUser;
  let lws: { id: string };
  let other: { id: string };
  let project: { id: string };
  let template: string;
  const made: string[] = [];

  beforeAll(async () => {
    lister = await newUser(t, { name: 'Lister' });
    lws = await newWorkspace(t, lister, 'L1');
    other = await newWorkspace(t, lister, 'L2');
    project = await newProject(t, lws.id, lister.token);
    template = await newTemplate(t);
    await entry(lister, { workspaceId: lws.id, projectId: project.id, start: '2026-03-05T10:00:00.000Z', minutes: 45 });
    t.clock.set('2026-06-01T00:00:00.000Z');
    // Same createdAt for all: the id breaks the tie.
    made.push((await newReport(t, lister, [lws.id], { filters: { dateRange: { from: '2026-01-01', to: '2026-01-31' } } })).id);
    made.push((await newReport(t, lister, [lws.id], { filters: { dateRange: { from: '2026-03-01', to: '2026-03-31' } } })).id);
    made.push(
      (
        await newReport(t, lister, [lws.id, other.id], {
          templateId: template,
          filters: { dateRange: { from: '2026-05-01', to: '2026-05-31' } },
        })
      ).id,
    );
    made.push(
      (await newReport(t, lister, [other.id], { filters: { projectIds: [], dateRange: { from: '2026-02-01', to: '2026-04-30' } } })).id,
    );
    t.clock.reset();
  });

  const ids = (res: { body: { id: string }[] }) => res.body.map((r) => r.id);

  it("lists the caller's reports newest first without bodies, with X-Total-Count", async () => {
    const res = await t.get('/api/v1/reports', lister.token);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([...made].reverse());
    expect(res.headers['x-total-count']).toBe('4');
    expect(res.body[0]).not.toHaveProperty('renderedMarkdown');
    expect(res.body[0]).not.toHaveProperty('reportContentId');
  });

  it('pages with limit and offset; the total counts the whole filtered set', async () => {
    const page = await t.get('/api/v1/reports', lister.token, { limit: 2, offset: 1 });
    expect(ids(page)).toEqual([made[2], made[1]]);
    expect(page.headers['x-total-count']).toBe('4');
    for (const bad of [{ limit: 0 }, { limit: 201 }, { offset: -1 }, { limit: 'x' }] as Record<string, string | number>[])
      expectProblem(await t.get('/api/v1/reports', lister.token, bad), 400);
    expectProblem(await t.get('/api/v1/reports', lister.token, { bogus: 1 }), 400);
  });

  it('filters by template, project and period overlap', async () => {
    expect(ids(await t.get('/api/v1/reports', lister.token, { templateId: template }))).toEqual([made[2]]);
    expect(ids(await t.get('/api/v1/reports', lister.token, { projectId: project.id }))).toEqual([made[1]]);
    expect(ids(await t.get('/api/v1/reports', lister.token, { from: '2026-04-01' }))).toEqual([made[3], made[2]]);
    expect(ids(await t.get('/api/v1/reports', lister.token, { to: '2026-01-31' }))).toEqual([made[0]]);
    expect(ids(await t.get('/api/v1/reports', lister.token, { from: '2026-03-10', to: '2026-03-20' }))).toEqual([made[3], made[1]]);
    expectProblem(await t.get('/api/v1/reports', lister.token, { from: '2026-13-01' }), 400);
  });

  it('lets instance admins pass ownerUserId and refuses it to others with 403', async () => {
    expect(ids(await t.get('/api/v1/reports', undefined, { ownerUserId: lister.id }))).toEqual([...made].reverse());
    expectProblem(await t.get('/api/v1/reports', owner.token, { ownerUserId: lister.id }), 403);
  });

  it('lets a workspace admin list the reports scoped to exactly that workspace', async () => {
    const admin = await newUser(t);
    await addMember(t, lws.id, admin, 'admin');
    expect(ids(await t.get('/api/v1/reports', admin.token, { workspaceId: lws.id }))).toEqual([made[1], made[0]]);
    const member = await newUser(t);
    await addMember(t, lws.id, member, 'member');
    expectProblem(await t.get('/api/v1/reports', member.token, { workspaceId: lws.id }), 403);
    expectProblem(await t.get('/api/v1/reports', owner.token, { workspaceId: lws.id }), 403);
  });

  it("shows totalMinutes null on the owner's reports whose workspaces they no longer fully belong to", async () => {
    const leaver = await newUser(t);
    const shared = await newWorkspace(t, lister, 'Shared L');
    await addMember(t, shared.id, leaver, 'member');
    const own = await newWorkspace(t, leaver, 'Own');
    const lost = await newReport(t, leaver, [shared.id]);
    const kept = await newReport(t, leaver, [own.id]);
    await t.del(`/api/v1/workspaces/${shared.id}/members/${leaver.id}`, leaver.token);
    const res = await t.get('/api/v1/reports', leaver.token);
    const byId = new Map(res.body.map((r: { id: string; totalMinutes: number | null }) => [r.id, r.totalMinutes]));
    expect(byId.get(lost.id)).toBeNull();
    expect(byId.get(kept.id)).toBe(0);
    // An instance admin listing the same owner sees the real total.
    const adminView = await t.get('/api/v1/reports', undefined, { ownerUserId: leaver.id });
    expect(adminView.body.find((r: { id: string }) => r.id === lost.id).totalMinutes).toBe(0);
  });

  it("GET /api/v1/reports/template-ids gives the distinct template ids of the caller's reports", async () => {
    const res = await t.get('/api/v1/reports/template-ids', lister.token);
    expect(res.status).toBe(200);
    // Every report of the lister has the same createdAt: the template id (desc) breaks the tie.
    expect(template > timesheet).toBe(true);
    expect(res.body).toEqual([template, timesheet]);
    expect((await t.get('/api/v1/reports/template-ids', (await newUser(t)).token)).body).toEqual([]);
  });

  it('GET /api/v1/reports/template-ids orders the templates by their newest report', async () => {
    const author = await newUser(t);
    const aws = await newWorkspace(t, author);
    const [x, y, z] = [await newTemplate(t), await newTemplate(t), await newTemplate(t)];
    const at = async (instant: string, templateId: string) => {
      t.clock.set(instant);
      await newReport(t, author, [aws.id], { templateId });
    };
    try {
      await at('2026-07-01T00:00:00.000Z', y);
      await at('2026-07-02T00:00:00.000Z', x);
      await at('2026-07-03T00:00:00.000Z', z);
      await at('2026-07-04T00:00:00.000Z', y);
    } finally {
      t.clock.reset();
    }
    // Newest report per template: y (07-04), z (07-03), x (07-02); neither id order nor first use.
    expect((await t.get('/api/v1/reports/template-ids', author.token)).body).toEqual([y, z, x]);
  });
});

describe('what a report contains', () => {
  it('selects by users, projects, tags and period, bounded by what the owner may read', async () => {
    const boss = await newUser(t, { name: 'Boss', timezone: 'UTC' });
    const dev = await newUser(t, { name: 'Dev' });
    const peer = await newUser(t, { name: 'Peer' });
    const w = await newWorkspace(t, boss, 'Select');
    await addMember(t, w.id, dev, 'member');
    await addMember(t, w.id, peer, 'member');
    const p1 = await newProject(t, w.id, boss.token, 'P1');
    const p2 = await newProject(t, w.id, boss.token, 'P2');
    await addProjectMember(t, p1.id, dev.id);
    await addProjectMember(t, p1.id, peer.id);
    await addProjectMember(t, p2.id, peer.id);
    await entry(dev, { workspaceId: w.id, projectId: p1.id, minutes: 10, tags: ['a'] });
    await entry(dev, { workspaceId: w.id, minutes: 20, tags: ['b'] });
    await entry(peer, { workspaceId: w.id, projectId: p1.id, minutes: 40, tags: ['a', 'c'] });
    await entry(peer, { workspaceId: w.id, projectId: p2.id, minutes: 80 });
    await entry(peer, { workspaceId: w.id, minutes: 160 });
    await entry(peer, { workspaceId: w.id, projectId: p1.id, minutes: 320, start: '2026-12-01T00:00:00.000Z' });
    const filters = (extra: Record<string, unknown>) => ({ filters: { dateRange: { from: '2026-11-01', to: '2026-11-30' }, ...extra } });

    // Default: only the owner's own entries.
    expect((await newReport(t, dev, [w.id], filters({}))).totalMinutes).toBe(30);
    // Dev may read peer's P1 entry only (not P2, not unassigned).
    const devView = await newReport(t, dev, [w.id], filters({ userIds: [dev.id, peer.id] }));
    expect(devView.totalMinutes).toBe(70);
    expect(devView.snapshotProjectIds).toEqual([p1.id]);
    // The workspace owner reads everything in the workspace.
    const all = await newReport(t, boss, [w.id], filters({ userIds: [dev.id, peer.id] }));
    expect(all.totalMinutes).toBe(310);
    expect(all.snapshotProjectIds).toEqual([p1.id, p2.id].sort());
    expect((await newReport(t, boss, [w.id], filters({ userIds: [dev.id, peer.id], projectIds: [p2.id] }))).totalMinutes).toBe(80);
    expect((await newReport(t, boss, [w.id], filters({ userIds: [dev.id, peer.id], tags: ['a', 'b'] }))).totalMinutes).toBe(70);
    expect((await newReport(t, boss, [w.id], filters({ userIds: [peer.id], tags: ['zzz'] }))).totalMinutes).toBe(0);
  });

  it("bounds the period by midnight in the owner's timezone", async () => {
    const la = await newUser(t, { timezone: 'America/Los_Angeles' });
    const w = await newWorkspace(t, la);
    // 2026-11-01 00:30 in Los Angeles is 07:30Z (PDT until 09:00Z that day); 2026-10-31 23:30 local is 06:30Z.
    await entry(la, { workspaceId: w.id, start: '2026-11-01T07:30:00.000Z', minutes: 1 });
    await entry(la, { workspaceId: w.id, start: '2026-11-01T06:30:00.000Z', minutes: 2 });
    // 2026-11-30 23:30 local (PST) is 2026-12-01T07:30Z: still in; 08:00Z is December 1st local: out.
    await entry(la, { workspaceId: w.id, start: '2026-12-01T07:30:00.000Z', minutes: 4 });
    await entry(la, { workspaceId: w.id, start: '2026-12-01T08:00:00.000Z', minutes: 8 });
    const report = await newReport(t, la, [w.id], { filters: { dateRange: { from: '2026-11-01', to: '2026-11-30' } } });
    expect(report.totalMinutes).toBe(5);
  });
});
