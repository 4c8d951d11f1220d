/**
 * API answers compressed as the client asks (src/http/compression.ts): large 200s of JSON and
 * Markdown in Brotli or gzip with `Vary: Accept-Encoding`, their entity tags those of the answer as
 * it is; small answers, errors and answers that hold a secret as they are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decoded } from '../helpers/encodings.js';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { newWorkspace } from '../helpers/factories.js';
import { newReport, type TestReport } from '../helpers/report-factories.js';

let t: TestContext;
let owner: TestUser;
let workspaceId: string;
let report: TestReport;

/** Enough entries, with long descriptions, for the entry list and the Timesheet to pass 8 KiB. */
const ENTRIES = 120;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await newUser(t, { name: 'Olive Owner' });
  workspaceId = (await newWorkspace(t, owner)).id;
  const entries = Array.from({ length: ENTRIES }, (_, i) => ({
    workspaceId,
    start: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T${String(8 + (i % 9)).padStart(2, '0')}:00:00Z`,
    minutes: 15 + i,
    description: `Entry ${i}: reviewed the quarterly figures with the client and wrote up the follow-up notes`,
  }));
  const made = await t.post('/api/v1/time-entries/batch', { entries }, owner.token);
  expect(made.status).toBe(201);
  report = await newReport(t, owner, [workspaceId], { name: 'November' });
});
afterAll(() => t.close());

/** A GET as a client sends it, the body as it came. */
async function fetchEncoded(url: string, acceptEncoding: string | null, headers: Record<string, string> = {}, token = owner.token) {
  const res = await t.app.inject({
    method: 'GET',
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
      ...(acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding }),
    },
  });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload };
}

const LIST = '/api/v1/time-entries?limit=200';

describe('compressed API answers', () => {
  it('sends a large answer as Accept-Encoding asks, the same JSON in fewer bytes', async () => {
    const plain = await fetchEncoded(LIST, null);
    expect(plain.status).toBe(200);
    expect(plain.bytes.length).toBeGreaterThan(8 * 1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(JSON.parse(plain.bytes.toString())).toHaveLength(ENTRIES);
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', undefined],
      ['zstd', undefined],
    ] as const) {
      const res = await fetchEncoded(LIST, accept);
      expect(res.status, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers['content-type']).toBe(plain.headers['content-type']);
      expect(res.headers['x-total-count']).toBe(String(ENTRIES));
      expect(res.headers['x-request-id']).toBeTruthy();
      expect(Number(res.headers['content-length'])).toBe(res.bytes.length);
      expect(decoded(res)).toBe(plain.bytes.toString());
      if (encoding) expect(res.bytes.length).toBeLessThan(plain.bytes.length / 4);
    }
  });

  it("compresses a version's Markdown download, varying by Accept and Accept-Encoding", async () => {
    const url = `/api/v1/report-contents/${report.reportContentId}`;
    const markdown = { accept: 'text/markdown' };
    const plain = await fetchEncoded(url, null, markdown);
    expect(plain.bytes.length).toBeGreaterThan(8 * 1024);
    const res = await fetchEncoded(url, 'br, gzip', markdown);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('Accept, Accept-Encoding');
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(plain.headers['content-disposition']);
    expect(decoded(res)).toBe(plain.bytes.toString());
    expect(decoded(res)).toBe(report.renderedMarkdown);
  });

  it('keeps the entity tag of the answer as it is, and answers 304 to it without a body', async () => {
    const url = `/api/v1/report-contents/${report.reportContentId}`;
    const plain = await fetchEncoded(url, null);
    const res = await fetchEncoded(url, 'br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(plain.headers.etag).toBeTruthy();
    expect(res.headers.etag).toBe(plain.headers.etag);
    const again = await fetchEncoded(url, 'br', { 'if-none-match': String(res.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.headers['content-encoding']).toBeUndefined();
    // The report's own tag is its version, whatever the encoding: If-Match on the next edit works.
    const read = await fetchEncoded(`/api/v1/reports/${report.id}`, 'br');
    expect(read.headers.etag).toBe(`"${report.version}"`);
  });

  it("compresses a version's CSV export and the OpenAPI document", async () => {
    const url = `/api/v1/report-contents/${report.reportContentId}/export?format=csv`;
    const plain = await fetchEncoded(url, null);
    expect(plain.status).toBe(200);
    expect(plain.bytes.length).toBeGreaterThan(8 * 1024);
    const res = await fetchEncoded(url, 'gzip, br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe(plain.headers['content-type']);
    expect(res.headers['content-disposition']).toBe(plain.headers['content-disposition']);
    expect(decoded(res)).toBe(plain.bytes.toString());
    expect(decoded(res).split('\n').filter(Boolean)).toHaveLength(ENTRIES + 1);
    // XLSX is a zip already: as it is.
    const xlsx = await fetchEncoded(`/api/v1/report-contents/${report.reportContentId}/export?format=xlsx`, 'br');
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers['content-encoding']).toBeUndefined();
    const doc = await fetchEncoded('/openapi.json', 'br', {}, '');
    expect(doc.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(doc))).toHaveProperty('openapi');
  });

  it.each(['/docs/json', '/docs/yaml'])('compresses the document the API reference loads, %s', async (url) => {
    const plain = await fetchEncoded(url, null, {}, '');
    expect(plain.status).toBe(200);
    expect(plain.bytes.length).toBeGreaterThan(100 * 1024);
    for (const encoding of ['br', 'gzip'] as const) {
      const res = await fetchEncoded(url, encoding, {}, '');
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.bytes.length).toBeLessThan(plain.bytes.length / 5);
      expect(decoded(res)).toBe(plain.bytes.toString());
      expect(res.headers['content-type']).toBe(plain.headers['content-type']);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(String(res.headers.vary)).toContain('Accept-Encoding');
    }
  });

  it('sends small answers and errors as they are', async () => {
    const me = await fetchEncoded('/api/v1/me', 'br');
    expect(me.status).toBe(200);
    expect(me.headers['content-encoding']).toBeUndefined();
    expect(me.headers.vary).toBeUndefined();
    const missing = await fetchEncoded('/api/v1/reports/no-such-report', 'br');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect(missing.headers['content-type']).toContain('problem+json');
  });

  it('never compresses an answer that holds a secret', async () => {
    for (let i = 0; i < 30; i++) {
      const minted = await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token);
      expect(minted.status).toBe(201);
    }
    const res = await fetchEncoded(`/api/v1/reports/${report.id}/shares`, 'br, gzip');
    expect(res.status).toBe(200);
    expect(res.bytes.length).toBeGreaterThan(8 * 1024);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.bytes.toString())).toHaveLength(30);
  });

  it('reaches the typed client and the API over HTTP the same, decoded by fetch', async () => {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const res = await fetch(`${address}${LIST}`, { headers: { authorization: `Bearer ${owner.token}`, 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(((await res.json()) as unknown[]).length).toBe(ENTRIES);
  });
});
