/**
 * An Invoice summary as a client receives it: a month of two people's time in two workspaces and
 * two currencies, two rates with one changing mid-month, rounded up to a quarter hour, on the
 * public share page in Chromium (its tables and totals as a reader sees them, axe in light and
 * dark, no sideways scroll at 320, 390 and 1440 px, its charts drawn for the width; in English and
 * German, and on a 390 px phone in French, Spanish, Japanese and Korean; pictures with
 * SCREENSHOTS_DIR).
 */
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firm } from '../helpers/billing-factories.js';
import { checkScreen, hasChromium, launchBrowser, newPage, releaseBrowser, STEP_TIMEOUT } from '../helpers/browser.js';
import { builtInTemplateId } from '../helpers/report-factories.js';
import { buildTestApp, type TestContext } from '../helpers/test-app.js';

describe.skipIf(!hasChromium)('an Invoice summary on its share page', () => {
  let t: TestContext;
  let browser: Browser;
  let base: string;
  let token: string;
  let markdown: string;
  let ownerToken: string;
  let invoice: Record<string, any>;

  beforeAll(async () => {
    t = await buildTestApp();
    const f = await firm(t);
    ownerToken = f.owner.token;
    invoice = {
      name: 'Northwind and Contoso, November 2026',
      templateId: await builtInTemplateId(t, 'Invoice'),
      filters: {
        workspaceIds: [f.acme.id, f.globex.id],
        dateRange: { from: '2026-11-01', to: '2026-11-30' },
        userIds: [f.owner.id, f.bob.id],
      },
      options: { rounding: { mode: 'up', minutes: 15 }, billable: 'billable' },
    };
    const report = await t.post('/api/v1/reports', invoice, f.owner.token);
    expect(report.status).toBe(201);
    markdown = report.body.renderedMarkdown as string;
    const share = await t.post(`/api/v1/reports/${report.body.id as string}/shares`, {}, f.owner.token);
    expect(share.status).toBe(201);
    token = share.body.token as string;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  }, STEP_TIMEOUT);

  afterAll(async () => {
    await releaseBrowser(browser);
    await t.close();
  });

  /** How far each of the document's tables is wider than its box, in px (0: it fits), in order. */
  const OVERFLOW = `[...document.querySelectorAll('.document > .table-wrap')].map((w) => w.scrollWidth - w.clientWidth)`;

  /** The invoice rendered in `locale`, shared, and its page open at `width` (close the context when done). */
  async function openIn(locale: string, width: number) {
    const report = await t.post('/api/v1/reports', { ...invoice, options: { ...invoice.options, locale } }, ownerToken);
    expect(report.status).toBe(201);
    const share = await t.post(`/api/v1/reports/${report.body.id as string}/shares`, {}, ownerToken);
    const cspErrors: string[] = [];
    const opened = await newPage(browser, cspErrors, { width });
    expect((await opened.page.goto(`${base}/share/${share.body.token as string}`))?.status()).toBe(200);
    expect(await opened.page.getAttribute('html', 'lang')).toBe(locale);
    return { ...opened, cspErrors };
  }

  it(
    'shows each client’s lines and totals, the total due per currency, and fits every width',
    async () => {
      const cspErrors: string[] = [];
      const { context, page } = await newPage(browser, cspErrors, { width: 1440 });
      try {
        const res = await page.goto(`${base}/share/${token}`);
        expect(res?.status()).toBe(200);
        await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Northwind and Contoso, November 2026');
        const rows = async (table: number): Promise<string[]> =>
          page.evaluate(
            `[...document.querySelectorAll('.document > .table-wrap table')[${table}].querySelectorAll('tr')].map((r) => [...r.cells].map((c) => c.textContent.trim()).join(' | '))`,
          );
        const headings = await page.evaluate(
          `[...document.querySelectorAll('.document h1, .document h2, .document h3, .document h4')].map((h) => h.tagName + ' ' + h.textContent.trim())`,
        );
        expect(headings).toEqual(['H3 Northwind', 'H3 Contoso', 'H3 Total']);
        expect(await rows(0)).toEqual([
          'Project | Person | Hours | Rate | Amount',
          'Website | Ada | 2.75 | €100.00/h | €275.00',
          'Website | Ada | 1.25 | €120.00/h | €150.00',
          'Website | Bob | 0.25 | €120.00/h | €30.00',
          'Support | Bob | 0.50 | €80.00/h | €40.00',
          'Total |  | 4.75 |  | €495.00',
        ]);
        expect(await rows(1)).toEqual([
          'Project | Person | Hours | Rate | Amount',
          'Migration | Ada | 0.75 | $150.00/h | $112.50',
          'Total |  | 0.75 |  | $112.50',
        ]);
        expect(await rows(2)).toEqual([
          ' | Hours | Amount',
          'Billable time | 5.50 | ',
          'Total due in EUR |  | €495.00',
          'Total due in USD |  | $112.50',
        ]);
        // Between the clients and the totals, the amounts by client: one chart per currency.
        expect(await page.locator('figure.chart figcaption').allTextContents()).toEqual([
          'Amount by client (EUR)',
          'Amount by client (USD)',
        ]);
        // Each drawn wide and narrow; a wide screen shows the wide drawings.
        const shownCharts = () => page.locator('figure.chart svg[role="img"]').filter({ visible: true });
        expect(await shownCharts().evaluateAll((svgs) => svgs.map((s) => s.getAttribute('class')))).toEqual([
          'chart-svg chart-wide',
          'chart-svg chart-wide',
        ]);
        await checkScreen(page, 'invoice-summary-share');
        // On a phone the client reads each line's amount without scrolling sideways: the tables fit
        // (with Debian's DejaVu Sans, wider than a phone's own font).
        await page.setViewportSize({ width: 390, height: 844 });
        await expect.poll(() => page.evaluate(OVERFLOW), { message: 'tables wider than the page at 390 px' }).toEqual([0, 0, 0]);
        // And each chart is its narrow drawing, the column's width.
        await expect
          .poll(() =>
            shownCharts().evaluateAll((svgs) => svgs.map((s) => [s.getAttribute('class'), s.clientWidth === s.parentElement?.clientWidth])),
          )
          .toEqual([
            ['chart-svg chart-narrow', true],
            ['chart-svg chart-narrow', true],
          ]);
        expect(cspErrors).toEqual([]);
      } finally {
        await context.close();
      }
      // The document as stored, for the record of what the page showed.
      expect(markdown).toContain('**Billable:** 5h 30m · **Amount:** €495.00 / $112.50');
    },
    STEP_TIMEOUT,
  );

  it(
    'is written in German for a German invoice, the page around the document included',
    async () => {
      const { context, page, cspErrors } = await openIn('de', 1440);
      try {
        expect(await page.locator('.provenance dt').allTextContents()).toEqual(['Zeitraum', 'Verantwortlich', 'Erstellt', 'Version']);
        expect(await page.locator('.provenance dd').first().textContent()).toBe('01.11.2026 – 30.11.2026');
        expect((await page.locator('.downloads').textContent())?.trim()).toBe('Herunterladen PDF CSV');
        expect(await page.locator('.document table').first().locator('tr').nth(1).locator('td').allTextContents()).toEqual([
          'Website',
          'Ada',
          '2,75',
          '100,00\u00a0€/h',
          '275,00\u00a0€',
        ]);
        // The document's own words are German too: its headings, columns, sentences and charts.
        expect(await page.locator('.document table').first().locator('th').allTextContents()).toEqual([
          'Projekt',
          'Person',
          'Stunden',
          'Satz',
          'Betrag',
        ]);
        const text = (await page.locator('.document').textContent()) ?? '';
        for (const german of [
          'Gesamt:',
          'Abrechenbare Zeit wird je Eintrag auf volle 15 Minuten aufgerundet.',
          'Betrag pro Kunde (EUR)',
          'Fälliger Gesamtbetrag in USD',
          'Zeit erfasst in',
        ]) {
          expect(text).toContain(german);
        }
        for (const english of ['Total', 'Billable', 'Amount', 'Hours', 'Rate', 'Project', 'Time tracked', 'Data'])
          expect(text).not.toContain(english);
        await checkScreen(page, 'invoice-summary-share-de');
        // German's longer words fit a phone too: no table scrolls sideways at 390 px.
        await page.setViewportSize({ width: 390, height: 844 });
        await expect.poll(() => page.evaluate(OVERFLOW), { message: 'tables wider than the page at 390 px' }).toEqual([0, 0, 0]);
        expect(cspErrors).toEqual([]);
      } finally {
        await context.close();
      }
    },
    STEP_TIMEOUT,
  );

  // A dollar line is wider in French and Spanish ("150,00 $US/h", "150,00 US$/h"): there the
  // Contoso table is 42 and 27 px wider than a 390 px phone and scrolls inside its own box.
  it.each(['fr', 'es', 'ja', 'ko'])(
    'fits a 390 px phone in %s too: the page never scrolls sideways, and the euro lines and the totals fit whole',
    async (locale) => {
      const { context, page, cspErrors } = await openIn(locale, 390);
      try {
        // Northwind's lines (euros) and the totals; Contoso's (dollars) is the second.
        const fits = async () => (await page.evaluate<number[]>(OVERFLOW)).filter((_, i) => i !== 1);
        await expect.poll(fits, { message: `${locale} tables wider than the page at 390 px` }).toEqual([0, 0]);
        expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
        expect(cspErrors).toEqual([]);
      } finally {
        await context.close();
      }
    },
    STEP_TIMEOUT,
  );
});
