/**
 * Clients, rates and billable time in Chromium (docs/web.md "Clients, billing and rates"): an owner
 * whose profile locale is German adds, renames, archives and deletes clients (a name the workspace
 * has, in another case, refused in place with the server's 409), sets the workspace's currency
 * and who sees rates, sets workspace, member and project rates from dates and ends a level, gives
 * a project its client and billableByDefault; a plain member then sees clients and the project's
 * settings read-only and no rates, and logs entries that start billable from the project's
 * default, one of them unticked. What was stored is read back through the typed client. Every
 * screen goes through checkScreen (axe-core light and dark; no sideways scroll at 320, 390 and
 * 1440 px). Screenshots only with SCREENSHOTS_DIR; waits poll what a user would see.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../packages/client/src/index.js';
import {
  axeViolations,
  checkScreen,
  hasChromium,
  launchBrowser,
  newPage as openPage,
  releaseBrowser,
  setPassword as setUserPassword,
  signIn as signInAt,
  STEP_TIMEOUT,
  until,
} from '../helpers/browser.js';
import { addMember, addProjectMember, newProject, newWorkspace } from '../helpers/factories.js';
import { freePort } from '../helpers/server-process.js';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

/** The non-breaking space German puts between an amount and its currency sign. */
const NBSP = '\u00a0';

describe.skipIf(!hasChromium)('clients, rates and billable time in Chromium', () => {
  let t: TestContext;
  let browser: Browser;
  let base: string;
  let owner: TestUser;
  let mia: TestUser;
  let workspaceId: string;
  let projectId: string;
  let page: Page;
  const cspErrors: string[] = [];

  const heading = (p: Page) => p.getByRole('heading', { level: 1 }).textContent();
  const api = (token: string) => t.client(token);
  const path = (id: string) => ({ params: { path: { id } } });

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await buildTestApp({ config: { publicBaseUrl: base } });
    await t.app.listen({ port, host: '127.0.0.1' });
    owner = await newUser(t, { name: 'Olga Owner', locale: 'de-DE', timezone: 'Europe/Berlin' });
    mia = await newUser(t, { name: 'Mia Member', locale: 'en-US', timezone: 'Europe/Berlin' });
    workspaceId = (await newWorkspace(t, owner, 'Studio')).id;
    await addMember(t, workspaceId, mia, 'member', owner.token);
    projectId = (await newProject(t, workspaceId, owner.token, 'Website')).id;
    await addProjectMember(t, projectId, mia.id, owner.token);
    await setUserPassword(t, base, owner.id);
    await setUserPassword(t, base, mia.id);
    browser = await launchBrowser();
  }, STEP_TIMEOUT);

  afterAll(async () => {
    await releaseBrowser(browser);
    await t.close();
  });

  it(
    'adds, renames, archives and deletes clients, refusing a name the workspace has in place',
    async () => {
      ({ page } = await openPage(browser, cspErrors, { width: 1440 }));
      await signInAt(page, base, owner.email);
      await page.goto(`${base}/app/workspaces/${workspaceId}`);
      await until(() => heading(page)).toBe('Studio');
      const clients = page.getByRole('region', { name: 'Clients' });
      await until(() => clients.textContent()).toContain('No clients yet. Add the first one below');
      const add = page.getByRole('form', { name: 'Add a client' });
      expect(await add.getAttribute('novalidate')).not.toBeNull();

      // An empty name is refused by the app, in its own words, and nothing is sent.
      await add.getByRole('button', { name: 'Add client' }).click();
      await until(() => add.locator('.field-error').textContent()).toBe('Give the client a name.');

      for (const name of ['Acme Corp', 'Globex', 'Temporary']) {
        await add.getByLabel('Client name').fill(name);
        await add.getByRole('button', { name: 'Add client' }).click();
        await until(() => clients.getByRole('status').textContent()).toBe(`Added ${name}.`);
      }
      // The same name in another case: the server's 409, beside the form.
      await add.getByLabel('Client name').fill('acme corp');
      await add.getByRole('button', { name: 'Add client' }).click();
      await until(() => add.getByRole('alert').textContent()).toContain('already has a client with this name');
      // The refusal is announced and passes axe-core; the screen itself is checked whole below.
      expect(await axeViolations(page), 'axe with the 409 shown').toEqual([]);
      await add.getByLabel('Client name').fill('');

      const list = clients.getByRole('list', { name: 'Clients' });
      const row = (name: string) => list.getByRole('listitem').filter({ hasText: name });
      await row('Globex').getByRole('button', { name: 'Rename Globex' }).click();
      const rename = page.getByRole('form', { name: 'Rename Globex' });
      await rename.getByLabel('New name for Globex').fill('Initech');
      await rename.getByRole('button', { name: 'Save name' }).click();
      await until(() => clients.getByRole('status').textContent()).toBe('Renamed Globex to Initech.');
      await row('Initech').getByRole('button', { name: 'Archive Initech' }).click();
      await until(() => row('Initech').textContent()).toContain('Archived');

      await row('Temporary').getByRole('button', { name: 'Delete Temporary' }).click();
      await row('Temporary').getByRole('button', { name: 'Keep it' }).click();
      expect(await row('Temporary').count()).toBe(1);
      await row('Temporary').getByRole('button', { name: 'Delete Temporary' }).click();
      await row('Temporary').getByRole('button', { name: 'Really delete Temporary' }).click();
      await until(() => row('Temporary').count()).toBe(0);

      // Active clients by name, then the archived ones.
      expect(await list.getByRole('listitem').allTextContents()).toEqual([
        expect.stringMatching(/^Acme Corp/),
        expect.stringMatching(/^Initech Archived/),
      ]);
      const stored = await unwrap(api(owner.token).GET('/api/v1/workspaces/{id}/clients', path(workspaceId)));
      expect(stored.map((c) => [c.name, c.archived]).sort()).toEqual([
        ['Acme Corp', false],
        ['Initech', true],
      ]);
      await checkScreen(page, 'workspace-clients');
    },
    STEP_TIMEOUT,
  );

  it(
    'sets the currency and who sees rates, and reads amounts in the workspace currency’s decimals',
    async () => {
      const billing = page.getByRole('form', { name: 'Billing' });
      const workspaceRate = page.getByRole('form', { name: 'Set the workspace rate' });
      await billing.getByLabel('Currency').selectOption('JPY');
      await billing.getByLabel('Who sees rates and amounts').selectOption({ label: 'Every member' });
      await billing.getByRole('button', { name: 'Save billing settings' }).click();
      await until(() => billing.getByRole('status').textContent()).toBe('Saved.');
      let stored = await unwrap(api(owner.token).GET('/api/v1/workspaces/{id}', path(workspaceId)));
      expect([stored.currency, stored.ratesVisibleTo]).toEqual(['JPY', 'members']);

      // The yen has no minor unit: a decimal is refused by the app before anything is sent.
      await until(() => workspaceRate.getByLabel('Hourly rate (JPY)').count()).toBe(1);
      await workspaceRate.getByLabel('Hourly rate (JPY)').fill('12,5');
      await workspaceRate.getByRole('button', { name: 'Set rate' }).click();
      await until(() => workspaceRate.locator('.field-error').textContent()).toBe('JPY has no decimals: enter a whole number, like 12000.');

      await billing.getByLabel('Currency').selectOption('EUR');
      await billing.getByRole('button', { name: 'Save billing settings' }).click();
      await until(() => workspaceRate.getByLabel('Hourly rate (EUR)').count()).toBe(1);
      stored = await unwrap(api(owner.token).GET('/api/v1/workspaces/{id}', path(workspaceId)));
      expect([stored.currency, stored.ratesVisibleTo]).toEqual(['EUR', 'members']);
      expect(await unwrap(api(owner.token).GET('/api/v1/workspaces/{id}/rates', path(workspaceId)))).toEqual([]);
    },
    STEP_TIMEOUT,
  );

  it(
    'sets the workspace rate and a later one, shows the history oldest first, ends the level, and sets a member’s rate',
    async () => {
      const level = page.getByRole('region', { name: 'Workspace rate', exact: true });
      const form = page.getByRole('form', { name: 'Set the workspace rate' });
      await until(() => level.textContent()).toContain('No workspace rate yet');
      const amount = form.getByLabel('Hourly rate (EUR)');
      // Today in the profile's zone by default.
      expect(await form.getByLabel('From').inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}$/);

      for (const [typed, message] of [
        ['', 'Enter the hourly rate, like 90,50.'],
        ['90 €', 'Enter a number like 90,50: digits and one decimal mark, with no currency sign or thousands separator.'],
        ['90,555', 'EUR has 2 decimals: use at most 2 digits after the decimal mark.'],
        ['2000000', `Use at most 1.000.000,00${NBSP}€.`],
      ] as const) {
        await amount.fill(typed);
        await form.getByRole('button', { name: 'Set rate' }).click();
        await until(() => form.locator('.field-error').textContent()).toBe(message);
        expect(await amount.getAttribute('aria-invalid')).toBe('true');
      }

      // The later date first: the history is still oldest first.
      for (const [typed, from] of [
        ['95,50', '2026-06-01'],
        ['90', '2026-01-01'],
      ] as const) {
        await amount.fill(typed);
        await form.getByLabel('From').fill(from);
        await form.getByRole('button', { name: 'Set rate' }).click();
        await until(() => form.getByRole('status').textContent()).toMatch(/^Set .* an hour from /);
      }
      const history = level.getByRole('region', { name: 'History of the workspace rate' });
      await until(() => history.locator('tbody tr').count()).toBe(2);
      const rows = async () => (await history.locator('tbody tr').allInnerTexts()).map((r) => r.replace(/[ \t\n]+/g, ' ').trim());
      expect(await rows()).toEqual([
        expect.stringMatching(new RegExp(`^01\\.01\\.2026 .*90,00${NBSP}€`)),
        expect.stringMatching(new RegExp(`^01\\.06\\.2026 .*95,50${NBSP}€`)),
      ]);
      expect(await unwrap(api(owner.token).GET('/api/v1/workspaces/{id}/rates', path(workspaceId)))).toEqual([
        expect.objectContaining({ effectiveFrom: '2026-01-01', hourly: { currency: 'EUR', minor: 9000 } }),
        expect.objectContaining({ effectiveFrom: '2026-06-01', hourly: { currency: 'EUR', minor: 9550 } }),
      ]);

      // Ending the level needs only the date.
      await amount.fill('');
      await form.getByLabel('From').fill('2026-09-01');
      await form.getByRole('button', { name: 'End the rate from this day' }).click();
      await until(() => form.getByRole('status').textContent()).toBe('No workspace rate applies from 01.09.2026 on.');
      await until(() => history.locator('tbody tr').count()).toBe(3);
      expect((await rows())[2]).toMatch(/^01\.09\.2026 .*No rate/);
      expect(await form.getByRole('button', { name: 'End the rate from this day' }).count()).toBe(0);
      const ended = await unwrap(api(owner.token).GET('/api/v1/workspaces/{id}/rates', path(workspaceId)));
      expect(ended.map((r) => [r.effectiveFrom, r.hourly?.minor ?? null])).toEqual([
        ['2026-01-01', 9000],
        ['2026-06-01', 9550],
        ['2026-09-01', null],
      ]);

      // A member's own rate in the workspace.
      const memberRates = page.getByRole('region', { name: 'Member rates', exact: true });
      await memberRates.getByLabel('Member').selectOption({ label: 'Mia Member' });
      const miaForm = page.getByRole('form', { name: 'Set the rate of Mia Member' });
      await until(() => memberRates.textContent()).toContain('Mia Member has no rate of their own in this workspace');
      await miaForm.getByLabel('Hourly rate (EUR)').fill('70');
      await miaForm.getByLabel('From').fill('2026-01-01');
      await miaForm.getByRole('button', { name: 'Set rate' }).click();
      await until(() => memberRates.getByRole('region', { name: 'History of the rate of Mia Member' }).textContent()).toContain(
        `70,00${NBSP}€`,
      );
      expect(
        await unwrap(
          api(owner.token).GET('/api/v1/workspaces/{id}/members/{userId}/rates', {
            params: { path: { id: workspaceId, userId: mia.id } },
          }),
        ),
      ).toEqual([expect.objectContaining({ effectiveFrom: '2026-01-01', hourly: { currency: 'EUR', minor: 7000 } })]);
      await checkScreen(page, 'workspace-rates');

      // On a small phone each rate is a block (its day, its rate, when it was set), not a row that
      // scrolls inside its box with the last column out of sight.
      const size = page.viewportSize() ?? { width: 1280, height: 900 };
      await page.setViewportSize({ width: 320, height: size.height });
      const box = `document.querySelector('[aria-label="History of the workspace rate"]')`;
      await until(() => page.evaluate<number>(`${box}.scrollWidth - ${box}.clientWidth`)).toBeLessThanOrEqual(0);
      expect(await page.evaluate<string>(`getComputedStyle(${box}.querySelector('tbody tr')).display`)).toBe('flex');
      await page.setViewportSize(size);
    },
    STEP_TIMEOUT,
  );

  it(
    'gives the project its client and billable default, and sets its rates',
    async () => {
      await page.getByRole('region', { name: 'Projects' }).getByRole('link', { name: 'Website' }).click();
      await until(() => heading(page)).toBe('Website');
      const billing = page.getByRole('form', { name: 'Client and billing' });
      // Archived clients are not offered.
      expect(await billing.getByLabel('Client').locator('option').allTextContents()).toEqual(['No client', 'Acme Corp']);
      await billing.getByLabel('Client').selectOption({ label: 'Acme Corp' });
      await billing.getByLabel('New entries on this project are billable').check();
      await billing.getByRole('button', { name: 'Save client and billing' }).click();
      await until(() => billing.getByRole('status').textContent()).toBe('Saved.');
      const acme = (await unwrap(api(owner.token).GET('/api/v1/workspaces/{id}/clients', path(workspaceId)))).find(
        (c) => c.name === 'Acme Corp',
      );
      const project = (await unwrap(api(owner.token).GET('/api/v1/workspaces/{id}/projects', path(workspaceId)))).find(
        (p) => p.id === projectId,
      );
      expect([project?.clientId, project?.billableByDefault]).toEqual([acme?.id, true]);

      const level = page.getByRole('region', { name: 'Project rate', exact: true });
      const form = page.getByRole('form', { name: 'Set the project rate' });
      await until(() => level.textContent()).toContain('No project rate yet');
      for (const [typed, from] of [
        ['120', '2026-01-01'],
        ['130,25', '2026-07-01'],
      ] as const) {
        await form.getByLabel('Hourly rate (EUR)').fill(typed);
        await form.getByLabel('From').fill(from);
        await form.getByRole('button', { name: 'Set rate' }).click();
        await until(() => form.getByRole('status').textContent()).toMatch(/^Set /);
      }
      const history = level.getByRole('region', { name: 'History of the project rate' });
      await until(() => history.locator('tbody tr').count()).toBe(2);
      expect((await history.locator('tbody tr').allInnerTexts()).map((r) => r.replace(/[ \t\n]+/g, ' ').trim())).toEqual([
        expect.stringMatching(new RegExp(`^01\\.01\\.2026 .*120,00${NBSP}€`)),
        expect.stringMatching(new RegExp(`^01\\.07\\.2026 .*130,25${NBSP}€`)),
      ]);
      expect(await unwrap(api(owner.token).GET('/api/v1/projects/{id}/rates', path(projectId)))).toEqual([
        expect.objectContaining({ effectiveFrom: '2026-01-01', hourly: { currency: 'EUR', minor: 12000 } }),
        expect.objectContaining({ effectiveFrom: '2026-07-01', hourly: { currency: 'EUR', minor: 13025 } }),
      ]);

      // The people who may log time on it: its member and the workspace's owner.
      const memberRates = page.getByRole('region', { name: 'Member rates on this project' });
      expect(await memberRates.getByLabel('Member').locator('option').allTextContents()).toEqual([
        'Choose a member',
        'Mia Member',
        'Olga Owner (you)',
      ]);
      await memberRates.getByLabel('Member').selectOption({ label: 'Mia Member' });
      const miaForm = page.getByRole('form', { name: 'Set the rate of Mia Member' });
      await miaForm.getByLabel('Hourly rate (EUR)').fill('110');
      await miaForm.getByLabel('From').fill('2026-01-01');
      await miaForm.getByRole('button', { name: 'Set rate' }).click();
      await until(() => miaForm.getByRole('status').textContent()).toMatch(/^Set /);
      expect(
        await unwrap(
          api(owner.token).GET('/api/v1/projects/{id}/members/{userId}/rates', { params: { path: { id: projectId, userId: mia.id } } }),
        ),
      ).toEqual([expect.objectContaining({ effectiveFrom: '2026-01-01', hourly: { currency: 'EUR', minor: 11000 } })]);
      await checkScreen(page, 'project-billing');
      await page.context().close();
    },
    STEP_TIMEOUT,
  );

  it(
    'shows a member clients and the project’s settings read-only, and no rates',
    async () => {
      ({ page } = await openPage(browser, cspErrors, { width: 1440 }));
      await signInAt(page, base, mia.email);
      await page.goto(`${base}/app/workspaces/${workspaceId}`);
      await until(() => heading(page)).toBe('Studio');
      const clients = page.getByRole('list', { name: 'Clients' });
      await until(() => clients.getByRole('listitem').count()).toBe(2);
      expect(await page.getByRole('region', { name: 'Clients' }).getByRole('button').count()).toBe(0);
      // The projects load on their own: wait for them rather than read the list while it loads.
      await until(() => page.getByRole('region', { name: 'Projects' }).textContent()).toContain('Website for Acme Corp');
      expect(await page.locator('main form').count()).toBe(0);
      for (const name of ['Billing', 'Rates', 'Workspace rate']) {
        expect(await page.getByRole('heading', { name, exact: true }).count(), name).toBe(0);
      }
      expect(await page.getByRole('alert').count()).toBe(0);
      await checkScreen(page, 'workspace-clients-as-member');

      await page.getByRole('region', { name: 'Projects' }).getByRole('link', { name: 'Website' }).click();
      await until(() => heading(page)).toBe('Website');
      const billing = page.getByRole('region', { name: 'Client and billing' });
      await until(() => billing.textContent()).toContain('Acme Corp');
      expect(await billing.textContent()).toContain('Billable by default');
      await until(() => page.getByRole('list', { name: 'Project members' }).textContent()).toContain('Mia Member (you)');
      expect(await page.locator('main form').count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Rates', exact: true }).count()).toBe(0);
      expect(await page.getByRole('alert').count()).toBe(0);
      await checkScreen(page, 'project-as-member');
    },
    STEP_TIMEOUT,
  );

  it(
    'logs an entry that starts billable from its project, and one unticked',
    async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Time', exact: true }).click();
      const form = page.getByRole('form', { name: 'Add an entry' });
      const billable = form.getByLabel('Billable');
      await until(() => form.getByLabel('Project').locator('option').count()).toBe(2);
      expect(await billable.isChecked()).toBe(false);
      await form.getByLabel('Project').selectOption({ label: 'Website' });
      expect(await billable.isChecked()).toBe(true);
      await form.getByLabel('Start').fill('2026-10-08T10:00');
      await form.getByLabel('Minutes').fill('90');
      await form.getByLabel('Description').fill('Homepage copy');
      await form.getByRole('button', { name: 'Add entry' }).click();
      const row = (text: string) => page.locator('table.entries tbody tr').filter({ hasText: text });
      await until(() => row('Homepage copy').count()).toBe(1);

      await form.getByLabel('Project').selectOption({ label: 'No project' });
      expect(await billable.isChecked()).toBe(false);
      await form.getByLabel('Project').selectOption({ label: 'Website' });
      expect(await billable.isChecked()).toBe(true);
      await billable.uncheck();
      await form.getByLabel('Start').fill('2026-10-08T14:00');
      await form.getByLabel('Minutes').fill('30');
      await form.getByLabel('Description').fill('Internal sync');
      await form.getByRole('button', { name: 'Add entry' }).click();
      await until(() => row('Internal sync').count()).toBe(1);

      expect(await row('Homepage copy').textContent()).toContain('Billable');
      expect(await row('Internal sync').locator('.tag.billable').count()).toBe(0);
      const stored = await unwrap(api(mia.token).GET('/api/v1/time-entries', { params: { query: { projectId } } }));
      expect(stored.map((e) => [e.description, e.billable]).sort()).toEqual([
        ['Homepage copy', true],
        ['Internal sync', false],
      ]);

      // Editing shows the entry's own value; ticking it saves it.
      await row('Internal sync').getByRole('button', { name: /^Edit/ }).click();
      const edit = page.getByRole('form', { name: 'Edit entry' });
      await until(() => edit.getByLabel('Description').inputValue()).toBe('Internal sync');
      expect(await edit.getByLabel('Billable').isChecked()).toBe(false);
      await edit.getByLabel('Billable').check();
      await edit.getByRole('button', { name: 'Save entry' }).click();
      await until(() => row('Internal sync').locator('.tag.billable').count()).toBe(1);
      const edited = await unwrap(api(mia.token).GET('/api/v1/time-entries', { params: { query: { projectId } } }));
      expect(edited.find((e) => e.description === 'Internal sync')?.billable).toBe(true);
      await checkScreen(page, 'time-billable');
      await page.context().close();
    },
    STEP_TIMEOUT,
  );

  it('broke no Content-Security-Policy rule on any page', () => {
    expect(cspErrors).toEqual([]);
  });
});
