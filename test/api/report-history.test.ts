/**
 * Version history: a report's versions, one version as JSON or as a Markdown download, what
 * changed between two versions, and the version number on links and inbox messages.
 */
import { parse as parseDisposition } from 'content-disposition';
import { applyPatch } from 'diff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadFileName } from '../../src/modules/history/history.service.js';
import { MAX_DIFF_BYTES, MAX_DIFF_EDITS } from '../../src/modules/history/version-diff.js';
import { parseDocument } from '../../packages/document/src/index.js';
import { findVersionPair } from '../../src/repositories/history.repository.js';
import { addMember, newProject, newWorkspace } from '../helpers/factories.js';
import { editReport, newReport, newTemplate, type TestReport } from '../helpers/report-factories.js';
import { buildTestApp, expectProblem, newUser, readOnlyToken, type TestContext, type TestUser } from '../helpers/test-app.js';

let t: TestContext;
let owner: TestUser;
/** Received version 1 only. */
let early: TestUser;
/** Received versions 1 and 2. */
let steady: TestUser;
let outsider: TestUser;
let workspaceId: string;
let alpha: { id: string; name: string };
let beta: { id: string; name: string };
let movedEntryId: string;
let v1: TestReport;
let v2: TestReport;
let v3: TestReport;
let earlyMessageId: string;
let steadyV1MessageId: string;

const versions = (reportId: string) => `/api/v1/reports/${reportId}/versions`;
const content = (contentId: string) => `/api/v1/report-contents/${contentId}`;
const diff = (reportId: string) => `/api/v1/reports/${reportId}/diff`;

async function entry(body: Record<string, unknown>): Promise<string> {
  const res = await t.post('/api/v1/time-entries', { workspaceId, ...body }, owner.token);
  expect(res.status).toBe(201);
  return res.body.id;
}

async function send(reportId: string, recipients: TestUser[]): Promise<void> {
  const res = await t.post(`/api/v1/reports/${reportId}/send`, { recipientUserIds: recipients.map((r) => r.id) }, owner.token);
  expect(res.status).toBe(201);
}

async function messageOf(user: TestUser, contentId: string): Promise<{ id: string; version: number }> {
  const inbox = await t.get('/api/v1/inbox', user.token);
  const found = (inbox.body as { id: string; reportContentId: string; version: number }[]).find((m) => m.reportContentId === contentId);
  if (!found) throw new Error('no such inbox message');
  return found;
}

beforeAll(async () => {
  t = await buildTestApp();
  owner = await newUser(t, { name: 'Owner' });
  early = await newUser(t, { name: 'Early' });
  steady = await newUser(t, { name: 'Steady' });
  outsider = await newUser(t, { name: 'Outsider' });
  workspaceId = (await newWorkspace(t, owner)).id;
  await addMember(t, workspaceId, early, 'member', owner.token);
  await addMember(t, workspaceId, steady, 'member', owner.token);
  alpha = await newProject(t, workspaceId, owner.token, 'Alpha');
  beta = await newProject(t, workspaceId, owner.token, 'Beta');

  movedEntryId = await entry({ projectId: alpha.id, start: '2026-11-03T09:00:00.000Z', minutes: 60, description: 'Design', tags: ['a'] });
  await entry({ projectId: beta.id, start: '2026-11-04T09:00:00.000Z', minutes: 30, description: 'Build', tags: ['b'] });
  await entry({ start: '2026-11-05T09:00:00.000Z', minutes: 15, description: 'Admin' });

  v1 = await newReport(t, owner, [workspaceId], { name: 'Monthly' });
  await send(v1.id, [early, steady]);
  earlyMessageId = (await messageOf(early, v1.reportContentId)).id;
  steadyV1MessageId = (await messageOf(steady, v1.reportContentId)).id;

  // The entry moves from Alpha to Beta; version 2 shows it there.
  const moved = await t.patch(`/api/v1/time-entries/${movedEntryId}`, { projectId: beta.id }, owner.token);
  expect(moved.status).toBe(200);
  v2 = await editReport(t, owner, v1);
  await send(v2.id, [steady]);

  // Version 3 narrows the tags and the period; it is never sent.
  v3 = await editReport(t, owner, v2, {
    filters: { workspaceIds: [workspaceId], tags: ['a', 'b'], dateRange: { from: '2026-11-01', to: '2026-11-15' } },
  });
});
afterAll(() => t.close());

describe('GET /api/v1/reports/:id/versions', () => {
  it('lists every version newest first, with its totals, template, filters and whether it was sent', async () => {
    const res = await t.get(versions(v1.id), owner.token);
    expect(res.status).toBe(200);
    expect(res.body.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    expect(res.body.map((v: { sent: boolean }) => v.sent)).toEqual([false, true, true]);
    expect(res.body.map((v: { reportContentId: string }) => v.reportContentId)).toEqual([
      v3.reportContentId,
      v2.reportContentId,
      v1.reportContentId,
    ]);
    const [third, , first] = res.body;
    expect(first).toEqual({
      reportContentId: v1.reportContentId,
      reportId: v1.id,
      version: 1,
      name: 'Monthly',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      totalMinutes: 105,
      snapshotProjectIds: [alpha.id, beta.id].sort(),
      templateId: v1.templateId,
      filters: v1.filters,
      sent: true,
    });
    expect(third.filters).toEqual(v3.filters);
    expect(third.totalMinutes).toBe(v3.totalMinutes);
    expect(third.snapshotProjectIds).toEqual([beta.id]);
  });

  it("is readable by instance admins, admins of the report's one workspace, and with a read-only token", async () => {
    expect((await t.get(versions(v1.id))).status).toBe(200);
    const admin = await newUser(t, { name: 'Workspace admin' });
    await addMember(t, workspaceId, admin, 'admin', owner.token);
    expect((await t.get(versions(v1.id), admin.token)).status).toBe(200);
    expect((await t.get(content(v3.reportContentId), admin.token)).status).toBe(200);
    expect((await t.get(diff(v1.id), admin.token, { from: v1.reportContentId, to: v3.reportContentId })).status).toBe(200);
    expect((await t.get(versions(v1.id), await readOnlyToken(t, owner))).status).toBe(200);
  });

  it('needs the read scope', async () => {
    const writeOnly = await t.post(`/api/v1/users/${owner.id}/tokens`, { scopes: ['write'] }, owner.token);
    expect(expectProblem(await t.get(versions(v1.id), writeOnly.body.token), 403).status).toBe(403);
  });

  it('hides the report from outsiders, recipients and for unknown ids with the same 404', async () => {
    const outside = expectProblem(await t.get(versions(v1.id), outsider.token), 404);
    const recipient = expectProblem(await t.get(versions(v1.id), early.token), 404);
    const unknown = expectProblem(await t.get(versions('no-such-report'), owner.token), 404);
    expect(recipient).toEqual(outside);
    expect(unknown).toEqual(outside);
  });
});

describe('GET /api/v1/report-contents/:id', () => {
  it('gives the version with its document and a summary whose totals are the report totals', async () => {
    const res = await t.get(content(v1.reportContentId), owner.token);
    expect(res.status).toBe(200);
    expect(res.headers.vary).toContain('Accept');
    expect(res.body.renderedMarkdown).toBe(v1.renderedMarkdown);
    expect(res.body.version).toBe(1);
    const { summary } = res.body;
    expect(summary.totalMinutes).toBe(v1.totalMinutes);
    expect(summary.totalMinutes).toBe(105);
    expect(summary.entryCount).toBe(3);
    for (const groups of [summary.byProject, summary.byUser, summary.byDay]) {
      expect(groups.reduce((sum: number, g: { minutes: number }) => sum + g.minutes, 0)).toBe(v1.totalMinutes);
    }
    expect(summary.byProject).toEqual([
      { id: alpha.id, name: 'Alpha', minutes: 60, entryCount: 1 },
      { id: beta.id, name: 'Beta', minutes: 30, entryCount: 1 },
      { id: null, name: 'No project', minutes: 15, entryCount: 1 },
    ]);
    expect(summary.byUser).toEqual([{ id: owner.id, name: 'Owner', minutes: 105, entryCount: 3 }]);
    expect(summary.byTag).toEqual([
      { tag: 'a', minutes: 60, entryCount: 1 },
      { tag: 'b', minutes: 30, entryCount: 1 },
    ]);
    expect(summary.byDay.map((d: { date: string }) => d.date)).toEqual(['2026-11-03', '2026-11-04', '2026-11-05']);

    const narrowed = await t.get(content(v3.reportContentId), owner.token);
    expect(narrowed.body.summary.totalMinutes).toBe(v3.totalMinutes);
    expect(narrowed.body.summary.byTag.reduce((sum: number, g: { minutes: number }) => sum + g.minutes, 0)).toBe(v3.totalMinutes);
  });

  it('stays readable by a recipient who has left the workspace, as their inbox does', async () => {
    const leaver = await newUser(t, { name: 'Leaver' });
    await addMember(t, workspaceId, leaver, 'member', owner.token);
    await send(v1.id, [leaver]);
    const contentId = (await t.get(`/api/v1/reports/${v1.id}`, owner.token)).body.reportContentId as string;
    expect((await t.del(`/api/v1/workspaces/${workspaceId}/members/${leaver.id}`, leaver.token)).status).toBe(204);
    expect((await t.get(content(contentId), leaver.token)).status).toBe(200);
    expectProblem(await t.get(versions(v1.id), leaver.token), 404);
  });

  it('is readable by the recipients of that version only, besides the report readers', async () => {
    expect((await t.get(content(v1.reportContentId), early.token)).status).toBe(200);
    expect((await t.get(content(v2.reportContentId), steady.token)).status).toBe(200);
    expectProblem(await t.get(content(v2.reportContentId), early.token), 404);
    expectProblem(await t.get(content(v3.reportContentId), steady.token), 404);
    expectProblem(await t.get(content(v1.reportContentId), outsider.token), 404);
    expectProblem(await t.get(content('no-such-version'), owner.token), 404);
    expect((await t.get(content(v3.reportContentId))).status).toBe(200);
    expect((await t.get(content(v1.reportContentId), await readOnlyToken(t, early))).status).toBe(200);
  });

  it('answers the Markdown document as a download with Accept: text/markdown', async () => {
    const res = await t.request('GET', content(v2.reportContentId), { token: steady.token, headers: { accept: 'text/markdown' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.vary).toContain('Accept');
    expect(res.text).toBe(v2.renderedMarkdown);
    expect(parseDisposition(String(res.headers['content-disposition']))).toEqual({
      type: 'attachment',
      parameters: { filename: 'Monthly-v2.md' },
    });
    // JSON stays the answer when JSON is acceptable too, or nothing is said.
    const either = await t.request('GET', content(v2.reportContentId), { token: steady.token, headers: { accept: '*/*' } });
    expect(either.headers['content-type']).toMatch(/^application\/json/);
  });

  it('names the download safely whatever the report is called', async () => {
    const hostile = [
      '../../etc/passwd',
      'a"; filename="evil.exe',
      '..\\..\\boot.ini',
      'Name\twith\ttabs and\u0007bell',
      '\u202Eexe.txt',
      '...',
      '/',
      'Zürich 报告 ✓',
      'x'.repeat(100),
    ];
    for (const name of hostile) {
      const report = await newReport(t, owner, [workspaceId], { name });
      const res = await t.request('GET', content(report.reportContentId), { token: owner.token, headers: { accept: 'text/markdown' } });
      expect(res.status).toBe(200);
      const header = String(res.headers['content-disposition']);
      expect(header).not.toMatch(/[\r\n]/);
      const parsed = parseDisposition(header);
      expect(parsed.type).toBe('attachment');
      const fileName = parsed.parameters.filename ?? '';
      expect(fileName).toMatch(/-v1\.md$/);
      expect(fileName).not.toMatch(/[/\\"\p{Cc}\p{Cf}]/u);
      expect(fileName.startsWith('.')).toBe(false);
      expect(Array.from(fileName).length).toBeLessThanOrEqual(80 + '-v1.md'.length);
    }
  });
});

describe('downloadFileName', () => {
  it.each([
    ['Monthly', 3, 'Monthly-v3.md'],
    ['../../etc/passwd', 1, 'etc-passwd-v1.md'],
    ['...', 1, 'report-v1.md'],
    ['Zürich 报告', 2, 'Zürich 报告-v2.md'],
    ['a/b\\c:d*e?f"g<h>i|j', 1, 'a-b-c-d-e-f-g-h-i-j-v1.md'],
  ])('%s, version %i: %s', (name, version, expected) => {
    expect(downloadFileName(name, version)).toBe(expected);
  });
});

describe('GET /api/v1/reports/:id/diff', () => {
  it('shows an entry that moved project as minutes leaving one project for another', async () => {
    const res = await t.get(diff(v1.id), owner.token, { from: v1.reportContentId, to: v2.reportContentId });
    expect(res.status).toBe(200);
    expect(res.body.from).toMatchObject({ reportContentId: v1.reportContentId, version: 1 });
    expect(res.body.to).toMatchObject({ reportContentId: v2.reportContentId, version: 2 });
    expect(res.body.totalMinutes).toEqual({ from: 105, to: 105, deltaMinutes: 0 });
    expect(res.body.byProject).toEqual({
      added: [],
      removed: [{ key: alpha.id, label: 'Alpha', fromMinutes: 60, toMinutes: 0, deltaMinutes: -60 }],
      changed: [{ key: beta.id, label: 'Beta', fromMinutes: 30, toMinutes: 90, deltaMinutes: 60 }],
    });
    expect(res.body.byUser).toEqual({ added: [], removed: [], changed: [] });
    expect(res.body.byTag).toEqual({ added: [], removed: [], changed: [] });
    expect(res.body.byDay).toEqual({ added: [], removed: [], changed: [] });
    const period = { from: '2026-11-01', to: '2026-11-30' };
    expect(res.body.period).toEqual({ from: period, to: period, changed: false });
    expect(res.body.templateId).toEqual({ from: v1.templateId, to: v2.templateId, changed: false });
    expect(res.body.filters.changes).toEqual([]);

    const patch: string = res.body.markdownDiff;
    expect(res.body.markdownDiffOmitted).toBeNull();
    expect(patch).toContain('--- v1.md');
    expect(patch).toContain('+++ v2.md');
    expect(patch).toMatch(/^@@ /m);
    // Front matter is left out: the version and generation instant always differ there.
    expect(patch).not.toContain('generatedAt');
    expect(patch).not.toMatch(/^[-+]\s*version: /m);
    const changedLines = patch.split('\n').filter((l) => /^[-+][^-+]/.test(l));
    expect(changedLines.some((l) => l.startsWith('-') && l.includes('Alpha'))).toBe(true);
    expect(changedLines.some((l) => l.startsWith('+') && l.includes('Beta'))).toBe(true);
    // The bodies' own lines, exactly: the patch turns v1's body into v2's.
    expect(applyPatch(parseDocument(v1.renderedMarkdown).body, patch)).toBe(parseDocument(v2.renderedMarkdown).body);
  });

  it('shows changed filters and period, and the minutes they drop', async () => {
    const res = await t.get(diff(v1.id), owner.token, { from: v2.reportContentId, to: v3.reportContentId });
    expect(res.status).toBe(200);
    expect(res.body.period).toEqual({
      from: { from: '2026-11-01', to: '2026-11-30' },
      to: { from: '2026-11-01', to: '2026-11-15' },
      changed: true,
    });
    expect(res.body.filters.changes).toEqual([{ field: 'tags', added: ['a', 'b'], removed: [] }]);
    expect(res.body.totalMinutes).toEqual({ from: 105, to: 90, deltaMinutes: -15 });
    expect(res.body.byProject.removed).toEqual([{ key: null, label: 'No project', fromMinutes: 15, toMinutes: 0, deltaMinutes: -15 }]);
    expect(res.body.byDay.removed).toEqual([{ key: '2026-11-05', label: '2026-11-05', fromMinutes: 15, toMinutes: 0, deltaMinutes: -15 }]);
  });

  it('compares in either order, and a version with itself as no change', async () => {
    const back = await t.get(diff(v1.id), owner.token, { from: v2.reportContentId, to: v1.reportContentId });
    expect(back.body.byProject.added).toEqual([{ key: alpha.id, label: 'Alpha', fromMinutes: 0, toMinutes: 60, deltaMinutes: 60 }]);
    const same = await t.get(diff(v1.id), owner.token, { from: v2.reportContentId, to: v2.reportContentId });
    expect(same.status).toBe(200);
    expect(same.body.markdownDiff).toBe('');
    expect(same.body.byProject).toEqual({ added: [], removed: [], changed: [] });
  });

  it('is readable by recipients of both versions, but not of one only', async () => {
    const query = { from: v1.reportContentId, to: v2.reportContentId };
    expect((await t.get(diff(v1.id), steady.token, query)).status).toBe(200);
    expect((await t.get(diff(v1.id), await readOnlyToken(t, steady), query)).status).toBe(200);
    const oneOnly = expectProblem(await t.get(diff(v1.id), early.token, query), 404);
    const outside = expectProblem(await t.get(diff(v1.id), outsider.token, query), 404);
    expect(oneOnly).toEqual(outside);
    // Steady holds v2 but not v3.
    expectProblem(await t.get(diff(v1.id), steady.token, { from: v2.reportContentId, to: v3.reportContentId }), 404);
  });

  it('refuses versions of another report and unknown ids with 404, and bad queries with 400', async () => {
    const other = await newReport(t, owner, [workspaceId], { name: 'Other' });
    expectProblem(await t.get(diff(v1.id), owner.token, { from: v1.reportContentId, to: other.reportContentId }), 404);
    expectProblem(await t.get(diff(v1.id), owner.token, { from: 'nope', to: v1.reportContentId }), 404);
    expectProblem(await t.get(diff('nope'), owner.token, { from: v1.reportContentId, to: v2.reportContentId }), 404);
    const missing = expectProblem(await t.get(diff(v1.id), owner.token, { from: v1.reportContentId }), 400);
    expect(missing.errors?.[0]?.path).toMatch(/to/);
    expectProblem(await t.get(diff(v1.id), owner.token, { from: v1.reportContentId, to: v2.reportContentId, extra: 1 }), 400);
  });

  it(`leaves the line diff out when the two documents exceed ${MAX_DIFF_BYTES / 1024 / 1024} MiB together, and still answers the totals`, async () => {
    // About 630 KB of body each, and the report's name on the first line: two versions differ, and exceed the limit together.
    const templateId = await newTemplate(t, `# {{ report.name }}\n{% for i in (1..6000) %}{{ i }} ${'x'.repeat(100)}\n{% endfor %}`);
    const first = await newReport(t, owner, [workspaceId], { name: 'Large', templateId });
    const second = await editReport(t, owner, { ...first, name: 'Large' }, { name: 'Larger' });
    const bytes = Buffer.byteLength(first.renderedMarkdown) + Buffer.byteLength(second.renderedMarkdown);
    expect(bytes).toBeGreaterThan(MAX_DIFF_BYTES);
    const res = await t.get(diff(first.id), owner.token, { from: first.reportContentId, to: second.reportContentId });
    expect(res.status).toBe(200);
    expect(res.body.markdownDiff).toBeNull();
    expect(res.body.markdownDiffOmitted).toBe('too-large');
    expect(res.body.totalMinutes).toEqual({ from: 105, to: 105, deltaMinutes: 0 });
    expect(res.body.byProject).toEqual({ added: [], removed: [], changed: [] });
  });

  it('reads the documents of a pair only when they fit MAX_DIFF_BYTES together, counted in UTF-8 bytes', async () => {
    const first = await newReport(t, owner, [workspaceId], { name: 'Café' });
    const second = await editReport(t, owner, { ...first, name: 'Café' }, { name: 'Crème brûlée' });
    const ids = [first.reportContentId, second.reportContentId];
    const bytes = Buffer.byteLength(first.renderedMarkdown) + Buffer.byteLength(second.renderedMarkdown);
    expect(bytes).toBeGreaterThan(first.renderedMarkdown.length + second.renderedMarkdown.length);
    const pair = (max: number, contentIds = ids) => findVersionPair(t.database.db, first.id, contentIds, owner.id, max);
    const fits = await pair(bytes);
    expect(fits.map((r) => r.renderedMarkdown).sort()).toEqual([first.renderedMarkdown, second.renderedMarkdown].sort());
    const over = await pair(bytes - 1);
    expect(over.map((r) => r.renderedMarkdown)).toEqual([null, null]);
    // The front matter still comes: the answer's name, template and filters are read from it.
    for (const row of over) expect(row.header).toMatch(/^---\n[\s\S]*\n---\n$/);
    // A version compared with itself counts twice.
    const own = Buffer.byteLength(first.renderedMarkdown);
    expect((await pair(own * 2, [first.reportContentId, first.reportContentId]))[0]!.renderedMarkdown).toBe(first.renderedMarkdown);
    expect((await pair(own * 2 - 1, [first.reportContentId, first.reportContentId]))[0]!.renderedMarkdown).toBeNull();
  });

  it('says when the bodies differ in too many lines to diff', async () => {
    const lines = `{% for i in (1..${MAX_DIFF_EDITS + 10}) %}{{ report.name }} {{ i }}\n{% endfor %}`;
    const templateId = await newTemplate(t, lines);
    const first = await newReport(t, owner, [workspaceId], { name: 'Many', templateId });
    const second = await editReport(t, owner, { ...first, name: 'Many' }, { name: 'Other' });
    const res = await t.get(diff(first.id), owner.token, { from: first.reportContentId, to: second.reportContentId });
    expect(res.status).toBe(200);
    expect(res.body.markdownDiff).toBeNull();
    expect(res.body.markdownDiffOmitted).toBe('too-many-edits');
  });

  it('needs the read scope', async () => {
    const writeOnly = await t.post(`/api/v1/users/${owner.id}/tokens`, { scopes: ['write'] }, owner.token);
    expectProblem(await t.get(diff(v1.id), writeOnly.body.token, { from: v1.reportContentId, to: v2.reportContentId }), 403);
    expectProblem(await t.get(content(v1.reportContentId), writeOnly.body.token), 403);
  });
});

describe('version on links and inbox messages', () => {
  it('says which version a link shows and which version a message holds', async () => {
    const ownerLink = await t.post(`/api/v1/reports/${v1.id}/shares`, {}, owner.token);
    expect(ownerLink.status).toBe(201);
    expect(ownerLink.body).toMatchObject({ reportContentId: v3.reportContentId, version: 3 });

    const recipientLink = await t.post(`/api/v1/inbox/${steadyV1MessageId}/shares`, {}, steady.token);
    expect(recipientLink.status).toBe(201);
    expect(recipientLink.body).toMatchObject({ reportContentId: v1.reportContentId, version: 1 });
    const listed = await t.get(`/api/v1/inbox/${steadyV1MessageId}/shares`, steady.token);
    expect(listed.body.map((s: { version: number }) => s.version)).toEqual([1]);

    const revoked = await t.post(`/api/v1/report-shares/${ownerLink.body.id}/revoke`, undefined, owner.token);
    expect(revoked.body.version).toBe(3);
    const ownerList = await t.get(`/api/v1/reports/${v1.id}/shares`, owner.token);
    expect(ownerList.body.map((s: { version: number }) => s.version)).toEqual([3]);

    expect((await messageOf(early, v1.reportContentId)).version).toBe(1);
    expect((await messageOf(steady, v2.reportContentId)).version).toBe(2);
    const message = await t.get(`/api/v1/inbox/${earlyMessageId}`, early.token);
    expect(message.body.version).toBe(1);
  });
});

describe('a long version list', () => {
  /** A sample of GET /metrics (`name{labels} value`); 0 when absent. */
  async function rendersOf(kind: string): Promise<number> {
    const text = (await t.request('GET', '/metrics', { token: null })).text;
    const line = text
      .split('\n')
      .find((l) => l.startsWith(`chronicle_renders_total{`) && l.includes(`kind="${kind}"`) && l.includes('outcome="ok"'));
    return line ? Number(line.split(' ').at(-1)) : 0;
  }

  it('reads its front matters in a render worker once, then from memory, each version its own, and comes in pages', async () => {
    let report = await newReport(t, owner, [workspaceId], { name: 'Long 0' });
    const tagsOf = (i: number) => (i % 2 === 0 ? ['a'] : ['b']);
    for (let i = 1; i < 12; i++) {
      const filters = { workspaceIds: [workspaceId], tags: tagsOf(i), dateRange: { from: '2026-11-01', to: '2026-11-30' } };
      report = await editReport(t, owner, report, { name: `Long ${i}`, filters });
    }
    const before = await rendersOf('meta');
    const expected = Array.from({ length: 12 }, (_, i) => ({ version: 12 - i, name: `Long ${11 - i}` }));
    for (let read = 0; read < 2; read++) {
      const res = await t.get(versions(report.id), owner.token);
      expect(res.status).toBe(200);
      const list = res.body as { version: number; name: string; templateId: string; filters: { tags?: string[] } }[];
      expect(list.map(({ version, name }) => ({ version, name }))).toEqual(expected);
      // Versions 2-12 carry the tags of their own edit; version 1 none.
      expect(list.map((v) => v.filters.tags ?? null)).toEqual([...Array.from({ length: 11 }, (_, i) => tagsOf(11 - i)), null]);
      expect(new Set(list.map((v) => v.templateId))).toEqual(new Set([report.templateId]));
      // Twelve unread front matters went to a worker in one job; the second read found them all.
      expect(await rendersOf('meta')).toBe(before + 1);
    }
    // One version read alone says the same as the list.
    const third = await t.get(content(report.reportContentId), owner.token);
    expect(third.body.name).toBe('Long 11');

    // In pages: X-Total-Count, and a Link to the next page while versions remain.
    const pages: number[][] = [];
    for (let url: string | null = `${versions(report.id)}?limit=5`; url;) {
      const res = await t.get(url, owner.token);
      expect(res.status).toBe(200);
      expect(res.headers['x-total-count']).toBe('12');
      pages.push((res.body as { version: number }[]).map((v) => v.version));
      const link = res.headers.link as string | undefined;
      url = link ? (/^<http:\/\/chronicle\.test([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
      if (link) expect(url).not.toBeNull();
    }
    expect(pages).toEqual([
      [12, 11, 10, 9, 8],
      [7, 6, 5, 4, 3],
      [2, 1],
    ]);
    // The whole list fits the default page (100): no Link.
    const whole = await t.get(versions(report.id), owner.token);
    expect(whole.headers['x-total-count']).toBe('12');
    expect(whole.headers.link).toBeUndefined();
    // Past the end: nothing, with the total.
    const past = await t.get(versions(report.id), owner.token, { offset: 50 });
    expect(past.body).toEqual([]);
    expect(past.headers['x-total-count']).toBe('12');
    for (const [query, pointer] of [
      [{ limit: 201 }, '/query/limit'],
      [{ limit: 0 }, '/query/limit'],
      [{ offset: -1 }, '/query/offset'],
      [{ page: 2 }, '/query'],
    ] as const) {
      const problem = expectProblem(await t.get(versions(report.id), owner.token, query), 400);
      expect(problem.errors?.[0]?.path.startsWith(pointer)).toBe(true);
    }
    // Another reader's page of a report they may not read is still a 404.
    expectProblem(await t.get(versions(report.id), outsider.token, { limit: 5 }), 404);
  });
});
