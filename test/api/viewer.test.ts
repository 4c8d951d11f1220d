import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decoded } from '../helpers/encodings.js';
import { shares } from '../../src/db/schema.js';
import { bookPasscodeAttempt } from '../../src/repositories/shares.repository.js';
import { MEMORY_PAGE_MAX_BYTES, PASSCODE_LIMITS } from '../../src/modules/shares/viewer.service.js';
import { NOT_FOUND_PAGE } from '../../src/render/share-page.js';
import { buildPeerApp, buildTestApp, newUser, type Response, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { editReport, newReport, newTemplate, type TestReport } from '../helpers/report-factories.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const PAGE = (token: string) => `/share/${token}`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
/** Headers that differ per response whatever the page: not part of the uniform 404 comparison. */
const PER_RESPONSE_HEADERS = new Set(['x-request-id', 'date', 'connection', 'keep-alive']);

async function ownerWithReport(name = 'Quarterly numbers'): Promise<{ owner: TestUser; report: TestReport }> {
  const owner = await newUser(t, { name: 'Olive Owner' });
  const workspace = await newWorkspace(t, owner);
  const report = await newReport(t, owner, [workspace.id], { name });
  return { owner, report };
}

async function mint(report: { id: string }, owner: TestUser, body: unknown = {}): Promise<{ id: string; token: string }> {
  const res = await t.post(`/api/v1/reports/${report.id}/shares`, body, owner.token);
  if (res.status !== 201) throw new Error(`mint failed: ${res.status} ${res.text}`);
  return res.body;
}

/**
 * A link to a page of about 1.6 MB of paragraphs: over the memory cache's largest page, in few
 * loop turns (a render's time limit holds on a busy machine too).
 */
async function longPageLink(): Promise<{ id: string; token: string }> {
  const owner = await newUser(t, { name: 'Olive Owner' });
  const workspace = await newWorkspace(t, owner);
  const words = 'with a few more words to make each one longer '.repeat(17);
  const templateId = await newTemplate(
    t,
    `# {{ report.name }}\n\n{% for i in (1..2000) %}Paragraph {{ i }} of a long page, ${words}\n\n{% endfor %}`,
  );
  const report = await newReport(t, owner, [workspace.id], { name: 'Long page', templateId });
  return mint(report, owner);
}

const view = (token: string) => t.request('GET', PAGE(token), { token: null });
const submit = (token: string, passcode: string) =>
  t.request('POST', PAGE(token), { token: null, headers: FORM, raw: new URLSearchParams({ passcode }).toString() });

async function shareRow(id: string) {
  const [row] = await t.database.db.select().from(shares).where(eq(shares.id, id));
  return row!;
}

/**
 * Runs `work` with a clock that reads `before` once and `after` from then on: the link is looked
 * up while it still serves and expires before the request's next step.
 */
async function expiringMidRequest<T>(before: string, after: string, work: () => Promise<T>): Promise<T> {
  let readings = 0;
  t.clock.now = () => new Date(readings++ === 0 ? before : after);
  try {
    return await work();
  } finally {
    Reflect.deleteProperty(t.clock, 'now');
  }
}

function expectViewerHeaders(res: Response): void {
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['x-robots-tag']).toContain('noindex');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  const csp = String(res.headers['content-security-policy']);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/]+=*'/);
  expect(csp).toContain("form-action 'self'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
}

function comparableHeaders(res: Response): Record<string, unknown> {
  return Object.fromEntries(Object.entries(res.headers).filter(([name]) => !PER_RESPONSE_HEADERS.has(name)));
}

/** The page's visible text: tags dropped, entities of the escaped text decoded. */
function visibleText(html: string): string {
  const body = html.slice(html.indexOf('<body>'));
  return body
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('the built-in timesheet on a share page', () => {
  async function timesheetPage(people: 1 | 2): Promise<{ html: string; text: string }> {
    const owner = await newUser(t, { name: 'Olive Owner' });
    const workspace = await newWorkspace(t, owner);
    const track = async (user: TestUser, start: string, description: string) => {
      const res = await t.post('/api/v1/time-entries', { workspaceId: workspace.id, start, minutes: 90, description }, user.token);
      if (res.status !== 201) throw new Error(`entry failed: ${res.status} ${res.text}`);
    };
    await track(owner, '2026-11-03T09:00:00Z', 'Planning the quarter');
    const userIds = [owner.id];
    if (people === 2) {
      const mate = await newUser(t, { name: 'Mia Mate' });
      await addMember(t, workspace.id, mate, 'member', owner.token);
      await track(mate, '2026-11-04T10:00:00Z', 'Reviewing the budget');
      userIds.push(mate.id);
    }
    t.clock.set('2026-12-01T08:00:00.000Z');
    try {
      const report = await newReport(t, owner, [workspace.id], { name: 'November hours', filters: { userIds } });
      const res = await view((await mint(report, owner)).token);
      expect(res.status).toBe(200);
      expectViewerHeaders(res);
      // The chart's data lists every day of the period, as data: the page's own text is checked without it.
      expect(res.text).toContain('<figure class="chart">\n<figcaption>Hours by day</figcaption>');
      return { html: res.text, text: visibleText(res.text.replace(/<figure class="chart">[\s\S]*?<\/figure>/g, '')) };
    } finally {
      t.clock.reset();
    }
  }

  it('shows the title, the period and the generation time once each, the period in one format', async () => {
    const { html, text } = await timesheetPage(1);
    expect(occurrences(text, 'November hours')).toBe(1);
    expect(occurrences(html, '<title>November hours – Chronicle</title>')).toBe(1);
    expect(occurrences(text, '1 Nov 2026 – 30 Nov 2026')).toBe(1);
    expect(text).not.toContain('2026-11-01');
    expect(text).not.toContain('2026-11-30');
    expect(occurrences(text, '1 December 2026')).toBe(1);
    expect(text).not.toContain('2026-12-01');
    expect(occurrences(text, 'Olive Owner')).toBe(1);
    // The day totals and the grand total are marked for the stylesheet.
    expect(html).toMatch(/<tr class="total">\s*<td><strong>Tuesday 2026-11-03<\/strong><\/td>/);
    expect(html).toMatch(/<tr class="total grand-total">\s*<td><strong>Total<\/strong><\/td>/);
  });

  it('has a Person column only when the report covers more than one person', async () => {
    const one = await timesheetPage(1);
    expect(one.html).not.toContain('>Person</th>');
    const two = await timesheetPage(2);
    expect(two.html).toContain('<th scope="col">Person</th>');
    expect(two.html).toMatch(/<td>Olive Owner<\/td>\s*<td>—<\/td>\s*<td>Planning the quarter<\/td>/);
    expect(two.html).toMatch(/<td>Mia Mate<\/td>\s*<td>—<\/td>\s*<td>Reviewing the budget<\/td>/);
  });
});

describe('a chart on a share page', () => {
  it('is inline SVG with its data, under the same CSP as a page without one', async () => {
    const owner = await newUser(t, { name: 'Olive <b>Owner</b> & "Co"' });
    const workspace = await newWorkspace(t, owner);
    for (const [start, minutes] of [
      ['2026-11-03T09:00:00Z', 90],
      ['2026-11-05T09:00:00Z', 425],
    ] as const) {
      const res = await t.post('/api/v1/time-entries', { workspaceId: workspace.id, start, minutes, description: 'Work' }, owner.token);
      expect(res.status).toBe(201);
    }
    const charted = await newReport(t, owner, [workspace.id], {
      name: 'Charted',
      templateId: await newTemplate(t, '# Hours\n\n{% chart "hours_by_day" %}\n\n{% chart "hours_by_person", limit: 3 %}\n'),
    });
    const plain = await newReport(t, owner, [workspace.id], { name: 'Plain', templateId: await newTemplate(t, '# Hours\n\nNo chart.\n') });
    expect(charted.renderedMarkdown).toContain('```chart\nhours_by_day: Hours by day\nunit: minutes\nseries: Billable | Not billable\n');
    expect(charted.renderedMarkdown).toContain('\n2026-11-05: 0 | 425\n');

    const page = await view((await mint(charted, owner)).token);
    const other = await view((await mint(plain, owner)).token);
    expect(page.status).toBe(200);
    expectViewerHeaders(page);
    expect(page.headers['content-security-policy']).toBe(other.headers['content-security-policy']);
    // Each chart drawn wide and narrow; the page's stylesheet shows the one that fits.
    expect(occurrences(page.text, '<svg xmlns="http://www.w3.org/2000/svg" class="chart-svg chart-wide"')).toBe(2);
    expect(occurrences(page.text, '<svg xmlns="http://www.w3.org/2000/svg" class="chart-svg chart-narrow"')).toBe(2);
    expect(page.text).toMatch(
      /<svg [^>]*role="img"[^>]*><title>Hours by day<\/title><desc>Column chart of 30 days, 2026-11-01 to 2026-11-30/,
    );
    expect(page.text).toContain('<td>2026-11-05</td><td class="align-right">0h 00m</td><td class="align-right">7h 05m</td>');
    expect(page.text).toContain('<td>Olive &lt;b&gt;Owner&lt;/b&gt; &amp; &quot;Co&quot;</td>');
    // The page's one stylesheet, and nothing the CSP would block.
    expect(occurrences(page.text, '<style')).toBe(1);
    expect(page.text).not.toMatch(/\sstyle=|<script/);
  });
});

describe('GET /share/:token', () => {
  it('serves the report page with its provenance, and counts the view', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner);
    t.clock.set('2026-12-10T08:30:00.000Z');
    try {
      const res = await view(share.token);
      expect(res.status).toBe(200);
      expectViewerHeaders(res);
      expect(res.text).toContain('<h1>Quarterly numbers</h1>');
      expect(res.text).toContain('Olive Owner');
      expect(res.text).toContain('<dt>Version</dt><dd>1</dd>');
      expect(res.text).toContain('datetime="2026-11-01"');
      const row = await shareRow(share.id);
      expect(row.viewCount).toBe(1);
      expect(row.lastViewedAt?.toISOString()).toBe('2026-12-10T08:30:00.000Z');
      const listed = await t.get(`/api/v1/reports/${report.id}/shares`, owner.token);
      expect(listed.body[0]).toMatchObject({ viewCount: 1, lastViewedAt: '2026-12-10T08:30:00.000Z' });
    } finally {
      t.clock.reset();
    }
  });

  it('renders a page too large for the memory cache once, serves it from its page file, and counts every view', async () => {
    const share = await longPageLink();
    const pageRenders = async () =>
      (await t.app.chronicle.metrics.renders.get()).values.filter((v) => v.labels.kind === 'page').reduce((sum, v) => sum + v.value, 0);
    const before = await pageRenders();
    // Two first views at once: one render between them.
    const first = await Promise.all([view(share.token), view(share.token)]);
    const again = await view(share.token);
    for (const res of [...first, again]) {
      expect(res.status).toBe(200);
      expectViewerHeaders(res);
      expect(res.text).toContain('Paragraph 2000 of a long page, with');
    }
    expect(Buffer.byteLength(again.text)).toBeGreaterThan(MEMORY_PAGE_MAX_BYTES);
    expect(new Set([...first, again].map((r) => r.text)).size).toBe(1);
    expect((await pageRenders()) - before).toBe(1);
    expect((await shareRow(share.id)).viewCount).toBe(3);
  });

  it('counts 200 concurrent views exactly', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner);
    const results = await Promise.all(Array.from({ length: 200 }, () => view(share.token)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(200);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect((await shareRow(share.id)).viewCount).toBe(200);
  });

  it('counts concurrent views on two processes exactly, each answered after its count', async () => {
    const peer = await buildPeerApp(t);
    try {
      const { owner, report } = await ownerWithReport();
      const share = await mint(report, owner);
      const results = await Promise.all(
        Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? t : peer).request('GET', PAGE(share.token), { token: null })),
      );
      expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
      expect((await shareRow(share.id)).viewCount).toBe(120);
    } finally {
      await peer.close();
    }
  });

  it('stops serving on every process the moment a link is revoked on one, whatever they remember of it', async () => {
    const peer = await buildPeerApp(t);
    try {
      const { owner, report } = await ownerWithReport();
      const share = await mint(report, owner);
      const passcodeLink = await mint(report, owner, { passcode: 'remembered' });
      // Both processes have seen (and keep) both links.
      for (const app of [t, peer]) {
        expect((await app.request('GET', PAGE(share.token), { token: null })).status).toBe(200);
        expect((await app.request('GET', PAGE(passcodeLink.token), { token: null })).status).toBe(200);
      }
      for (const link of [share, passcodeLink]) {
        expect((await t.post(`/api/v1/report-shares/${link.id}/revoke`, undefined, owner.token)).status).toBe(200);
      }
      for (const app of [peer, t]) {
        const gone = await app.request('GET', PAGE(share.token), { token: null });
        expect(gone.status).toBe(404);
        expect(gone.text).toBe(NOT_FOUND_PAGE);
        expect((await app.request('GET', PAGE(passcodeLink.token), { token: null })).status).toBe(404);
        expect(
          (await app.request('POST', PAGE(passcodeLink.token), { token: null, headers: FORM, raw: 'passcode=remembered' })).status,
        ).toBe(404);
      }
      expect((await shareRow(share.id)).viewCount).toBe(2);
    } finally {
      await peer.close();
    }
  });

  it('stops serving a remembered link once its report is deleted', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner);
    expect((await view(share.token)).status).toBe(200);
    expect((await t.del(`/api/v1/reports/${report.id}`, owner.token)).status).toBe(204);
    expect((await view(share.token)).status).toBe(404);
  });

  it('serves until just before expiresAt and is gone at expiresAt', async () => {
    const { owner, report } = await ownerWithReport();
    t.clock.set('2026-12-01T00:00:00.000Z');
    try {
      const share = await mint(report, owner, { expiresInDays: 1 });
      t.clock.set('2026-12-01T23:59:59.999Z');
      expect((await view(share.token)).status).toBe(200);
      t.clock.set('2026-12-02T00:00:00.000Z');
      const gone = await view(share.token);
      expect(gone.status).toBe(404);
      expect(gone.text).toBe(NOT_FOUND_PAGE);
      expect((await shareRow(share.id)).viewCount).toBe(1);
    } finally {
      t.clock.reset();
    }
  });

  it('never moves lastViewedAt back when a later view carries an earlier instant', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner);
    try {
      t.clock.set('2026-12-10T12:00:00.000Z');
      expect((await view(share.token)).status).toBe(200);
      t.clock.set('2026-12-10T11:00:00.000Z');
      expect((await view(share.token)).status).toBe(200);
      const row = await shareRow(share.id);
      expect(row.viewCount).toBe(2);
      expect(row.lastViewedAt?.toISOString()).toBe('2026-12-10T12:00:00.000Z');
      t.clock.set('2026-12-10T13:00:00.000Z');
      await view(share.token);
      expect((await shareRow(share.id)).lastViewedAt?.toISOString()).toBe('2026-12-10T13:00:00.000Z');
    } finally {
      t.clock.reset();
    }
  });

  it('counts nothing for a link that expires between its lookup and the count', async () => {
    const { owner, report } = await ownerWithReport();
    t.clock.set('2026-12-01T00:00:00.000Z');
    const share = await mint(report, owner, { expiresInDays: 1 });
    t.clock.reset();
    const res = await expiringMidRequest('2026-12-01T23:59:59.999Z', '2026-12-02T00:00:00.000Z', () => view(share.token));
    expect(res.status).toBe(404);
    expect(res.text).toBe(NOT_FOUND_PAGE);
    const row = await shareRow(share.id);
    expect(row.viewCount).toBe(0);
    expect(row.lastViewedAt).toBeNull();
  });

  it('counts nothing when the page cannot be produced', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner);
    // The link is looked up by the first SELECT; the page source is the second.
    const db = t.database.db as unknown as { select: (...args: unknown[]) => unknown };
    const original = db.select;
    let selects = 0;
    db.select = function (this: unknown, ...args: unknown[]) {
      selects += 1;
      if (selects === 2) throw new Error('page source unavailable');
      return original.apply(this, args);
    };
    try {
      expect((await view(share.token)).status).toBe(500);
    } finally {
      db.select = original;
    }
    expect(selects).toBe(2);
    expect((await shareRow(share.id)).viewCount).toBe(0);
    expect((await view(share.token)).status).toBe(200);
    expect((await shareRow(share.id)).viewCount).toBe(1);
  });

  it('stops serving the moment a link is revoked', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner);
    expect((await view(share.token)).status).toBe(200);
    await t.post(`/api/v1/report-shares/${share.id}/revoke`, undefined, owner.token);
    expect((await view(share.token)).status).toBe(404);
    expect((await submit(share.token, 'whatever')).status).toBe(404);
    expect((await shareRow(share.id)).viewCount).toBe(1);
  });

  it('keeps serving its version after an edit, and dies with the report', async () => {
    const { owner, report } = await ownerWithReport('First name');
    const v1 = await mint(report, owner);
    await editReport(t, owner, report, { name: 'Second name' });
    const v2 = await mint(report, owner);
    const old = await view(v1.token);
    expect(old.text).toContain('<h1>First name</h1>');
    expect(old.text).toContain('<dt>Version</dt><dd>1</dd>');
    const fresh = await view(v2.token);
    expect(fresh.text).toContain('<h1>Second name</h1>');
    expect(fresh.text).toContain('<dt>Version</dt><dd>2</dd>');

    expect((await t.del(`/api/v1/reports/${report.id}`, owner.token)).status).toBe(204);
    for (const token of [v1.token, v2.token]) {
      const res = await view(token);
      expect(res.status).toBe(404);
      expect(res.text).toBe(NOT_FOUND_PAGE);
    }
  });

  it('needs no authentication, and ignores a bearer token', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner);
    expect((await t.request('GET', PAGE(share.token), { token: 'not-a-real-token' })).status).toBe(200);
  });

  it('does not count a HEAD request as a view', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner);
    const res = await t.request('HEAD', PAGE(share.token), { token: null });
    expect(res.status).toBe(404);
    expectViewerHeaders(res);
    expect((await shareRow(share.id)).viewCount).toBe(0);
  });
});

/** A GET of a share page as a browser asks for it, the body as sent (compressed or not). */
async function viewEncoded(token: string, acceptEncoding: string, app = t.app) {
  const res = await app.inject({ method: 'GET', url: PAGE(token), headers: { 'accept-encoding': acceptEncoding } });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload };
}

describe('compressed pages', () => {
  it('sends a report page as Accept-Encoding asks, the same page in fewer bytes, and counts every view', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner);
    const plain = await view(share.token);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['*', 'br'],
      ['identity', undefined],
      ['deflate', undefined],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const res = await viewEncoded(share.token, accept);
        expect(res.status, accept).toBe(200);
        expect(res.headers['content-encoding'], accept).toBe(encoding);
        expect(res.headers.vary).toBe('Accept-Encoding');
        expect(Number(res.headers['content-length'])).toBe(res.bytes.length);
        // The page with the link's own download addresses, byte for byte.
        expect(decoded(res)).toBe(plain.text);
        if (encoding) expect(res.bytes.length).toBeLessThan(Buffer.byteLength(plain.text) / 2);
        for (const name of ['content-type', 'content-security-policy', 'cache-control', 'referrer-policy', 'x-robots-tag']) {
          expect(res.headers[name], name).toBe(plain.headers[name]);
        }
      }
    }
    expect((await shareRow(share.id)).viewCount).toBe(13);
  });

  it("keeps each link's own addresses in its compressed page", async () => {
    const { owner, report } = await ownerWithReport();
    const one = await mint(report, owner);
    const other = await mint(report, owner);
    const first = decoded(await viewEncoded(one.token, 'br'));
    const second = decoded(await viewEncoded(other.token, 'br'));
    expect(first).toContain(`/share/${one.token}/export.pdf`);
    expect(first).not.toContain(other.token);
    expect(second).toContain(`/share/${other.token}/export.pdf`);
    expect(second).not.toContain(one.token);
  });

  it('compresses a page served from its page file', async () => {
    const share = await longPageLink();
    const plain = await view(share.token);
    expect(Buffer.byteLength(plain.text)).toBeGreaterThan(MEMORY_PAGE_MAX_BYTES);
    // Concurrent first asks share one copy (the other encoding waits its turn: one compression at a time).
    const compressed = [
      ...(await Promise.all([viewEncoded(share.token, 'br'), viewEncoded(share.token, 'br')])),
      await viewEncoded(share.token, 'gzip'),
    ];
    for (const res of compressed) {
      expect(res.status).toBe(200);
      expect(decoded(res)).toBe(plain.text);
      expect(res.bytes.length).toBeLessThan(MEMORY_PAGE_MAX_BYTES / 10);
    }
    expect(compressed.map((res) => res.headers['content-encoding'])).toEqual(['br', 'br', 'gzip']);
    // The page file is still streamed as it is to a client that asks for no encoding.
    expect((await view(share.token)).text).toBe(plain.text);
    expect((await shareRow(share.id)).viewCount).toBe(5);
  });

  it('counts concurrent compressed views exactly, each the same bytes', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner);
    const results = await Promise.all(Array.from({ length: 50 }, () => viewEncoded(share.token, 'br')));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    // A view may find the one compression slot taken and go out as it is; every page is the same.
    expect(new Set(results.map((r) => decoded(r))).size).toBe(1);
    expect(results.filter((r) => r.headers['content-encoding'] === 'br').length).toBeGreaterThan(0);
    expect((await shareRow(share.id)).viewCount).toBe(50);
  });

  it('stops serving a compressed page the moment its link is revoked, on every process', async () => {
    const peer = await buildPeerApp(t);
    try {
      const { owner, report } = await ownerWithReport();
      const share = await mint(report, owner);
      expect((await viewEncoded(share.token, 'br')).headers['content-encoding']).toBe('br');
      expect((await viewEncoded(share.token, 'br', peer.app)).headers['content-encoding']).toBe('br');
      expect((await t.post(`/api/v1/report-shares/${share.id}/revoke`, {}, owner.token)).status).toBe(200);
      for (const app of [t.app, peer.app]) {
        const gone = await viewEncoded(share.token, 'br', app);
        expect(gone.status).toBe(404);
        expect(gone.headers['content-encoding']).toBeUndefined();
        expect(gone.bytes.toString()).toBe(NOT_FOUND_PAGE);
      }
    } finally {
      await peer.close();
    }
  });

  it("compresses a following link's page again for each version it serves", async () => {
    const { owner, report } = await ownerWithReport('Monthly hours');
    const following = await mint(report, owner, { follows: 'latest' });
    const first = await viewEncoded(following.token, 'br');
    expect(decoded(first)).toContain('<dt>Version</dt><dd>1</dd>');
    expect(decoded(first)).toContain('This link always shows the newest version of the report.');
    await editReport(t, owner, report, { name: 'Monthly hours, corrected' });
    const second = await viewEncoded(following.token, 'br');
    expect(second.headers['content-encoding']).toBe('br');
    expect(decoded(second)).toContain('<dt>Version</dt><dd>2</dd>');
    expect(decoded(second)).toBe((await view(following.token)).text);
  });

  it('compresses an unlocked page, which carries a download grant of its own, for that answer alone', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner, { passcode: 'correct horse' });
    const form = await viewEncoded(share.token, 'br');
    expect(form.headers['content-encoding']).toBeUndefined();
    expect(form.bytes.toString()).toContain('name="passcode"');
    const unlockEncoded = async (at: string) => {
      t.clock.set(at);
      try {
        const res = await t.app.inject({
          method: 'POST',
          url: PAGE(share.token),
          headers: { ...FORM, 'accept-encoding': 'br, gzip' },
          payload: new URLSearchParams({ passcode: 'correct horse' }).toString(),
        });
        return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload };
      } finally {
        t.clock.reset();
      }
    };
    const first = await unlockEncoded('2026-12-01T10:00:00.000Z');
    const second = await unlockEncoded('2026-12-01T10:05:00.000Z');
    for (const res of [first, second]) {
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(decoded(res)).toContain('export.pdf?grant=');
    }
    // Each answer's own grant: nothing of one unlock is kept for the next.
    const grantOf = (html: string) => /export\.pdf\?grant=([^"&]+)/.exec(html)?.[1];
    expect(grantOf(decoded(first))).toBeTruthy();
    expect(grantOf(decoded(first))).not.toBe(grantOf(decoded(second)));
    const plain = await submit(share.token, 'correct horse');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toContain('export.pdf?grant=');
  });
});

describe('the uniform 404', () => {
  it('is the same bytes and headers for malformed, unknown, revoked and expired tokens', async () => {
    const { owner, report } = await ownerWithReport();
    t.clock.set('2026-12-01T00:00:00.000Z');
    try {
      const revoked = await mint(report, owner);
      await t.post(`/api/v1/report-shares/${revoked.id}/revoke`, undefined, owner.token);
      const expired = await mint(report, owner, { expiresInDays: 1 });
      const protectedExpired = await mint(report, owner, { expiresInDays: 1, passcode: 'abcd' });
      t.clock.set('2026-12-02T00:00:00.000Z');
      const tokens = {
        tooShort: 'abc',
        tooLong: `${revoked.token}A`,
        badAlphabet: 'AAAAAAAAAAAAAAAAAAAAA.',
        encodedHtml: '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
        unknown: 'AAAAAAAAAAAAAAAAAAAAAA',
        revoked: revoked.token,
        expired: expired.token,
        protectedExpired: protectedExpired.token,
      };
      const responses: Response[] = [];
      for (const token of Object.values(tokens)) {
        responses.push(await view(token), await submit(token, 'abcd'));
      }
      responses.push(
        await t.request('GET', '/share/', { token: null }),
        await t.request('GET', `/share/${revoked.token}/extra`, { token: null }),
      );
      const reference = comparableHeaders(responses[0]!);
      for (const res of responses) {
        expect(res.status).toBe(404);
        expect(res.text).toBe(NOT_FOUND_PAGE);
        expect(comparableHeaders(res)).toEqual(reference);
        expectViewerHeaders(res);
      }
      expect((await shareRow(protectedExpired.id)).failedAttempts).toBe(0);
    } finally {
      t.clock.reset();
    }
  });

  it('answers requests the viewer cannot read with the same 404, never problem+json', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner, { passcode: 'right-one' });
    const attempts = [
      t.request('POST', PAGE(share.token), { token: null, body: { passcode: 'right-one' } }),
      t.request('POST', PAGE(share.token), { token: null, headers: { 'content-type': 'text/plain' }, raw: 'passcode=right-one' }),
      t.request('POST', PAGE(share.token), { token: null, headers: FORM, raw: `passcode=${'x'.repeat(20_000)}` }),
      t.request('PUT', PAGE(share.token), { token: null, headers: FORM, raw: 'passcode=right-one' }),
      t.request('DELETE', PAGE(share.token), { token: null }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.text).toBe(NOT_FOUND_PAGE);
      expectViewerHeaders(res);
    }
    const row = await shareRow(share.id);
    expect(row.viewCount).toBe(0);
    expect(row.failedAttempts).toBe(0);
  });
});

describe('failures on our side', () => {
  /** Makes every SELECT fail with `error` while `work` runs. */
  async function withFailingSelect(error: Error, work: () => Promise<void>): Promise<void> {
    const db = t.database.db as unknown as { select: unknown };
    const original = db.select;
    db.select = () => {
      throw error;
    };
    try {
      await work();
    } finally {
      db.select = original;
    }
  }

  it('answer an HTML page that does not claim the link is gone', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner);
    const unreachable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    await withFailingSelect(unreachable, async () => {
      const res = await view(share.token);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expectViewerHeaders(res);
      expect(res.text).toContain('temporarily unavailable');
      expect(res.text).not.toContain('ECONNREFUSED');
    });
    await withFailingSelect(new Error('boom'), async () => {
      const res = await submit(share.token, 'abcd');
      expect(res.status).toBe(500);
      expectViewerHeaders(res);
      expect(res.text).toContain('temporarily unavailable');
      expect(res.text).not.toContain('boom');
    });
    expect((await view(share.token)).status).toBe(200);
  });
});

describe('passcode links', () => {
  it('shows the form, refuses a wrong passcode with 401 and serves the page for the right one', async () => {
    const { owner, report } = await ownerWithReport('Protected report');
    const share = await mint(report, owner, { passcode: 'correct horse' });

    const form = await view(share.token);
    expect(form.status).toBe(200);
    expectViewerHeaders(form);
    expect(form.text).toContain('id="passcode"');
    expect(form.text).toContain('<form method="post">');
    expect(form.text).not.toContain('Protected report');

    const wrong = await submit(share.token, 'wrong horse');
    expect(wrong.status).toBe(401);
    expectViewerHeaders(wrong);
    expect(wrong.text).toContain('aria-invalid="true"');
    expect(wrong.text).not.toContain('Protected report');
    expect((await shareRow(share.id)).viewCount).toBe(0);

    const right = await submit(share.token, 'correct horse');
    expect(right.status).toBe(200);
    expectViewerHeaders(right);
    expect(right.text).toContain('<h1>Protected report</h1>');
    expect((await shareRow(share.id)).viewCount).toBe(1);

    // Each view needs the passcode again: no session is kept.
    expect((await view(share.token)).text).toContain('id="passcode"');
    expect((await shareRow(share.id)).viewCount).toBe(1);
  });

  it('treats a missing, repeated or out-of-range passcode field as a wrong passcode', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner, { passcode: 'abcd' });
    const noBody = await t.request('POST', PAGE(share.token), { token: null });
    const emptyForm = await t.request('POST', PAGE(share.token), { token: null, headers: FORM, raw: '' });
    const twice = await t.request('POST', PAGE(share.token), { token: null, headers: FORM, raw: 'passcode=abcd&passcode=abcd' });
    const tooLong = await submit(share.token, 'a'.repeat(129));
    for (const res of [noBody, emptyForm, twice, tooLong]) {
      expect(res.status).toBe(401);
      expectViewerHeaders(res);
    }
    expect((await shareRow(share.id)).viewCount).toBe(0);
  });

  it('normalises Unicode so the same passcode typed differently still matches', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner, { passcode: 'caf\u00e9!' });
    expect((await submit(share.token, 'cafe\u0301!')).status).toBe(200);
  });

  it('judges the passcode by its NFC form, however long it is on the wire', async () => {
    const { owner, report } = await ownerWithReport();
    const four = await mint(report, owner, { passcode: 'e\u0301e\u0301e\u0301e\u0301' });
    expect((await submit(four.token, '\u00e9\u00e9\u00e9\u00e9')).status).toBe(200);
    expect((await submit(four.token, 'e\u0301e\u0301e\u0301e\u0301')).status).toBe(200);
    // 128 characters precomposed, unlocked with the 256 code points of their decomposed form.
    const long = await mint(report, owner, { passcode: '\u00e9'.repeat(128) });
    expect((await submit(long.token, 'e\u0301'.repeat(128))).status).toBe(200);
    expect((await submit(long.token, 'e\u0301'.repeat(129))).status).toBe(401);
    expect((await submit(long.token, 'e\u0301'.repeat(257))).status).toBe(401);
    expect((await shareRow(long.id)).viewCount).toBe(1);
  });

  it('answers the uniform 404, not 401 or 429, for a revoked passcode link', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner, { passcode: 'revoked-code' });
    await t.post(`/api/v1/report-shares/${share.id}/revoke`, undefined, owner.token);
    for (const passcode of ['revoked-code', 'wrong-code']) {
      const res = await submit(share.token, passcode);
      expect(res.status).toBe(404);
      expect(res.text).toBe(NOT_FOUND_PAGE);
    }
    const row = await shareRow(share.id);
    expect(row.failedAttempts).toBe(0);
    expect(row.viewCount).toBe(0);
  });

  it('books no attempt on a link that stops serving between its lookup and the booking', async () => {
    const { owner, report } = await ownerWithReport();
    t.clock.set('2026-12-01T00:00:00.000Z');
    const share = await mint(report, owner, { passcode: 'expiring-code', expiresInDays: 1 });
    t.clock.reset();
    for (const passcode of ['expiring-code', 'wrong-code']) {
      const res = await expiringMidRequest('2026-12-01T23:59:59.999Z', '2026-12-02T00:00:00.000Z', () => submit(share.token, passcode));
      expect(res.status).toBe(404);
      expect(res.text).toBe(NOT_FOUND_PAGE);
    }
    expect((await shareRow(share.id)).failedAttempts).toBe(0);

    const revoked = await mint(report, owner, { passcode: 'revoked-code' });
    await t.post(`/api/v1/report-shares/${revoked.id}/revoke`, undefined, owner.token);
    expect(await bookPasscodeAttempt(t.database.db, revoked.id, 'client', new Date(), PASSCODE_LIMITS)).toEqual({ kind: 'gone' });
    expect((await shareRow(revoked.id)).failedAttempts).toBe(0);
  });

  it('serves a link without passcode directly on POST', async () => {
    const { owner, report } = await ownerWithReport('Open report');
    const share = await mint(report, owner);
    const res = await submit(share.token, 'anything');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1>Open report</h1>');
    expect((await shareRow(share.id)).viewCount).toBe(1);
  });

  it('allows 10 wrong attempts per 15 minutes, then refuses even the right passcode with 429', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner, { passcode: 'the-right-one' });
    t.clock.set('2026-12-01T12:00:00.000Z');
    try {
      for (let i = 0; i < 10; i++) {
        t.clock.advance(1000);
        expect((await submit(share.token, `wrong-${i}`)).status).toBe(401);
      }
      t.clock.set('2026-12-01T12:05:00.000Z');
      const limited = await submit(share.token, 'wrong-again');
      expect(limited.status).toBe(429);
      expectViewerHeaders(limited);
      // The window opened with the first failure at 12:00:01 and closes at 12:15:01.
      expect(limited.headers['retry-after']).toBe(String(10 * 60 + 1));
      expect(limited.text).toContain('Too many attempts, try again in 11 minutes.');
      expect(limited.text).toContain('id="passcode"');

      const refusedRight = await submit(share.token, 'the-right-one');
      expect(refusedRight.status).toBe(429);
      expect((await shareRow(share.id)).viewCount).toBe(0);

      t.clock.set('2026-12-01T12:15:00.999Z');
      expect((await submit(share.token, 'the-right-one')).status).toBe(429);
      t.clock.set('2026-12-01T12:15:01.000Z');
      const allowed = await submit(share.token, 'the-right-one');
      expect(allowed.status).toBe(200);
      expect((await shareRow(share.id)).viewCount).toBe(1);
      // A new window: wrong passcodes are refused with 401 again.
      expect((await submit(share.token, 'wrong-later')).status).toBe(401);
    } finally {
      t.clock.reset();
    }
  });

  // How many of a burst run at once depends on the machine's speed; that a client has at most
  // CLIENT_IN_FLIGHT running is proven with held admissions in auth-throttle.test.ts.
  it('never lets a burst of concurrent attempts check more than 10 passcodes', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner, { passcode: 'burst-proof' });
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => submit(share.token, `guess-${i}`)));
    const checked = results.filter((r) => r.status === 401).length;
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(10);
    expect(results.filter((r) => r.status === 429)).toHaveLength(25 - checked);
    for (const res of results.filter((r) => r.status === 429)) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // The rest of the allowance, one at a time: exactly 10 are checked in all, then 429.
    let more = 0;
    for (let i = 0; i < 20; i++) {
      const res = await submit(share.token, `again-${i}`);
      if (res.status === 429) break;
      expect(res.status).toBe(401);
      more += 1;
    }
    expect(checked + more).toBe(10);
  });

  it('does not count right passcodes against the limit', async () => {
    const { owner, report } = await ownerWithReport();
    const share = await mint(report, owner, { passcode: 'open-sesame' });
    for (let i = 0; i < 9; i++) expect((await submit(share.token, `nope-${i}`)).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await submit(share.token, 'open-sesame')).status).toBe(200);
    expect((await submit(share.token, 'nope-9')).status).toBe(401);
    expect((await submit(share.token, 'nope-10')).status).toBe(429);
    expect((await shareRow(share.id)).viewCount).toBe(3);
  });

  it('keeps each link its own allowance', async () => {
    const { owner, report } = await ownerWithReport();
    const a = await mint(report, owner, { passcode: 'aaaa' });
    const b = await mint(report, owner, { passcode: 'bbbb' });
    for (let i = 0; i < 11; i++) await submit(a.token, 'zzzz');
    expect((await submit(a.token, 'aaaa')).status).toBe(429);
    expect((await submit(b.token, 'bbbb')).status).toBe(200);
  });
});
