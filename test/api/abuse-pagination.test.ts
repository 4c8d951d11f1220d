/**
 * Lists and threads never answer with everything (docs/api.md "Conventions"): the inbox, send
 * history, share lists and discussion comments come in pages of at most 200 (100 by default) with
 * X-Total-Count and a Link to the next page; a version holds at most DISCUSSION_MAX_COMMENTS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorkspace } from '../helpers/factories.js';
import { newReport, type TestReport } from '../helpers/report-factories.js';
import { buildPeerApp, buildTestApp, expectProblem, newUser, type Response, type TestContext, type TestUser } from '../helpers/test-app.js';

const MAX_COMMENTS = 120;
const BASE = 'http://chronicle.test';

let t: TestContext;
let owner: TestUser;
let report: TestReport;
let inboxMessageId: string;
let workspaceId: string;

beforeAll(async () => {
  t = await buildTestApp({ config: { discussionMaxComments: MAX_COMMENTS } });
  owner = await newUser(t);
  workspaceId = (await newWorkspace(t, owner)).id;
  report = await newReport(t, owner, [workspaceId]);
  // 101 send batches, each a self-copy: 101 inbox messages and 101 history entries.
  for (let i = 0; i < 101; i++) {
    const sent = await t.post(`/api/v1/reports/${report.id}/send`, { sendToSelf: true, message: `batch ${i}` }, owner.token);
    expect(sent.status).toBe(201);
  }
  const inbox = await t.get('/api/v1/inbox', owner.token, { limit: 1 });
  inboxMessageId = inbox.body[0].id;
  // 101 links on the report, and 101 on the inbox message's version.
  for (let i = 0; i < 101; i++) {
    expect((await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token)).status).toBe(201);
    expect((await t.post(`/api/v1/inbox/${inboxMessageId}/shares`, {}, owner.token)).status).toBe(201);
  }
}, 300_000);
afterAll(() => t.close());

/** The path and query of a Link rel="next", or null without one. */
function nextOf(res: Response): string | null {
  const link = res.headers.link as string | undefined;
  if (!link) return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  if (!match?.[1]?.startsWith(BASE)) throw new Error(`unexpected Link: ${link}`);
  return match[1].slice(BASE.length);
}

/** Every item of a list, following Link from `first`; checks X-Total-Count on each page. */
async function readAll(first: string, total: number): Promise<{ items: { id: string }[]; pages: number }> {
  const items: { id: string }[] = [];
  let pages = 0;
  for (let url: string | null = first; url;) {
    const res = await t.get(url, owner.token);
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe(String(total));
    items.push(...res.body);
    pages += 1;
    url = nextOf(res);
  }
  return { items, pages };
}

/**
 * The owner's links on their self-copy are both report links and links on the message's version
 * (docs/api.md "Share links"), so both share lists hold all 202.
 */
const LISTS = [
  ['GET /inbox', 101, () => '/api/v1/inbox'],
  ['GET /reports/:id/sends', 101, () => `/api/v1/reports/${report.id}/sends`],
  ['GET /reports/:id/shares', 202, () => `/api/v1/reports/${report.id}/shares`],
  ['GET /inbox/:id/shares', 202, () => `/api/v1/inbox/${inboxMessageId}/shares`],
] as const;

describe.each(LISTS)('%s (%i items)', (_name, total, path) => {
  it('answers 100 by default, newest first, with X-Total-Count and a Link to the rest', async () => {
    const res = await t.get(path(), owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(100);
    expect(res.headers['x-total-count']).toBe(String(total));
    expect(nextOf(res)).toBe(`${path()}?limit=100&offset=100`);
    const stamps = (res.body as { sentAt?: string; createdAt?: string }[]).map((item) => item.sentAt ?? item.createdAt ?? '');
    expect([...stamps].sort().reverse()).toEqual(stamps);
  });

  it('pages through all with limit=40, each item once; the last page has no Link', async () => {
    const { items, pages } = await readAll(`${path()}?limit=40`, total);
    expect(pages).toBe(Math.ceil(total / 40));
    expect(new Set(items.map((i) => i.id)).size).toBe(total);
  });

  it('answers an empty page past the end, still with the total', async () => {
    const res = await t.get(path(), owner.token, { offset: 500 });
    expect(res.body).toEqual([]);
    expect(res.headers['x-total-count']).toBe(String(total));
    expect(res.headers.link).toBeUndefined();
  });

  it.each([
    [{ limit: 201 }, '/query/limit'],
    [{ limit: 0 }, '/query/limit'],
    [{ offset: -1 }, '/query/offset'],
    [{ page: 2 }, '/query'],
  ])('refuses %o with a 400', async (query, pointer) => {
    const problem = expectProblem(await t.get(path(), owner.token, query), 400);
    expect(problem.errors?.[0]?.path.startsWith(pointer)).toBe(true);
  });
});

describe('GET /reports (limit omitted returns everything, as the spec says)', () => {
  it('sends Link rel="next" only when a limit leaves reports out', async () => {
    for (let i = 0; i < 2; i++) await newReport(t, owner, [workspaceId]);
    const all = await t.get('/api/v1/reports', owner.token);
    expect(all.body).toHaveLength(3);
    expect(all.headers.link).toBeUndefined();
    const paged = await t.get('/api/v1/reports', owner.token, { limit: 2 });
    expect(paged.headers['x-total-count']).toBe('3');
    expect(nextOf(paged)).toBe('/api/v1/reports?limit=2&offset=2');
    expect((await t.get('/api/v1/reports', owner.token, { limit: 2, offset: 2 })).headers.link).toBeUndefined();
  });
});

describe('discussion comments', () => {
  const comments = (r: TestReport) => `/api/v1/report-contents/${r.reportContentId}/comments`;

  it(`keeps one response of a thread of 10 KB comments near 1 MB: 100 comments, not all ${MAX_COMMENTS}`, async () => {
    const body = 'x'.repeat(10_000);
    for (let i = 0; i < MAX_COMMENTS; i++) expect((await t.post(comments(report), { body }, owner.token)).status).toBe(201);
    const res = await t.get(`/api/v1/report-contents/${report.reportContentId}/discussion`, owner.token);
    expect(res.body.comments).toHaveLength(100);
    expect(res.headers['x-total-count']).toBe(String(MAX_COMMENTS));
    expect(res.text.length).toBeLessThan(1_100_000);
  });

  it(`refuses comment ${MAX_COMMENTS + 1} with 409 (DISCUSSION_MAX_COMMENTS)`, async () => {
    const refused = expectProblem(await t.post(comments(report), { body: 'one more' }, owner.token), 409);
    expect(refused.detail).toMatch(/holds 120 comments/);
    // Deleting one makes room for exactly one.
    const page = await t.get(`/api/v1/report-contents/${report.reportContentId}/discussion`, owner.token, { limit: 1 });
    expect((await t.del(`${comments(report)}/${page.body.comments[0].id}`, owner.token)).status).toBe(204);
    expect((await t.post(comments(report), { body: 'room again' }, owner.token)).status).toBe(201);
    expectProblem(await t.post(comments(report), { body: 'full again' }, owner.token), 409);
  });

  it('holds the cap exactly under concurrent comments on two processes', async () => {
    const fresh = await newReport(t, owner, [workspaceId]);
    expect((await t.post(`/api/v1/reports/${fresh.id}/send`, { sendToSelf: true }, owner.token)).status).toBe(201);
    const peer = await buildPeerApp(t, { discussionMaxComments: 10 });
    const local = await buildPeerApp(t, { discussionMaxComments: 10 });
    try {
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 ? peer : local).post(comments(fresh), { body: `c${i}` }, owner.token)),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(10);
      expect(results.filter((r) => r.status === 409)).toHaveLength(20);
      const thread = await t.get(`/api/v1/report-contents/${fresh.reportContentId}/discussion`, owner.token);
      expect(thread.headers['x-total-count']).toBe('10');
    } finally {
      await local.close();
      await peer.close();
    }
  });
});
