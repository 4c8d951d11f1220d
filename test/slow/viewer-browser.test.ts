/**
 * The public viewer in a real browser: hostile report content runs nothing and loads nothing,
 * the CSP-hashed stylesheet applies, and the passcode form works by typing. Browser-side checks
 * are passed to page.evaluate as strings, since the project compiles without the DOM library.
 */
import type { AddressInfo } from 'node:net';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, COLOUR_RULES, hasChromium, launchBrowser, releaseBrowser } from '../helpers/browser.js';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, addProjectMember, newProject, newWorkspace } from '../helpers/factories.js';
import { newReport, newTemplate } from '../helpers/report-factories.js';

/** Each would set window.__pwned, open a dialog or fetch from another origin if it ever became markup. */
const PAYLOADS = [
  '<script>window.__pwned=1;alert(1)</script>',
  '<img src=x onerror="window.__pwned=1;alert(1)">',
  '"><svg onload="window.__pwned=1">',
  '[click](javascript:window.__pwned=1)',
  '![t](https://evil.example/t.png)',
  '<iframe src="https://evil.example/frame"></iframe>',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<style>body{background:url(https://evil.example/bg.png)}</style>',
  '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
  '<a href="javascript:window.__pwned=1">x</a> <form action="https://evil.example/"><button>go</button></form>',
  '<base href="https://evil.example/">',
];

const RAW_TEMPLATE = `# {{ report.name }}

{{ owner.name }}

{{ report.note }}

{% for e in entries %}- {{ e.description }} ({{ e.project.name }})
{% endfor %}`;

describe.skipIf(!hasChromium)('public viewer in Chromium', () => {
  let t: TestContext | undefined;
  let browser: Browser | undefined;
  let base: string;
  let owner: TestUser;
  let openToken: string;
  let lockedToken: string;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await newUser(t, { name: '<img src=x onerror="window.__pwned=1">' });
    const workspace = await newWorkspace(t, owner, '<script>window.__pwned=1</script>');
    const project = await newProject(t, workspace.id, owner.token, '<svg onload="window.__pwned=1">');
    for (const [i, description] of PAYLOADS.entries()) {
      const res = await t.post(
        '/api/v1/time-entries',
        {
          workspaceId: workspace.id,
          projectId: project.id,
          start: `2026-11-0${1 + (i % 9)}T10:00:00Z`,
          minutes: 15,
          description,
          tags: [description.slice(0, 50)],
        },
        owner.token,
      );
      if (res.status !== 201) throw new Error(`entry failed: ${res.status} ${res.text}`);
    }
    const templateId = await newTemplate(t, RAW_TEMPLATE);
    const report = await newReport(t, owner, [workspace.id], {
      name: 'Hostile <script>window.__pwned=1</script>',
      templateId,
      note: PAYLOADS.join('\n\n'),
    });
    openToken = (await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token)).body.token;
    lockedToken = (await t.post(`/api/v1/reports/${report.id}/shares`, { passcode: 'let me in' }, owner.token)).body.token;

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await releaseBrowser(browser);
    await t?.close();
  });

  /** The answer to the passcode form's POST (the page it navigates to). */
  const isUnlock = (response: Response): boolean => response.request().method() === 'POST' && response.url().startsWith(`${base}/share/`);

  /** A fresh page that records dialogs, console messages and every request it makes. */
  async function watchedPage(): Promise<{ page: Page; dialogs: string[]; console: string[]; requests: string[] }> {
    if (!browser) throw new Error('no browser');
    const page = await browser.newPage();
    const seen = { page, dialogs: [] as string[], console: [] as string[], requests: [] as string[] };
    page.on('dialog', (dialog) => {
      seen.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('console', (message) => seen.console.push(message.text()));
    page.on('request', (request) => seen.requests.push(request.url()));
    return seen;
  }

  it('renders hostile content as text: no script, no dialog, no foreign request', async () => {
    const { page, dialogs, console, requests } = await watchedPage();
    const response = await page.goto(`${base}/share/${openToken}`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    // Chromium asks for Brotli, and gets the page's kept compressed copy.
    expect(response?.headers()['content-encoding']).toBe('br');
    await page.waitForLoadState('load');
    await page.waitForTimeout(300);

    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(dialogs).toEqual([]);
    expect(requests.filter((url) => new URL(url).origin !== base)).toEqual([]);
    expect(await page.locator('script, img, svg, iframe, link, form, base, object, embed').count()).toBe(0);
    expect(await page.locator('[style]').count()).toBe(0);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(await page.textContent('h1')).toBe('Hostile <script>window.__pwned=1</script>');
    expect(await page.textContent('main')).toContain('<img src=x onerror="window.__pwned=1;alert(1)">');

    // The one stylesheet is allowed by its hash and applies; the CSP had nothing to refuse.
    expect(await page.evaluate('getComputedStyle(document.body).maxWidth')).toBe('1600px');
    expect(console.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
    await page.close();
  });

  it('unlocks a passcode link by typing: wrong, then right', async () => {
    const { page, dialogs, console, requests } = await watchedPage();
    const prompt = await page.goto(`${base}/share/${lockedToken}`);
    expect(prompt?.status()).toBe(200);
    expect(await page.textContent('h1')).toBe('This report is protected');

    await page.fill('#passcode', 'not the passcode');
    const [wrong] = await Promise.all([page.waitForResponse(isUnlock), page.click('button[type="submit"]')]);
    await page.waitForLoadState();
    expect(wrong.status()).toBe(401);
    expect(await page.textContent('#passcode-error')).toContain('not right');
    expect(await page.getAttribute('#passcode', 'aria-invalid')).toBe('true');

    await page.fill('#passcode', 'let me in');
    const [right] = await Promise.all([page.waitForResponse(isUnlock), page.click('button[type="submit"]')]);
    await page.waitForLoadState();
    expect(right.status()).toBe(200);
    expect(right.request().method()).toBe('POST');
    // The unlocked page, with a download grant of its own, is compressed for this answer alone.
    expect(right.headers()['content-encoding']).toBe('br');
    expect(await page.textContent('h1')).toBe('Hostile <script>window.__pwned=1</script>');

    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(dialogs).toEqual([]);
    expect(requests.filter((url) => new URL(url).origin !== base)).toEqual([]);
    expect(console.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
    await page.close();
  });

  it('shows the not-found page for a dead link', async () => {
    const { page } = await watchedPage();
    const response = await page.goto(`${base}/share/AAAAAAAAAAAAAAAAAAAAAA`);
    expect(response?.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('This link is not available');
    expect(await page.evaluate('getComputedStyle(document.body).maxWidth')).toBe('1600px');
    await page.close();
  });
});

/** A realistic timesheet: two people, a week, projects and tags, descriptions of everyday length. */
const WEEK = [
  ['2026-11-02T08:30:00Z', 'Sprint planning with the product team', ['planning']],
  ['2026-11-02T13:00:00Z', 'Invoice export: rounding of partial hours', ['billing', 'bug']],
  ['2026-11-03T09:15:00Z', 'Customer call about the renewal terms', ['sales']],
  ['2026-11-04T07:45:00Z', 'Code review of the new import pipeline', ['review']],
  ['2026-11-05T10:00:00Z', 'Quarterly report: charts and summary table', ['reporting']],
  ['2026-11-06T14:30:00Z', 'Onboarding session for two new colleagues', ['team']],
] as const;

/** The timesheet's own table; the chart above it has a table of its own, folded in its figure. */
const BODY_TABLE = '.document > .table-wrap';

describe.skipIf(!hasChromium)('public share page layout in Chromium', () => {
  let t: TestContext | undefined;
  let browser: Browser | undefined;
  let url: string;
  // Written only by `npm run docs:screenshots` (SCREENSHOTS_DIR): the suite writes no tracked file.
  const SCREENSHOTS = process.env.SCREENSHOTS_DIR ?? null;

  beforeAll(async () => {
    t = await buildTestApp();
    const owner = await newUser(t, { name: 'Olive Owner' });
    const mate = await newUser(t, { name: 'Mia Mate' });
    const workspace = await newWorkspace(t, owner, 'Northwind Studio');
    await addMember(t, workspace.id, mate, 'member', owner.token);
    const projects = [
      await newProject(t, workspace.id, owner.token, 'Client portal'),
      await newProject(t, workspace.id, owner.token, 'Operations'),
    ];
    for (const project of projects) await addProjectMember(t, project.id, mate.id, owner.token);
    for (const [i, [start, description, tags]] of WEEK.entries()) {
      const user = i % 2 === 0 ? owner : mate;
      const res = await t.post(
        '/api/v1/time-entries',
        { workspaceId: workspace.id, projectId: projects[i % 2]!.id, start, minutes: 45 + i * 20, description, tags: [...tags] },
        user.token,
      );
      if (res.status !== 201) throw new Error(`entry failed: ${res.status} ${res.text}`);
    }
    const report = await newReport(t, owner, [workspace.id], {
      name: 'Northwind timesheet, November',
      note: 'Hours for the first week of the portal project.',
      filters: { userIds: [owner.id, mate.id] },
    });
    const token = (await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token)).body.token as string;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/share/${token}`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await releaseBrowser(browser);
    await t?.close();
  });

  async function open(width: number, options: { dark?: boolean; print?: boolean } = {}): Promise<Page> {
    if (!browser) throw new Error('no browser');
    const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: options.dark ? 'dark' : 'light' });
    if (options.print) await page.emulateMedia({ media: 'print' });
    expect((await page.goto(url))?.status()).toBe(200);
    return page;
  }

  /** Cells whose text takes more than one line, as "text (lines)". */
  const WRAPPED_CELLS = `[...document.querySelectorAll('th, td')].flatMap((cell) => {
    const style = getComputedStyle(cell);
    const inner = cell.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    const range = document.createRange();
    range.selectNodeContents(cell);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    return lines > 1 || inner > parseFloat(style.lineHeight) * 1.5 ? [cell.textContent + ' (' + lines + ')'] : [];
  })`;

  it.each([320, 390])('fits %i px: only the table scrolls, inside its own container, with a shadow hinting at it', async (width) => {
    const page = await open(width);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    const wrap = await page.evaluate(`(() => {
      const w = document.querySelector('${BODY_TABLE}');
      const s = getComputedStyle(w);
      return { scrolls: w.scrollWidth > w.clientWidth, overflow: s.overflowX, attachment: s.backgroundAttachment };
    })()`);
    expect(wrap).toEqual({ scrolls: true, overflow: 'auto', attachment: 'local, local, scroll, scroll' });
    // Header cells keep their words whole.
    const headers = await page.evaluate(
      `[...document.querySelectorAll('th')].filter((th) => th.scrollWidth > th.clientWidth || th.clientHeight > 2 * parseFloat(getComputedStyle(th).lineHeight)).map((th) => th.textContent)`,
    );
    expect(headers).toEqual([]);
    if (SCREENSHOTS && width === 390) await page.screenshot({ path: `${SCREENSHOTS}/share-page-phone.png`, fullPage: true });
    await page.close();
  });

  it('uses a wide screen: the table needs no scrolling and no cell wraps; totals stand out', async () => {
    const page = await open(1440);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    expect(
      await page.evaluate(`(() => { const w = document.querySelector('${BODY_TABLE}'); return w.scrollWidth <= w.clientWidth; })()`),
    ).toBe(true);
    expect(await page.evaluate(WRAPPED_CELLS)).toEqual([]);
    expect(await page.locator('th', { hasText: 'Person' }).count()).toBe(1);
    const [plain, total, grand] = await page.evaluate<string[]>(
      `['tbody tr:not(.total)', 'tr.total:not(.grand-total)', 'tr.grand-total'].map((s) => getComputedStyle(document.querySelector('${BODY_TABLE} ' + s)).backgroundColor)`,
    );
    expect(new Set([plain, total, grand]).size).toBe(3);
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/share-page-wide.png`, fullPage: true });
    await page.close();
  });

  /** The timesheet's chart as the browser shows it: the one of its two drawings that is shown. */
  const CHART = `(() => {
    const shown = [...document.querySelectorAll('figure.chart svg')].filter((s) => s.getBoundingClientRect().width > 0);
    const svg = shown[0];
    const box = svg.getBoundingClientRect();
    const text = svg.querySelector('text');
    const holder = svg.parentElement;
    return {
      shown: shown.map((s) => s.getAttribute('class')),
      width: Math.round(box.width),
      column: Math.round(holder.clientWidth),
      scrolls: holder.scrollWidth > holder.clientWidth,
      height: Math.round(box.height),
      title: svg.querySelector('title').textContent,
      legend: [...svg.querySelectorAll('g > text')].slice(0, 2).map((t) => t.textContent),
      columns: svg.querySelectorAll('rect.chart-s1, rect.chart-s2').length - 2,
      billable: getComputedStyle(svg.querySelector('rect.chart-s1')).fill,
      notBillable: getComputedStyle(svg.querySelector('rect.chart-s2')).fill,
      hatch: getComputedStyle(svg.querySelector('pattern path')).stroke,
      textPx: Math.round(parseFloat(getComputedStyle(text).fontSize) * box.width / svg.viewBox.baseVal.width * 10) / 10,
      styled: document.querySelectorAll('[style]').length,
      data: getComputedStyle(document.querySelector('figure.chart details')).display,
    };
  })()`;

  it.each([320, 390, 1440])(
    'draws the timesheet’s chart at %i px, legible, with its data a click away, and nothing for the CSP to refuse',
    async (width) => {
      if (!browser) throw new Error('no browser');
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const messages: string[] = [];
      page.on('console', (message) => messages.push(message.text()));
      expect((await page.goto(url))?.status()).toBe(200);
      const chart = await page.evaluate<Record<string, unknown>>(CHART);
      if (SCREENSHOTS) await page.locator('figure.chart').screenshot({ path: `${SCREENSHOTS}/share-page-chart-${width}.png` });
      expect(chart).toMatchObject({
        title: 'Hours by day',
        legend: ['Billable', 'Not billable'],
        columns: 5,
        billable: 'rgb(31, 95, 191)',
        hatch: 'rgb(107, 111, 120)',
        styled: 0,
        data: 'block',
      });
      // A phone shows the narrow drawing, filling the column; a wide screen the wide one, at its size.
      expect(chart.shown).toEqual([width < 600 ? 'chart-svg chart-narrow' : 'chart-svg chart-wide']);
      expect(String(chart.notBillable)).toMatch(
        width < 600 ? /^url\("#chart-hatch-[a-z0-9]+-1-n"\)$/ : /^url\("#chart-hatch-[a-z0-9]+-1"\)$/,
      );
      if (width < 600) expect(chart.width).toBe(chart.column);
      else expect(chart.width).toBeGreaterThanOrEqual(640);
      expect(chart.scrolls).toBe(false);
      expect(chart.textPx).toBeGreaterThanOrEqual(width < 600 ? 9.5 : 12);
      // Neither the page nor the chart scrolls sideways.
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await page.click('figure.chart summary');
      expect(await page.locator('figure.chart table tbody tr').count()).toBe(31);
      expect(await page.locator('figure.chart td', { hasText: '2026-11-02' }).isVisible()).toBe(true);
      // The page with the chart and its opened data table, as axe-core reads it.
      expect(await axeViolations(page)).toEqual([]);
      expect(messages.filter((text) => /Content Security Policy|Refused/i.test(text))).toEqual([]);
      await page.close();
    },
  );

  it('follows the dark scheme and prints the chart in greys, its data table left out', async () => {
    const dark = await open(1440, { dark: true });
    expect(await dark.evaluate<Record<string, unknown>>(CHART)).toMatchObject({
      billable: 'rgb(140, 180, 255)',
      hatch: 'rgb(168, 174, 184)',
    });
    // The light page passed every rule; in the dark scheme only colours change.
    expect(await axeViolations(dark, COLOUR_RULES)).toEqual([]);
    await dark.close();
    const print = await open(700, { print: true });
    expect(await print.evaluate<Record<string, unknown>>(CHART)).toMatchObject({
      billable: 'rgb(85, 85, 85)',
      hatch: 'rgb(0, 0, 0)',
      data: 'none',
    });
    await print.close();
  });

  it('prints without chrome or scrolling, the table within the page', async () => {
    const page = await open(700, { print: true });
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    expect(await page.evaluate(`getComputedStyle(document.querySelector('.site-header')).display`)).toBe('none');
    expect(await page.evaluate(`getComputedStyle(document.querySelector('.site-footer')).display`)).toBe('none');
    expect(await page.evaluate(`getComputedStyle(document.querySelector('${BODY_TABLE}')).overflowX`)).toBe('visible');
    expect(
      await page.evaluate(`(() => { const w = document.querySelector('${BODY_TABLE}'); return w.scrollWidth <= w.clientWidth; })()`),
    ).toBe(true);
    expect(await page.evaluate(`getComputedStyle(document.querySelector('${BODY_TABLE} tbody tr')).breakInside`)).toBe('avoid');
    await page.close();
  });
});
