/**
 * The web app's report screens in Chromium (docs/web.md "The report page"): editing a report that
 * includes a teammate, documents that never break inside a token and never make the page scroll
 * sideways (320, 390 and 1440 px), the page's sections and what a send refreshes, and a comparison
 * of two versions with an added row marked. Every screen is checked with axe-core (no serious or
 * critical violation); screenshots only when SCREENSHOTS_DIR is set. Waits poll for what a user
 * would see, never the clock; browser-side code is passed to page.evaluate as strings.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkScreen,
  hasChromium,
  launchBrowser,
  releaseBrowser,
  screen,
  setPassword,
  signIn,
  STEP_TIMEOUT,
  until,
} from '../helpers/browser.js';
import { addMember, addProjectMember, newProject, newWorkspace } from '../helpers/factories.js';
import { builtInTemplateId, editReport, newReport, newTemplate } from '../helpers/report-factories.js';
import { freePort } from '../helpers/server-process.js';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

/**
 * Every document table cell on the page whose content box is narrower than its longest token (a
 * run of non-space characters), measured on the rendered text with a Range: the widths of a
 * token's line boxes add up to its whole width, so a token broken over two lines does not fit.
 * The cell's box is its border box less padding and borders; collapsed borders are shared, so a
 * pixel and a half of slack (a broken token misses by a glyph or more).
 * Also the page's own horizontal overflow, and how many cells were measured.
 */
const MEASURE_DOCUMENT_CELLS = `(() => {
  const narrow = [];
  const cells = [...document.querySelectorAll('.document th, .document td')];
  for (const cell of cells) {
    const style = getComputedStyle(cell);
    const box = cell.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      - parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth);
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const width = [...range.getClientRects()].reduce((sum, r) => sum + r.width, 0);
        if (width > box + 1.5) narrow.push({ token: match[0], width: Math.round(width), cell: Math.round(box) });
      }
    }
  }
  // What sticks out of the window, outermost first, to name the culprit when the page scrolls.
  const wide = [...document.body.querySelectorAll('*')]
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.parentElement.closest('.table-wrap, pre'))
    .map((el) => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : ''));
  return { cells: cells.length, narrow, wide, scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth };
})()`;

interface CellMeasure {
  cells: number;
  narrow: { token: string; width: number; cell: number }[];
  wide: string[];
  scrollWidth: number;
  innerWidth: number;
}

describe.skipIf(!hasChromium)('report screens in Chromium', () => {
  let t: TestContext;
  let browser: Browser;
  let base: string;
  let owner: TestUser;
  let teammate: TestUser;
  let workspaceId: string;
  let projectId: string;
  let context: BrowserContext;
  let page: Page;
  let reportId: string;
  const cspErrors: string[] = [];

  async function newContext(width: number): Promise<BrowserContext> {
    const made = await browser.newContext({ viewport: { width, height: 900 } });
    made.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) cspErrors.push(message.text());
    });
    return made;
  }

  async function entry(user: TestUser, start: string, minutes: number, description: string): Promise<void> {
    const res = await t.post('/api/v1/time-entries', { workspaceId, projectId, start, minutes, description, tags: ['design'] }, user.token);
    expect(res.status, res.text).toBe(201);
  }

  const heading = () => page.getByRole('heading', { level: 1 });

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await buildTestApp({ config: { publicBaseUrl: base } });
    await t.app.listen({ port, host: '127.0.0.1' });
    owner = await newUser(t, { name: 'Olivia Owner' });
    teammate = await newUser(t, { name: 'Tomás Teammate' });
    workspaceId = (await newWorkspace(t, owner, 'Acme')).id;
    await addMember(t, workspaceId, teammate, 'member', owner.token);
    projectId = (await newProject(t, workspaceId, owner.token, 'Website')).id;
    await addProjectMember(t, projectId, teammate.id, owner.token);
    await entry(owner, '2026-11-10T09:00:00Z', 120, 'Wireframes');
    await entry(owner, '2026-11-11T09:00:00Z', 90, 'Copy review');
    await entry(teammate, '2026-11-11T13:30:00Z', 60, 'Pairing on the checkout');
    await setPassword(t, base, owner.id);
    browser = await launchBrowser();
  }, STEP_TIMEOUT);

  afterAll(async () => {
    // Either may be missing when start-up failed part way.
    await releaseBrowser(browser);
    await (t as TestContext | undefined)?.close();
  });

  it(
    'creates a report that includes a teammate and edits it',
    async () => {
      context = await newContext(1280);
      page = await context.newPage();
      await signIn(page, base, owner.email);

      await page.goto(`${base}/app/reports/new`);
      const form = page.getByRole('form', { name: 'New report' });
      await form.getByLabel('Template').selectOption({ label: 'Timesheet' });
      await form.getByLabel('Period').selectOption({ label: 'Dates…' });
      await form.getByLabel('From').fill('2026-11-01');
      await form.getByLabel('To (inclusive)').fill('2026-11-30');
      await form.getByLabel('Tomás Teammate').check();
      const preview = page.getByRole('region', { name: 'Preview' });
      await until(() => preview.textContent()).toContain('Pairing on the checkout');
      await form.getByLabel('Name', { exact: true }).fill('November timesheet');
      await form.getByRole('button', { name: 'Create report' }).click();
      await until(() => heading().textContent()).toBe('November timesheet v1');
      reportId = new URL(page.url()).pathname.split('/').at(-1) ?? '';

      // The edit form starts from the saved filters, teammate ticked; its preview and save both work.
      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      const edit = page.getByRole('form', { name: 'Edit report' });
      await until(() => edit.getByLabel('Tomás Teammate').isChecked()).toBe(true);
      await edit.getByLabel('Note (optional, Markdown)').fill('Both of us, checked.');
      const editPreview = page.getByRole('region', { name: 'Preview' });
      await until(() => editPreview.textContent()).toContain('Both of us, checked.');
      expect(await editPreview.getByRole('alert').count()).toBe(0);
      expect(await editPreview.textContent()).toContain('Pairing on the checkout');
      await screen(page, 'report-edit-teammate');
      await edit.getByRole('button', { name: 'Save as a new version' }).click();
      await until(() => heading().textContent()).toBe('November timesheet v2');
      const stored = await t.get(`/api/v1/reports/${reportId}`, owner.token);
      expect(stored.body.filters.userIds).toEqual([owner.id, teammate.id]);
      expect(await page.getByRole('region', { name: 'Document' }).textContent()).toContain('Pairing on the checkout');
    },
    STEP_TIMEOUT,
  );

  it(
    'keeps a template chosen the moment the list arrives, however late the page finishes its work',
    async () => {
      // React runs its deferred work in MessageChannel tasks. Held back, they leave a window in
      // which the list is on screen and a choice can be made before the form's own follow-up work
      // has run; a busy machine opens the same window at random.
      const slow = await newContext(1280);
      await slow.addCookies(await context.cookies());
      await slow.addInitScript(`(() => {
        const post = MessagePort.prototype.postMessage;
        MessagePort.prototype.postMessage = function (...args) { setTimeout(() => post.apply(this, args), 400); };
      })()`);
      const view = await slow.newPage();
      await view.goto(`${base}/app/reports/new`);
      const form = view.getByRole('form', { name: 'New report' });
      const template = form.getByLabel('Template');
      await template.selectOption({ label: 'Timesheet' });
      await form.getByLabel('Period').selectOption({ label: 'Dates…' });
      await form.getByLabel('From').fill('2026-11-01');
      await form.getByLabel('To (inclusive)').fill('2026-11-30');
      // The Timesheet alone lists the entries' descriptions.
      const preview = view.getByRole('region', { name: 'Preview' });
      await until(() => preview.textContent()).toContain('Copy review');
      // Timesheet is not the default, so the form had something to overrule.
      expect(await template.locator('option').first().textContent()).not.toBe('Timesheet');
      expect(await template.locator('option:checked').textContent()).toBe('Timesheet');
      await slow.close();
    },
    STEP_TIMEOUT,
  );

  it(
    'shows a Timesheet version with no token broken and no sideways page scroll at 320, 390 and 1440 px',
    async () => {
      for (const width of [320, 390, 1440]) {
        const sized = await newContext(width);
        await sized.addCookies(await context.cookies());
        const view = await sized.newPage();
        for (const path of [`/reports/${reportId}`, `/reports/${reportId}/edit`]) {
          await view.goto(`${base}/app${path}`);
          // The timesheet's own table; the chart's data table above it is folded in its figure.
          const table = view.locator('.document .markdown > .table-wrap table');
          await until(() => table.count()).toBe(1);
          await until(() => view.locator('.document').first().textContent()).toContain('Pairing on the checkout');
          const measured = await view.evaluate<CellMeasure>(MEASURE_DOCUMENT_CELLS);
          expect(measured.cells, `${path} at ${width}px`).toBeGreaterThan(20);
          expect(measured.narrow, `${path} at ${width}px`).toEqual([]);
          expect(measured.scrollWidth, `${path} at ${width}px: ${measured.wide.join(', ')}`).toBeLessThanOrEqual(measured.innerWidth);
          // The Duration column is there to scroll to, inside the table's own container, which shows the hint.
          const scroll = await view.evaluate<{ fits: boolean; last: string; reachable: boolean; hint: boolean }>(`(() => {
            const wrap = document.querySelector('.document .markdown > .table-wrap');
            const fits = wrap.scrollWidth <= wrap.clientWidth + 1;
            wrap.scrollLeft = wrap.scrollWidth;
            const box = wrap.getBoundingClientRect();
            const th = [...document.querySelectorAll('.document th')].at(-1);
            const r = th.getBoundingClientRect();
            return {
              fits,
              last: th.textContent,
              reachable: r.right <= box.right + 1 && r.left >= box.left - 1,
              hint: getComputedStyle(wrap).backgroundImage.includes('radial-gradient'),
            };
          })()`);
          expect(scroll, `${path} at ${width}px`).toMatchObject({ last: 'Duration', reachable: true, hint: true });
          if (width === 320) expect(scroll.fits).toBe(false);
          if (path.endsWith('/edit'))
            await until(() => view.getByRole('region', { name: 'Preview' }).getAttribute('aria-busy')).toBe('false');
          else {
            // Below 40rem each version is a block: its number and Show button, then when it was rendered, under them.
            const row = view.locator('table.versions tbody tr').first();
            await until(() => row.count()).toBe(1);
            // Both boxes in one snapshot: the page above may still grow between two separate reads.
            const { version, rendered } = await view.evaluate<{
              version: { y: number; height: number };
              rendered: { y: number; height: number };
            }>(`(() => {
              const row = document.querySelector('table.versions tbody tr');
              const box = (el) => { const r = el.getBoundingClientRect(); return { y: r.y, height: r.height }; };
              return { version: box(row.querySelector('td.version')), rendered: box(row.querySelector('td[data-label="Rendered"]')) };
            })()`);
            if (width <= 390) expect(rendered.y, `versions at ${width}px`).toBeGreaterThanOrEqual(version.y + version.height);
            else expect(rendered.y, `versions at ${width}px`).toBeLessThan(version.y + version.height);
            expect(await view.getByRole('region', { name: 'Version list' }).getByRole('columnheader').count()).toBe(6);
          }
          await screen(view, `report-${path.endsWith('/edit') ? 'edit' : 'page'}-${width}`);
        }
        await sized.close();
      }
    },
    STEP_TIMEOUT * 2,
  );

  it(
    'leads to each section of the report page, and a send refreshes what it changes',
    async () => {
      await page.goto(`${base}/app/reports/${reportId}`);
      await until(() => heading().textContent()).toBe('November timesheet v2');
      const nav = page.getByRole('navigation', { name: 'On this page' });
      expect(await nav.getByRole('link').allTextContents()).toEqual([
        'Document',
        'Send',
        'Schedule',
        'Sent',
        'Versions',
        'Public links',
        'Discussion',
      ]);
      const discussion = page.getByRole('region', { name: 'Discussion' });
      await until(() => discussion.textContent()).toContain('This version has not been sent yet');
      await nav.getByRole('link', { name: 'Discussion' }).click();
      expect(new URL(page.url()).hash).toBe('#discussion');
      await until(() =>
        page.evaluate(`window.scrollY > 0 && document.getElementById('discussion').getBoundingClientRect().top < window.innerHeight`),
      ).toBe(true);
      const sent = page.getByRole('region', { name: 'Sent' });
      expect(await sent.textContent()).toContain('Not sent yet.');
      await screen(page, 'report-sections');

      const send = page.getByRole('region', { name: 'Send version 2' });
      await send.getByLabel('Tomás Teammate').check();
      await send.getByRole('button', { name: 'Send to 1' }).click();
      await until(() => send.getByRole('status').textContent()).toBe('Sent version 2 to 1 teammate.');
      // No reload: the discussion opens, the history lists the send, the version shows as sent.
      await until(() => discussion.textContent()).not.toContain('has not been sent yet');
      expect(await discussion.textContent()).toContain('No comments yet.');
      await until(() => sent.textContent()).toContain('Read by 0 of 1');
      const versionRow = page.getByRole('region', { name: 'Versions', exact: true }).getByRole('row').nth(1);
      await until(() => versionRow.textContent()).toMatch(/^2.*Sent/);
      await screen(page, 'report-after-send');
    },
    STEP_TIMEOUT,
  );

  it(
    'downloads the version as PDF, Excel, CSV and Markdown from the report page',
    async () => {
      await page.goto(`${base}/app/reports/${reportId}`);
      await until(() => heading().textContent()).toBe('November timesheet v2');
      const files = page.getByRole('navigation', { name: 'Download version 2' });
      const labels = await files.getByRole('link').allTextContents();
      expect(labels.map((label) => label.split(' of version')[0]?.trim())).toEqual(['PDF', 'Excel', 'CSV', 'Markdown']);
      const [pdf] = await Promise.all([page.waitForEvent('download'), files.getByRole('link', { name: /^PDF/ }).click()]);
      expect(pdf.suggestedFilename()).toBe('November timesheet 2026-11-01–2026-11-30 v2.pdf');
      const path = await pdf.path();
      expect(readFileSync(path).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const [csv] = await Promise.all([page.waitForEvent('download'), files.getByRole('link', { name: /^CSV/ }).click()]);
      expect(readFileSync(await csv.path(), 'utf8')).toContain('Pairing on the checkout');
      await screen(page, 'report-downloads');
    },
    STEP_TIMEOUT,
  );

  it(
    'compares two versions on the rendered document, an added row marked, the line diff a download',
    async () => {
      await entry(owner, '2026-11-12T10:15:00Z', 45, 'Accessibility audit');
      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      const edit = page.getByRole('form', { name: 'Edit report' });
      await until(() => page.getByRole('region', { name: 'Preview' }).textContent()).toContain('Accessibility audit');
      await edit.getByRole('button', { name: 'Save as a new version' }).click();
      await until(() => heading().textContent()).toBe('November timesheet v3');

      const versions = page.getByRole('region', { name: 'Versions', exact: true });
      await versions.getByRole('button', { name: 'Show changes' }).click();
      const changes = page.getByRole('region', { name: 'Changes from version 2 to version 3' });
      await until(() => changes.count()).toBe(1);
      expect(await changes.getByRole('listitem').first().textContent()).toBe('Total: 4:30 → 5:15 (+0:45)');

      const added = changes.locator('.document tr.change.added');
      await until(() => added.count()).toBeGreaterThan(0);
      const row = added.filter({ hasText: 'Accessibility audit' });
      expect(await row.count()).toBe(1);
      expect(await row.locator('td').first().textContent()).toMatch(/^\+Added: 2026-11-12/);
      const shades = await page.evaluate<{ added: string; same: string }>(`(() => {
        const rows = [...document.querySelectorAll('.compared tbody tr')];
        const shade = (text) => getComputedStyle(rows.find((tr) => tr.textContent.includes(text)).cells[2]).backgroundColor;
        return { added: shade('Accessibility audit'), same: shade('Wireframes') };
      })()`);
      expect(shades.added).not.toBe(shades.same);
      // The grand total changed: its earlier row struck through, the new one after it.
      expect(await changes.locator('.document tr.change.before').filter({ hasText: 'Changed, before: Total' }).count()).toBe(1);
      expect(await changes.locator('.document tr.change.after').filter({ hasText: 'Changed, now: Total' }).count()).toBe(1);
      expect(await changes.locator('.document tr.change').filter({ hasText: 'Wireframes' }).count()).toBe(0);
      // Inert: a comparison renders through the safe renderer, never raw HTML.
      expect(await changes.locator('.document script').count()).toBe(0);
      await screen(page, 'report-compare');

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        changes.getByRole('link', { name: 'Download the line changes (unified diff)' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('changes-v2-v3.diff');
      const text = readFileSync(await download.path(), 'utf8');
      expect(text).toMatch(/^\+\| 2026-11-12 \|.*Accessibility audit/m);
    },
    STEP_TIMEOUT,
  );

  it(
    'shows the edit form once its template list is there, so a save made the moment it appears is kept',
    async () => {
      // The template list held back: a form shown without it has a required choice with no option,
      // and a save at that moment was refused without a word (a busy machine did it at random).
      const held = await newContext(1280);
      await held.addCookies(await context.cookies());
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let listAsked = () => {};
      const asked = new Promise<void>((resolve) => {
        listAsked = resolve;
      });
      await held.route('**/api/v1/templates*', async (route) => {
        listAsked();
        await released;
        await route.continue();
      });
      const view = await held.newPage();
      const reportRead = view.waitForResponse((res) => new URL(res.url()).pathname === `/api/v1/reports/${reportId}`);
      await view.goto(`${base}/app/reports/${reportId}/edit`);
      expect((await reportRead).status()).toBe(200);
      await asked;
      await until(() => view.getByRole('status').first().textContent()).toBe('Loading the report…');
      expect(await view.getByRole('form', { name: 'Edit report' }).count()).toBe(0);

      release();
      const edit = view.getByRole('form', { name: 'Edit report' });
      await edit.getByLabel('Note (optional, Markdown)').fill('Saved the moment the form appeared.');
      await edit.getByRole('button', { name: 'Save as a new version' }).click();
      await until(() => view.getByRole('heading', { level: 1 }).textContent()).toBe('November timesheet v4');
      await held.close();
    },
    STEP_TIMEOUT,
  );

  it(
    "asks for another template when the report's own has been disabled, and saves with the one chosen",
    async () => {
      const retired = await newTemplate(t, '# {{ report.name | md }}\n\nThe old layout.\n');
      const report = await newReport(t, owner, [workspaceId], { name: 'Old layout report', templateId: retired });
      expect((await t.patch(`/api/v1/templates/${retired}`, { enabled: false })).status).toBe(200);

      await page.goto(`${base}/app/reports/${report.id}/edit`);
      const edit = page.getByRole('form', { name: 'Edit report' });
      const template = edit.getByLabel('Template');
      // None chosen, and the field says why, tied to the control.
      await until(() => template.locator('option:checked').textContent()).toBe('Choose a template');
      const why = 'The template this report was made with has been disabled: choose another.';
      expect(await edit.locator('.field-error').textContent()).toBe(why);
      expect(await template.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByRole('region', { name: 'Preview' }).getByRole('status').textContent()).toBe('Choose a template.');
      await checkScreen(page, 'report-edit-template-disabled');
      // Saving as it is stays here, on the template's field.
      await edit.getByRole('button', { name: 'Save as a new version' }).click();
      await until(() => page.evaluate('document.activeElement?.id')).toBe(await template.getAttribute('id'));
      expect(await heading().textContent()).toBe('Edit report');

      await template.selectOption({ label: 'Timesheet' });
      expect(await edit.locator('.field-error').count()).toBe(0);
      await edit.getByRole('button', { name: 'Save as a new version' }).click();
      await until(() => heading().textContent()).toBe('Old layout report v2');
      const stored = await t.get(`/api/v1/reports/${report.id}`, owner.token);
      expect(stored.body.templateId).toBe(await builtInTemplateId(t));
    },
    STEP_TIMEOUT,
  );

  it(
    'shows a long history a page at a time, the older versions on request, and compares across pages',
    async () => {
      let report = await newReport(t, owner, [workspaceId], { name: 'Weekly hours' });
      for (let i = 2; i <= 62; i++) report = await editReport(t, owner, report, { name: `Weekly hours ${i}` });

      await page.goto(`${base}/app/reports/${report.id}`);
      const versions = page.getByRole('region', { name: 'Versions', exact: true });
      const rows = page.getByRole('region', { name: 'Version list' }).locator('tbody tr');
      // The newest 60, then the two oldest on request.
      await until(() => rows.count()).toBe(60);
      expect(await rows.first().locator('td.version').textContent()).toBe('62');
      const older = versions.getByRole('button', { name: 'Show older versions (2 more)' });
      await checkScreen(page, 'report-versions-more', { around: older });
      await older.click();
      await until(() => rows.count()).toBe(62);
      expect(await rows.locator('td.version').allTextContents()).toEqual(Array.from({ length: 62 }, (_, i) => String(62 - i)));
      expect(await versions.getByRole('button', { name: /^Show older versions/ }).count()).toBe(0);

      // The first version, read with the older page, can be compared with the newest.
      await versions.getByRole('combobox', { name: 'Compare', exact: true }).selectOption({ label: 'Version 1' });
      await versions.getByRole('button', { name: 'Show changes' }).click();
      await until(() => page.getByRole('region', { name: 'Changes from version 1 to version 62' }).count()).toBe(1);
    },
    STEP_TIMEOUT,
  );

  it('broke no Content-Security-Policy rule on any page', () => {
    expect(cspErrors).toEqual([]);
  });
});
