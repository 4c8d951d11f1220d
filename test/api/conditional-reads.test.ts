/**
 * Conditional reads (src/http/conditional.ts, docs/api.md "Conditional reads"): a report, a
 * version and a discussion answer with a strong ETag and answer 304, without a body, to an
 * If-None-Match that names it; any change the caller would see gives a new tag; access is
 * checked first, so a tag never opens anything to someone who may not read it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityTag, matchesIfNoneMatch } from '../../src/http/conditional.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { editReport, newReport, type TestReport } from '../helpers/report-factories.js';
import { buildTestApp, expectProblem, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

let t: TestContext;
let owner: TestUser;
let reader: TestUser;
let stranger: TestUser;
let workspaceId: string;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await newUser(t, { name: 'Olive Owner' });
  reader = await newUser(t, { name: 'Rita Reader' });
  stranger = await newUser(t, { name: 'Sam Stranger' });
  workspaceId = (await newWorkspace(t, owner)).id;
  await addMember(t, workspaceId, reader, 'member', owner.token);
});
afterAll(() => t.close());

const get = (url: string, token: string, headers: Record<string, string> = {}) => t.request('GET', url, { token, headers });

/** A 200 with a tag, then the same read with that tag: 304, no body, the same tag. */
async function expectNotModifiedAfter(url: string, token: string, headers: Record<string, string> = {}): Promise<string> {
  const first = await get(url, token, headers);
  expect(first.status).toBe(200);
  const tag = first.headers.etag as string;
  expect(tag).toMatch(/^"[^"]+"$/);
  const again = await get(url, token, { ...headers, 'if-none-match': tag });
  expect(again.status).toBe(304);
  expect(again.text).toBe('');
  expect(again.headers.etag).toBe(tag);
  expect(again.headers['content-type']).toBeUndefined();
  return tag;
}

async function sentReport(): Promise<TestReport> {
  const report = await newReport(t, owner, [workspaceId], { name: 'Weekly hours' });
  expect((await t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: [reader.id] }, owner.token)).status).toBe(201);
  return report;
}

describe('If-None-Match', () => {
  it('compares tags weakly, takes a list and *, and never matches without the header', () => {
    expect(matchesIfNoneMatch('"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('W/"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('"x", W/"a" , "y"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch(' * ', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('"b"', '"a"')).toBe(false);
    expect(matchesIfNoneMatch('a', '"a"')).toBe(false);
    expect(matchesIfNoneMatch('', '"a"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, '"a"')).toBe(false);
    expect(entityTag('same')).toBe(entityTag(Buffer.from('same')));
    expect(entityTag('same')).not.toBe(entityTag('other'));
  });
});

describe('a report', () => {
  it('is tagged with its version, 304 while it stays, 200 with the new tag once edited', async () => {
    const report = await newReport(t, owner, [workspaceId], { name: 'Weekly hours' });
    const url = `/api/v1/reports/${report.id}`;
    expect(await expectNotModifiedAfter(url, owner.token)).toBe(`"${report.version}"`);
    expect((await get(url, owner.token, { 'if-none-match': '*' })).status).toBe(304);
    expect((await get(url, owner.token, { 'if-none-match': '"999"' })).status).toBe(200);
    const edited = await editReport(t, owner, report, { name: 'Renamed' });
    const after = await get(url, owner.token, { 'if-none-match': `"${report.version}"` });
    expect(after.status).toBe(200);
    expect(after.headers.etag).toBe(`"${edited.version}"`);
    expect(after.body.name).toBe('Renamed');
  });

  it('answers 404 to whoever may not read it, whatever tag is sent', async () => {
    const report = await newReport(t, owner, [workspaceId]);
    for (const tag of [`"${report.version}"`, '*']) {
      expectProblem(await get(`/api/v1/reports/${report.id}`, stranger.token, { 'if-none-match': tag }), 404);
    }
  });
});

describe('a version', () => {
  it('has a tag per representation (JSON and Markdown), 304 for each while it stays', async () => {
    const report = await sentReport();
    const url = `/api/v1/report-contents/${report.reportContentId}`;
    const json = await expectNotModifiedAfter(url, reader.token);
    const markdown = await expectNotModifiedAfter(url, reader.token, { accept: 'text/markdown' });
    expect(markdown).not.toBe(json);
    // The JSON's tag does not revalidate the Markdown.
    expect((await get(url, reader.token, { accept: 'text/markdown', 'if-none-match': json })).status).toBe(200);
    expectProblem(await get(url, stranger.token, { 'if-none-match': json }), 404);
  });
});

describe('a discussion', () => {
  it('is 304 while nothing changes, and 200 with a new tag after a comment, a reaction or a comment past the page', async () => {
    const report = await sentReport();
    const url = `/api/v1/report-contents/${report.reportContentId}/discussion`;
    const empty = await expectNotModifiedAfter(url, reader.token);
    const commented = await t.post(`/api/v1/report-contents/${report.reportContentId}/comments`, { body: 'First' }, owner.token);
    expect(commented.status).toBe(201);
    const afterComment = await get(url, reader.token, { 'if-none-match': empty });
    expect(afterComment.status).toBe(200);
    expect(afterComment.body.comments).toHaveLength(1);
    const withComment = await expectNotModifiedAfter(url, reader.token);
    expect(
      (await t.put(`/api/v1/report-contents/${report.reportContentId}/reactions`, { emoji: 'heart' }, owner.token)).status,
    ).toBeLessThan(300);
    expect((await get(url, reader.token, { 'if-none-match': withComment })).status).toBe(200);
    // A page that does not show the new comment still changes its tag: the thread's size is part of it.
    const firstPage = await expectNotModifiedAfter(`${url}?limit=1`, reader.token);
    expect((await t.post(`/api/v1/report-contents/${report.reportContentId}/comments`, { body: 'Second' }, owner.token)).status).toBe(201);
    const stale = await get(`${url}?limit=1`, reader.token, { 'if-none-match': firstPage });
    expect(stale.status).toBe(200);
    expect(stale.headers['x-total-count']).toBe('2');
  });

  it('tags each caller’s own view apart (what they may edit, what they reacted to)', async () => {
    const report = await sentReport();
    await t.post(`/api/v1/report-contents/${report.reportContentId}/comments`, { body: 'Mine' }, owner.token);
    const url = `/api/v1/report-contents/${report.reportContentId}/discussion`;
    const ownerTag = (await get(url, owner.token)).headers.etag as string;
    const readerTag = (await get(url, reader.token)).headers.etag as string;
    expect(ownerTag).not.toBe(readerTag);
    expect((await get(url, reader.token, { 'if-none-match': ownerTag })).status).toBe(200);
    expectProblem(await get(url, stranger.token, { 'if-none-match': readerTag }), 404);
  });
});
