/**
 * Downloads through a share link (docs/exports.md "Share links"): the page's PDF and CSV links,
 * counted apart from views; a passcode link's downloads only through the grant its unlocked page
 * hands out, for that link, for ten minutes; dead links, versions without rows, and the headers.
 */
import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { newWorkspace } from '../helpers/factories.js';
import { newReport, type TestReport } from '../helpers/report-factories.js';
import { readPdf } from '../helpers/poppler.js';
import { decoded } from '../helpers/encodings.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const PASSCODE = 'correct horse';

async function sharedReport(passcode?: string): Promise<{ owner: TestUser; report: TestReport; share: { id: string; token: string } }> {
  const owner = await newUser(t, { name: 'Olive Owner' });
  const ws = await newWorkspace(t, owner);
  for (const [day, description] of [
    ['03', 'Kick-off'],
    ['04', 'Design review'],
  ] as const) {
    const res = await t.post(
      '/api/v1/time-entries',
      { workspaceId: ws.id, start: `2026-11-${day}T09:00:00Z`, minutes: 90, description },
      owner.token,
    );
    expect(res.status).toBe(201);
  }
  const report = await newReport(t, owner, [ws.id], { name: 'November for Acme' });
  const minted = await t.post(`/api/v1/reports/${report.id}/shares`, passcode ? { passcode } : {}, owner.token);
  expect(minted.status, minted.text).toBe(201);
  return { owner, report, share: minted.body };
}

/** A public request: no token, raw bytes. */
async function fetchPublic(url: string, remoteAddress = '203.0.113.7') {
  const res = await t.app.inject({ method: 'GET', url, remoteAddress });
  return { status: res.statusCode, headers: res.headers, body: res.rawPayload, text: res.body };
}

const unlock = (token: string) =>
  t.request('POST', `/share/${token}`, { token: null, headers: FORM, raw: new URLSearchParams({ passcode: PASSCODE }).toString() });

/** The download links of a served page. */
function linksOf(html: string): { pdf: string; csv: string } {
  const pdf = /<a href="([^"]+export\.pdf[^"]*)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
  const csv = /<a href="([^"]+export\.csv[^"]*)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
  if (!pdf || !csv) throw new Error('the page has no download links');
  return { pdf, csv };
}

async function counts(owner: TestUser, reportId: string, shareId: string): Promise<{ viewCount: number; downloadCount: number }> {
  const list = await t.get(`/api/v1/reports/${reportId}/shares`, owner.token);
  const share = (list.body as { id: string; viewCount: number; downloadCount: number }[]).find((s) => s.id === shareId);
  if (!share) throw new Error('share not listed');
  return { viewCount: share.viewCount, downloadCount: share.downloadCount };
}

describe('a link without a passcode', () => {
  it('shows PDF and CSV links that download the version, each counted as a download, not a view', async () => {
    const { owner, report, share } = await sharedReport();
    const page = await t.request('GET', `/share/${share.token}`, { token: null });
    expect(page.status).toBe(200);
    const links = linksOf(page.text);
    expect(links).toEqual({ pdf: `/share/${share.token}/export.pdf`, csv: `/share/${share.token}/export.csv` });

    const pdf = await fetchPublic(links.pdf);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(String(pdf.headers['content-disposition'])).toContain('November%20for%20Acme%202026-11-01%E2%80%932026-11-30%20v1.pdf');
    expect(pdf.headers['cache-control']).toBe('no-store');
    expect(pdf.headers['x-content-type-options']).toBe('nosniff');
    expect(pdf.headers['referrer-policy']).toBe('no-referrer');
    expect((await readPdf(pdf.body)).text).toContain('Design review');

    const csv = await fetchPublic(links.csv);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const rows = parse<Record<string, string>>(csv.body, { bom: true, columns: true });
    expect(rows.map((r) => r.description)).toEqual(['Kick-off', 'Design review']);

    expect(await counts(owner, report.id, share.id)).toEqual({ viewCount: 1, downloadCount: 2 });
  });

  it('serves many readers at once, every download counted, the file the same for all', async () => {
    const { owner, report, share } = await sharedReport();
    const readers = Array.from({ length: 6 }, (_, i) => `198.51.100.${i + 1}`);
    const results = await Promise.all(readers.map((address) => fetchPublic(`/share/${share.token}/export.pdf`, address)));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(new Set(results.map((r) => r.body.toString('base64'))).size).toBe(1);
    expect((await counts(owner, report.id, share.id)).downloadCount).toBe(6);
  });

  it('sends a CSV compressed to a client that accepts it, the same rows, each download counted', async () => {
    const { owner, report, share } = await sharedReport();
    const { workspaceIds } = report.filters as { workspaceIds: string[] };
    // Enough rows for compression to pay.
    const entries = Array.from({ length: 80 }, (_, i) => ({
      workspaceId: workspaceIds[0],
      start: `2026-11-${String(5 + (i % 20)).padStart(2, '0')}T10:00:00Z`,
      minutes: 30,
      description: `Follow-up call ${i} about the Acme quarterly figures`,
    }));
    expect((await t.post('/api/v1/time-entries/batch', { entries }, owner.token)).status).toBe(201);
    const version = (
      await t.patch(
        `/api/v1/reports/${report.id}`,
        { name: report.name, templateId: report.templateId, filters: report.filters },
        owner.token,
      )
    ).body;
    const link = (await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token)).body;
    expect(link.reportContentId).toBe(version.reportContentId);
    const url = `/share/${link.token}/export.csv`;
    const plain = await fetchPublic(url);
    expect(plain.status).toBe(200);
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const accept of ['gzip, deflate, br', 'gzip']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': accept }, remoteAddress: '203.0.113.8' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(accept === 'gzip' ? 'gzip' : 'br');
      expect(res.headers['content-disposition']).toBe(plain.headers['content-disposition']);
      expect(res.headers['content-type']).toBe(plain.headers['content-type']);
      expect(res.rawPayload.length).toBeLessThan(plain.body.length / 3);
      expect(decoded({ headers: res.headers, bytes: res.rawPayload })).toBe(plain.text);
    }
    // The PDF is compressed already: as it is.
    const pdf = await t.app.inject({ method: 'GET', url: `/share/${link.token}/export.pdf`, headers: { 'accept-encoding': 'br' } });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-encoding']).toBeUndefined();
    expect((await counts(owner, report.id, link.id)).downloadCount).toBe(4);
    expect((await counts(owner, report.id, share.id)).downloadCount).toBe(0);
  });

  it('lets one client have a few downloads running, and tells the rest to retry', async () => {
    const { share } = await sharedReport();
    const results = await Promise.all(Array.from({ length: 12 }, () => fetchPublic(`/share/${share.token}/export.csv`)));
    const statuses = new Set(results.map((r) => r.status));
    expect([...statuses].every((status) => status === 200 || status === 429)).toBe(true);
    expect(statuses.has(200)).toBe(true);
    for (const refused of results.filter((r) => r.status === 429)) expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('stops serving files the moment the link is revoked or expires', async () => {
    const { owner, share } = await sharedReport();
    expect((await fetchPublic(`/share/${share.token}/export.csv`)).status).toBe(200);
    expect((await t.post(`/api/v1/report-shares/${share.id}/revoke`, undefined, owner.token)).status).toBe(200);
    const gone = await fetchPublic(`/share/${share.token}/export.csv`);
    expect(gone.status).toBe(404);
    expect(gone.headers['content-type']).toBe('text/html; charset=utf-8');

    const expiring = await sharedReport();
    t.clock.set('2026-12-01T00:00:00.000Z');
    const minted = await t.post(`/api/v1/reports/${expiring.report.id}/shares`, { expiresInDays: 1 }, expiring.owner.token);
    expect(minted.status).toBe(201);
    t.clock.set('2026-12-02T00:00:01.000Z');
    try {
      expect((await fetchPublic(`/share/${minted.body.token}/export.pdf`)).status).toBe(404);
    } finally {
      t.clock.reset();
    }
    expect((await fetchPublic('/share/not-a-token/export.pdf')).status).toBe(404);
  });

  it('a version from before rows were kept has its PDF, and a page saying it has no CSV', async () => {
    const { share, report } = await sharedReport();
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table report_datasets disable trigger report_datasets_no_lone_delete`);
      await tx.execute(sql`delete from report_datasets where content_id = ${report.reportContentId}`);
      await tx.execute(sql`alter table report_datasets enable trigger report_datasets_no_lone_delete`);
    });
    const csv = await fetchPublic(`/share/${share.token}/export.csv`);
    expect(csv.status).toBe(409);
    expect(csv.text).toContain('rendered before Chronicle kept the rows');
    expect(csv.text).toContain(`href="/share/${share.token}"`);
    expect((await fetchPublic(`/share/${share.token}/export.pdf`)).status).toBe(200);
  });
});

describe('a link with a passcode', () => {
  it('hands out download links only after the passcode, valid for that link for ten minutes', async () => {
    const { owner, report, share } = await sharedReport(PASSCODE);
    const prompt = await t.request('GET', `/share/${share.token}`, { token: null });
    expect(prompt.text).not.toContain('export.pdf');

    // Without a grant: to the link, whose page asks for the passcode.
    const bare = await fetchPublic(`/share/${share.token}/export.pdf`);
    expect(bare.status).toBe(303);
    expect(bare.headers.location).toBe(`/share/${share.token}`);

    t.clock.set('2026-12-01T10:00:00.000Z');
    try {
      const page = await unlock(share.token);
      expect(page.status).toBe(200);
      const links = linksOf(page.text);
      expect(links.pdf).toMatch(new RegExp(`^/share/${share.token}/export\\.pdf\\?grant=\\d+\\.[A-Za-z0-9_-]{43}$`));
      expect(page.text).not.toContain(PASSCODE);
      expect(links.csv).not.toContain(encodeURIComponent(PASSCODE));
      expect((await fetchPublic(links.pdf)).status).toBe(200);
      expect((await fetchPublic(links.csv)).status).toBe(200);

      // Another link's grant, a changed signature, a changed expiry: refused.
      const other = await sharedReport(PASSCODE);
      const grant = new URL(links.csv, 'http://x').searchParams.get('grant') ?? '';
      expect((await fetchPublic(`/share/${other.share.token}/export.csv?grant=${grant}`)).status).toBe(303);
      const [expires, signature = ''] = grant.split('.');
      const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
      expect((await fetchPublic(`/share/${share.token}/export.csv?grant=${expires}.${flipped}`)).status).toBe(303);
      expect((await fetchPublic(`/share/${share.token}/export.csv?grant=${Number(expires) + 3600}.${signature}`)).status).toBe(303);
      expect((await fetchPublic(`/share/${share.token}/export.csv?grant=${'9'.repeat(200)}`)).status).toBe(404);

      // Ten minutes on, the grant is spent.
      t.clock.set('2026-12-01T10:10:01.000Z');
      expect((await fetchPublic(links.csv)).status).toBe(303);
    } finally {
      t.clock.reset();
    }
    expect(await counts(owner, report.id, share.id)).toEqual({ viewCount: 1, downloadCount: 2 });
  });
});
