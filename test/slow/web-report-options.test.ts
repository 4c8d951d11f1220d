/**
 * The report form's options and client filter in Chromium (docs/web.md "The report form's options"):
 * an owner whose profile locale is English makes an Invoice summary of one client's billable time,
 * rounded up to 15 minutes and printed for de-DE, and sees the amount in German in the live
 * preview; an edit starts from the stored options, turns amounts off, keeps billable entries only
 * and prints decimal hours, and the document then shows no money; the report page states the
 * options in words. A client or project goes with its workspace when that is unticked, and a workspace
 * without clients offers no client filter. What was stored is read through the typed client.
 * Every screen goes through checkScreen (axe-core light and dark; no sideways scroll at 320, 390
 * and 1440 px). Screenshots only with SCREENSHOTS_DIR; waits poll what a user would see.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../packages/client/src/index.js';
import {
  checkScreen,
  hasChromium,
  launchBrowser,
  newPage,
  releaseBrowser,
  setPassword,
  signIn,
  STEP_TIMEOUT,
  until,
} from '../helpers/browser.js';
import { newProject, newWorkspace } from '../helpers/factories.js';
import { freePort } from '../helpers/server-process.js';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

/** The non-breaking space German puts between an amount and its currency sign. */
const NBSP = '\u00a0';

describe.skipIf(!hasChromium)('report options and the client filter in Chromium', () => {
  let t: TestContext;
  let browser: Browser;
  let base: string;
  let owner: TestUser;
  let workspaceId: string;
  let sideId: string;
  let acmeId: string;
  let page: Page;
  let reportId: string;
  const cspErrors: string[] = [];

  const api = () => t.client(owner.token);
  const path = (id: string) => ({ params: { path: { id } } });
  const heading = () => page.getByRole('heading', { level: 1 }).textContent();
  const preview = () => page.getByRole('region', { name: 'Preview' });
  /** The report page's line of options in words (its other meta line is the period and total). */
  const optionsLine = () => page.locator('p.meta').filter({ hasText: /^Rounded/ });
  const previewSettled = () => until(() => preview().getAttribute('aria-busy')).toBe('false');

  /** Studio alone among the workspaces (the form starts with the first one listed). */
  async function chooseStudio(form: Locator): Promise<void> {
    const workspaces = form.getByRole('group', { name: 'Workspaces' });
    await until(() => workspaces.getByRole('checkbox', { checked: true }).count()).toBe(1);
    await workspaces.getByLabel('Studio').check();
    await workspaces.getByLabel('Side projects').uncheck();
  }

  /** A project of the workspace for `clientId`, billable by default. */
  async function billableProject(name: string, clientId: string): Promise<string> {
    const { id } = await newProject(t, workspaceId, owner.token, name);
    await unwrap(api().PATCH('/api/v1/projects/{id}', { ...path(id), body: { clientId, billableByDefault: true } }));
    return id;
  }

  async function entry(projectId: string, start: string, minutes: number, description: string, billable?: boolean): Promise<void> {
    await unwrap(
      api().POST('/api/v1/time-entries', {
        body: { workspaceId, projectId, start, minutes, description, ...(billable === undefined ? {} : { billable }) },
      }),
    );
  }

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await buildTestApp({ config: { publicBaseUrl: base } });
    await t.app.listen({ port, host: '127.0.0.1' });
    owner = await newUser(t, { name: 'Olga Owner', locale: 'en', timezone: 'Europe/Berlin' });
    workspaceId = (await newWorkspace(t, owner, 'Studio')).id;
    sideId = (await newWorkspace(t, owner, 'Side projects')).id;
    acmeId = (await unwrap(api().POST('/api/v1/workspaces/{id}/clients', { ...path(workspaceId), body: { name: 'Acme Corp' } }))).id;
    const globexId = (await unwrap(api().POST('/api/v1/workspaces/{id}/clients', { ...path(workspaceId), body: { name: 'Globex' } }))).id;
    await unwrap(
      api().PUT('/api/v1/workspaces/{id}/rates', {
        ...path(workspaceId),
        body: { hourly: { currency: 'EUR', minor: 10000 }, effectiveFrom: '2026-01-01' },
      }),
    );
    const website = await billableProject('Website', acmeId);
    const intranet = await billableProject('Intranet', globexId);
    // Rounded up to 15 minutes, Acme's billable time is 60 + 90 minutes: 2.50 h at €100.00, €250.00.
    await entry(website, '2026-03-02T09:00:00Z', 50, 'Homepage wireframes');
    await entry(website, '2026-03-03T09:00:00Z', 80, 'Checkout copy');
    await entry(website, '2026-03-04T09:00:00Z', 20, 'Internal sync', false);
    await entry(intranet, '2026-03-04T13:00:00Z', 45, 'Intranet search');
    await setPassword(t, base, owner.id);
    browser = await launchBrowser();
  }, STEP_TIMEOUT);

  afterAll(async () => {
    // Either may be missing when start-up failed part way.
    await releaseBrowser(browser);
    await (t as TestContext | undefined)?.close();
  });

  it(
    'makes an Invoice summary of one client, rounded up to 15 minutes and printed for de-DE, with the amount in German',
    async () => {
      ({ page } = await newPage(browser, cspErrors, { width: 1440 }));
      await signIn(page, base, owner.email);
      await page.goto(`${base}/app/reports/new`);
      const form = page.getByRole('form', { name: 'New report' });
      const template = form.getByLabel('Template');
      await until(() => template.locator('option').allTextContents()).toContain('Invoice summary');
      await template.selectOption({ label: 'Invoice summary' });
      await chooseStudio(form);
      await form.getByLabel('Period').selectOption({ label: 'Dates…' });
      await form.getByLabel('From').fill('2026-03-01');
      await form.getByLabel('To (inclusive)').fill('2026-03-31');

      // The clients of the chosen workspace, beside its projects.
      const clients = form.getByRole('group', { name: 'Clients (none ticked: all)' });
      await until(() => clients.getByRole('checkbox').count()).toBe(2);
      expect(await clients.locator('label').allTextContents()).toEqual(['Acme Corp', 'Globex']);
      await clients.getByLabel('Acme Corp').check();

      // The options start at the defaults, in the profile's locale; the step shows once rounding is on.
      const options = form.getByRole('group', { name: 'Options' });
      expect(await options.getByLabel('Rounding').inputValue()).toBe('none');
      expect(await options.getByLabel('To a multiple of').count()).toBe(0);
      const showAmounts = options.getByRole('checkbox', { name: 'Show amounts' });
      expect(await showAmounts.isChecked()).toBe(true);
      const hintId = (await showAmounts.getAttribute('aria-describedby')) ?? '';
      const hint = await page.evaluate<string | undefined>(`document.getElementById(${JSON.stringify(hintId)})?.textContent`);
      expect(hint).toContain('every chosen workspace lets you see its rates');
      expect(await options.getByLabel('Entries').inputValue()).toBe('all');
      expect(await options.getByLabel('Durations').inputValue()).toBe('hm');
      expect(await options.getByLabel('Locale').inputValue()).toBe('en');
      await options.getByLabel('Rounding').selectOption({ label: 'Up' });
      await options.getByLabel('To a multiple of').selectOption({ label: '15 minutes' });
      await options.getByLabel('Locale').selectOption('de-DE');

      await until(() => preview().textContent()).toContain(`250,00${NBSP}€`);
      const shown = (await preview().textContent()) ?? '';
      // The document's own words are German too (docs/templates.md, `t`).
      expect(shown).toContain('Abrechenbare Zeit wird je Eintrag auf volle 15 Minuten aufgerundet.');
      expect(shown).toContain('Fälliger Gesamtbetrag in EUR');
      expect(shown).toContain(`100,00${NBSP}€/h`);
      expect(shown).toContain('Website');
      // Globex's project is filtered out.
      expect(shown).not.toContain('Intranet');
      await form.getByLabel('Name', { exact: true }).fill('March invoice');
      await previewSettled();
      await checkScreen(page, 'report-options-new');

      await form.getByRole('button', { name: 'Create report' }).click();
      await until(() => heading()).toBe('March invoice v1');
      reportId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
      const stored = await unwrap(api().GET('/api/v1/reports/{id}', path(reportId)));
      expect(stored.options).toEqual({
        rounding: { mode: 'up', minutes: 15 },
        hideAmounts: false,
        billable: 'all',
        durationFormat: 'hm',
        locale: 'de-DE',
      });
      expect(stored.filters.clientIds).toEqual([acmeId]);
      expect(stored.filters.projectIds).toBeUndefined();

      // The page states the options that are not the defaults.
      await until(() => optionsLine().textContent()).toBe('Rounded up to 15 minutes · de-DE');
      expect(await page.getByRole('region', { name: 'Document' }).textContent()).toContain(`250,00${NBSP}€`);
      await checkScreen(page, 'report-options-page');
    },
    STEP_TIMEOUT,
  );

  it(
    'edits it from the stored options: amounts off, billable entries only, decimal hours; the document shows no money',
    async () => {
      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      const form = page.getByRole('form', { name: 'Edit report' });
      const options = form.getByRole('group', { name: 'Options' });
      await until(() => options.getByLabel('Rounding').inputValue()).toBe('up');
      expect(await options.getByLabel('To a multiple of').inputValue()).toBe('15');
      expect(await options.getByLabel('Locale').inputValue()).toBe('de-DE');
      await until(() => form.getByRole('group', { name: 'Clients (none ticked: all)' }).getByLabel('Acme Corp').isChecked()).toBe(true);
      await until(() => preview().textContent()).toContain(`250,00${NBSP}€`);

      await options.getByRole('checkbox', { name: 'Show amounts' }).uncheck();
      await options.getByLabel('Entries').selectOption({ label: 'Billable only' });
      await options.getByLabel('Durations').selectOption({ label: '1.50 hours' });
      await until(() => preview().textContent()).not.toContain('€');
      await previewSettled();
      expect(await preview().textContent()).toContain('Website');
      await checkScreen(page, 'report-options-edit');

      await form.getByRole('button', { name: 'Save as a new version' }).click();
      await until(() => heading()).toBe('March invoice v2');
      const stored = await unwrap(api().GET('/api/v1/reports/{id}', path(reportId)));
      expect(stored.options).toEqual({
        rounding: { mode: 'up', minutes: 15 },
        hideAmounts: true,
        billable: 'billable',
        durationFormat: 'decimal',
        locale: 'de-DE',
      });
      expect(stored.filters.clientIds).toEqual([acmeId]);
      expect(stored.renderedMarkdown).not.toContain('€');

      const document = page.getByRole('region', { name: 'Document' });
      await until(() => document.textContent()).toContain('Website');
      expect(await document.textContent()).not.toContain('€');
      expect(await optionsLine().textContent()).toBe(
        'Rounded up to 15 minutes · amounts hidden · billable entries only · decimal hours · de-DE',
      );
      await checkScreen(page, 'report-options-page-edited');
    },
    STEP_TIMEOUT,
  );

  it(
    'drops a client and a project with their workspace, offers no client filter for a workspace without clients, and hides the step again',
    async () => {
      await page.goto(`${base}/app/reports/new`);
      const form = page.getByRole('form', { name: 'New report' });
      const workspaces = form.getByRole('group', { name: 'Workspaces' });
      const clients = form.getByRole('group', { name: 'Clients (none ticked: all)' });
      await chooseStudio(form);
      await until(() => clients.getByRole('checkbox').count()).toBe(2);
      await clients.getByLabel('Acme Corp').check();
      await form.getByRole('group', { name: 'Projects (none ticked: all)' }).getByRole('checkbox').first().check();

      // Only the workspace without clients: no client filter, and no preview request names Acme or
      // a Studio project (which the server would refuse as not of the filtered workspaces).
      const sent: unknown[] = [];
      const answered: number[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/v1/reports/preview')) sent.push(request.postDataJSON());
      });
      page.on('response', (response) => {
        if (response.url().endsWith('/api/v1/reports/preview')) answered.push(response.status());
      });
      await workspaces.getByLabel('Side projects').check();
      await workspaces.getByLabel('Studio').uncheck();
      await until(() => form.getByRole('group', { name: 'Projects (none ticked: all)' }).count()).toBe(0);
      expect(await clients.count()).toBe(0);
      await until(() => sent.at(-1)).toMatchObject({ filters: { workspaceIds: [sideId] } });
      expect(sent.at(-1)).not.toHaveProperty('filters.clientIds');
      expect(sent.at(-1)).not.toHaveProperty('filters.projectIds');
      await until(() => answered.at(-1)).toBe(200);

      // Studio again: its clients are back, none ticked.
      await workspaces.getByLabel('Studio').check();
      await until(() => clients.getByRole('checkbox').count()).toBe(2);
      expect(await clients.getByLabel('Acme Corp').isChecked()).toBe(false);

      const options = form.getByRole('group', { name: 'Options' });
      await options.getByLabel('Rounding').selectOption({ label: 'Nearest' });
      await options.getByLabel('To a multiple of').selectOption({ label: '6 minutes' });
      await options.getByLabel('Rounding').selectOption({ label: 'None' });
      expect(await options.getByLabel('To a multiple of').count()).toBe(0);
      // Turning rounding back on restores the step chosen last.
      await options.getByLabel('Rounding').selectOption({ label: 'Down' });
      expect(await options.getByLabel('To a multiple of').inputValue()).toBe('6');
      await previewSettled();
      await checkScreen(page, 'report-options-rounding');
    },
    STEP_TIMEOUT,
  );

  it('broke no Content-Security-Policy rule on any page', () => {
    expect(cspErrors).toEqual([]);
  });
});
