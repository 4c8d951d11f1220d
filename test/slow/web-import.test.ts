/**
 * The web app's Import screen in Chromium (docs/web.md "Import"): a Toggl detailed-report export
 * read in the browser, checked (a dry run that changes nothing, each problem on its line and
 * column), then imported through the batch endpoint, with the same results as `chronicle import`
 * (test/slow/cli.test.ts reads the same file).
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hasChromium,
  launchBrowser,
  newPage,
  releaseBrowser,
  screen,
  scrollsSideways,
  setPassword,
  signIn,
  STEP_TIMEOUT,
  until,
} from '../helpers/browser.js';
import { addMember, addProjectMember, newProject, newWorkspace } from '../helpers/factories.js';
import { freePort } from '../helpers/server-process.js';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

const TOGGL = readFileSync('test/fixtures/toggl-detailed.csv');
const CLOCKIFY_RATES = readFileSync('test/fixtures/clockify-rates.csv');

describe.skipIf(!hasChromium)('the Import screen in Chromium', () => {
  let t: TestContext;
  let browser: Browser;
  let base: string;
  let owner: TestUser;
  let workspaceId: string;
  let pipelineId: string;
  let page: Page;
  const cspErrors: string[] = [];

  const entryCount = async () => (await t.get('/api/v1/time-entries', owner.token, { workspaceId, limit: 1000 })).body.length as number;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await buildTestApp({ config: { publicBaseUrl: base } });
    await t.app.listen({ port, host: '127.0.0.1' });
    owner = await newUser(t, { name: 'Olivia Owner', timezone: 'Europe/Berlin' });
    const ana = await newUser(t, { name: 'Ana Souza' });
    const ben = await newUser(t, { name: 'Ben Okafor' });
    // The fixture's people are matched by e-mail: give Ana and Ben the fixture's addresses.
    await t.patch(`/api/v1/users/${ana.id}`, { email: 'ana@example.com' });
    await t.patch(`/api/v1/users/${ben.id}`, { email: 'ben@example.com' });
    workspaceId = (await newWorkspace(t, owner, 'Acme')).id;
    await addMember(t, workspaceId, ana, 'member', owner.token);
    await addMember(t, workspaceId, ben, 'member', owner.token);
    const website = await newProject(t, workspaceId, owner.token, 'Website relaunch');
    const pipeline = await newProject(t, workspaceId, owner.token, 'Data pipeline');
    await addProjectMember(t, website.id, ana.id, owner.token);
    await addProjectMember(t, pipeline.id, ben.id, owner.token);
    pipelineId = pipeline.id;
    await setPassword(t, base, owner.id);
    browser = await launchBrowser();
    ({ page } = await newPage(browser, cspErrors));
  }, STEP_TIMEOUT);

  afterAll(async () => {
    await releaseBrowser(browser);
    await t.close();
  });

  it(
    'asks for a file, then checks it and lists each row it cannot import, changing nothing',
    async () => {
      await signIn(page, base, owner.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import', exact: true }).click();
      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Import time');
      // The profile's zone is the default: the fixture's times are Berlin times.
      expect(await page.getByLabel('Time zone of the export').inputValue()).toBe('Europe/Berlin');
      await page.getByRole('button', { name: 'Check the file' }).click();
      await until(() => page.getByText('Choose the CSV file of a detailed report.').count()).toBe(1);
      await screen(page, 'import');

      await page.getByLabel('CSV file').setInputFiles({ name: 'toggl.csv', mimeType: 'text/csv', buffer: TOGGL });
      await page.getByRole('button', { name: 'Check the file' }).click();
      const status = page.getByRole('status').filter({ hasText: 'would be imported' });
      await until(() => status.textContent()).toContain('5 entries would be imported, 1 skipped, 3 cannot be imported');
      const problems = page.getByRole('region', { name: 'Rows that will not be imported' });
      const text = await problems.textContent();
      expect(text).toContain('ghost@example.com');
      expect(text).toContain('no project named "Internal" in the workspace ("Create missing projects" creates it)');
      expect(text).toContain('cannot read "1h" as a duration');
      expect(text).toContain('Skipped: is under 30 seconds');
      // With rows it cannot import, nothing is offered until they are fixed or left out.
      expect(await page.getByRole('button', { name: /^Import \d+ entr/ }).count()).toBe(0);
      expect(await entryCount()).toBe(0);
      await screen(page, 'import-checked');
    },
    STEP_TIMEOUT,
  );

  it(
    'lists the clients and projects an import would create, and the clients it leaves out, still changing nothing',
    async () => {
      await page.getByLabel(/^Create missing projects/).check();
      await page.getByRole('button', { name: 'Check the file' }).click();
      const status = page.getByRole('status').filter({ hasText: 'would be imported' });
      await until(() => status.textContent()).toContain('6 entries would be imported, 1 skipped, 2 cannot be imported');
      const result = page.getByRole('region', { name: 'What the import would do' });
      expect(await result.getByText('Clients to create:').textContent()).toBe('Clients to create: “Globex”.');
      expect(await result.getByText('Projects to create:').textContent()).toBe('Projects to create: “Internal” (client “Globex”).');
      // The fixture's projects exist without a client here: they keep it, and say so.
      const leftOut = await page.getByRole('list', { name: 'Imported, with something left out' }).textContent();
      expect(leftOut).toContain('Line 2, column Client: project "Website relaunch" exists without a client');
      expect(leftOut).toContain('"Acme, Inc." is not applied');
      expect(await entryCount()).toBe(0);
      expect((await t.get(`/api/v1/workspaces/${workspaceId}/clients`, owner.token)).body).toEqual([]);
      await screen(page, 'import-clients');
    },
    STEP_TIMEOUT,
  );

  it(
    'imports the other rows when told to leave the bad ones out, with their billable and the new client, and shows them under Time',
    async () => {
      await page.getByLabel('Import the other rows when some cannot be imported').check();
      await page.getByRole('button', { name: 'Import 6 entries' }).click();
      await until(() => page.getByRole('status').filter({ hasText: 'Imported 6 entries' }).count()).toBe(1);
      expect(await entryCount()).toBe(6);
      const entries = (await t.get('/api/v1/time-entries', owner.token, { workspaceId, limit: 1000 })).body as {
        start: string;
        description: string;
        billable: boolean;
      }[];
      // 09:00 in Berlin on 5 October is 07:00 UTC.
      expect(entries.map((e) => e.start)).toContain('2026-10-05T07:00:00.000Z');
      // Billable as the file's column says.
      expect(Object.fromEntries(entries.map((e) => [e.description.split('\n')[0], e.billable]))).toEqual({
        'Homepage hero, second pass': true,
        Standup: false,
        'Backfill job': true,
        Expenses: false,
        'Unassigned reading': false,
        'Overnight incident': true,
      });
      const clients = (await t.get(`/api/v1/workspaces/${workspaceId}/clients`, owner.token)).body as { id: string; name: string }[];
      expect(clients.map((c) => c.name)).toEqual(['Globex']);
      const projects = (await t.get(`/api/v1/workspaces/${workspaceId}/projects`, owner.token)).body as {
        name: string;
        clientId: string | null;
      }[];
      expect(Object.fromEntries(projects.map((p) => [p.name, p.clientId]))).toEqual({
        'Website relaunch': null,
        'Data pipeline': null,
        Internal: clients[0]?.id,
      });
      await page.getByRole('link', { name: 'See them under Time' }).click();
      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Time');
      expect(cspErrors).toEqual([]);
    },
    STEP_TIMEOUT,
  );

  it(
    "lists the lines whose rate or amount differs from Chronicle's, importing no rate",
    async () => {
      const rate = (minor: number, effectiveFrom: string) => ({ hourly: { currency: 'EUR', minor }, effectiveFrom });
      expect((await t.put(`/api/v1/workspaces/${workspaceId}/rates`, rate(10000, '2026-01-01'), owner.token)).status).toBe(200);
      expect((await t.put(`/api/v1/projects/${pipelineId}/rates`, rate(12000, '2026-10-08'), owner.token)).status).toBe(200);
      await page.goto(`${base}/app/import`);
      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Import time');
      await page.getByLabel('Exported from').selectOption('clockify');
      await page.getByLabel('CSV file').setInputFiles({ name: 'clockify.csv', mimeType: 'text/csv', buffer: CLOCKIFY_RATES });
      await page.getByRole('button', { name: 'Check the file' }).click();
      const status = page.getByRole('status').filter({ hasText: 'would be imported' });
      await until(() => status.textContent()).toContain('6 entries would be imported, 0 skipped, 0 cannot be imported');
      const differ = page.getByRole('list', { name: "Rates and amounts that differ from Chronicle's" });
      expect(await differ.getByRole('listitem').allTextContents()).toEqual([
        "Line 4: the export's rate €100.00/h differs from Chronicle's €120.00/h (project rate)",
        "Line 4: the export's amount €100.00 differs from Chronicle's €120.00 (60 minutes at €120.00/h (project rate))",
        "Line 5: the export's rate €95.00/h differs from Chronicle's €100.00/h (workspace rate)",
        "Line 5: the export's amount €95.00 differs from Chronicle's €100.00 (60 minutes at €100.00/h (workspace rate))",
      ]);
      expect(await page.getByText('1 line near a rate change of another user whose time zone is not visible to you').count()).toBe(1);
      // Checking changes nothing, and no rate comes from the file.
      expect((await t.get(`/api/v1/workspaces/${workspaceId}/rates`, owner.token)).body).toHaveLength(1);
      expect((await t.get(`/api/v1/projects/${pipelineId}/rates`, owner.token)).body).toHaveLength(1);
      expect(await entryCount()).toBe(6);
    },
    STEP_TIMEOUT,
  );

  it(
    'fits a phone: no sideways scroll at 390 px',
    async () => {
      const { page: phone, context } = await newPage(browser, cspErrors, { width: 390 });
      await signIn(phone, base, owner.email);
      await phone.goto(`${base}/app/import`);
      await until(() => phone.getByRole('heading', { level: 1 }).textContent()).toBe('Import time');
      await phone.getByLabel('CSV file').setInputFiles({ name: 'toggl.csv', mimeType: 'text/csv', buffer: TOGGL });
      await phone.getByRole('button', { name: 'Check the file' }).click();
      await until(() => phone.getByRole('region', { name: 'Rows that will not be imported' }).count()).toBe(1);
      expect(await scrollsSideways(phone)).toBe(false);
      await screen(phone, 'import-390');
      await context.close();
    },
    STEP_TIMEOUT,
  );
});
