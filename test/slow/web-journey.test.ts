/**
 * From an empty database to a report read by a teammate and a client, in Chromium, through the
 * browser alone (docs/web.md "Getting started"): the first start creates the instance admin and
 * its one-time set-password link; the admin follows it, creates a workspace, adds two people and
 * reads one's set-password link in Settings → People, makes them members, creates a project,
 * imports a Toggl export, makes a report over a teammate's time, edits it twice, compares version 1
 * with version 3, sends it; the teammate sets her password, reads and comments; a client opens a
 * passcode link on a phone; the admin deletes an entry. Nothing is changed through the API: it is
 * used only to check what was stored, with the token the first start printed.
 *
 * Every screen visited is checked by checkScreen: axe-core in light and dark, and no sideways
 * scroll at 320, 390 and 1440 px (screenshots only when SCREENSHOTS_DIR is set, in its folder
 * `journey/`). Waits poll for what a user would see, never the clock.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkScreen, hasChromium, launchBrowser, newPage, PASSWORD, releaseBrowser, STEP_TIMEOUT, until } from '../helpers/browser.js';
import { freePort } from '../helpers/server-process.js';
import { buildTestApp, type TestContext } from '../helpers/test-app.js';

const TOGGL = readFileSync('test/fixtures/toggl-detailed.csv');
const WIDE = 1440;
const PEOPLE = {
  ana: { name: 'Ana Souza', email: 'ana@example.com' },
  ben: { name: 'Ben Okafor', email: 'ben@example.com' },
};
const COMMENT = 'The hours on 5 October are right.';

describe.skipIf(!hasChromium)('the journey from an empty database, in Chromium', () => {
  let t: TestContext;
  let browser: Browser;
  let base: string;
  /** The API token the first start printed: used only to check what the browser stored. */
  let token: string;
  let adminLink: string;
  let page: Page;
  let workspaceId: string;
  let anaLink: string;
  let reportId: string;
  let shareUrl: string;
  const cspErrors: string[] = [];

  const heading = (p: Page) => p.getByRole('heading', { level: 1 }).textContent();
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
  const get = async <T>(url: string, query?: Record<string, string | number>): Promise<T> => {
    const res = await t.get<T>(url, token, query);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const entries = () => get<{ id: string; description: string }[]>('/api/v1/time-entries', { workspaceId, limit: 1000 });

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await buildTestApp({ config: { publicBaseUrl: base, bootstrapAdminToken: null } });
    await t.app.listen({ port, host: '127.0.0.1' });
    // The first start on an empty database: the admin, its token and a one-time link, once.
    if (!t.app.generatedAdminToken || !t.app.adminPasswordLink) throw new Error('the first start made no admin');
    token = t.app.generatedAdminToken;
    adminLink = t.app.adminPasswordLink.url;
    expect(adminLink.startsWith(`${base}/app/set-password#`)).toBe(true);
    expect(await get<unknown[]>('/api/v1/users')).toHaveLength(1);
    expect(await get<unknown[]>('/api/v1/workspaces')).toEqual([]);
    browser = await launchBrowser();
  }, STEP_TIMEOUT);

  afterAll(async () => {
    // Either may be missing when start-up failed part way.
    await releaseBrowser(browser);
    await (t as TestContext | undefined)?.close();
  });

  it(
    'sets the admin password from the printed link and opens the inbox with the checklist',
    async () => {
      ({ page } = await newPage(browser, cspErrors, { width: WIDE }));
      await page.goto(adminLink);
      await until(() => heading(page)).toBe('Set your password');
      await checkScreen(page, 'journey/set-password');
      await page.getByLabel('New password').fill(PASSWORD);
      await page.getByLabel('Repeat the password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      await until(() => heading(page)).toBe('Inbox');
      const checklist = page.getByRole('region', { name: 'Getting started' });
      await until(() => checklist.textContent()).toContain('0 of 6 done');
      await checkScreen(page, 'journey/inbox-checklist');
    },
    STEP_TIMEOUT,
  );

  it(
    'creates a workspace, adds two people and reads one set-password link',
    async () => {
      await page.getByRole('region', { name: 'Getting started' }).getByRole('link', { name: 'Create a workspace' }).click();
      await until(() => heading(page)).toBe('Workspaces');
      await until(() => page.locator('main').textContent()).toContain('You are in no workspace yet');
      await checkScreen(page, 'journey/workspaces-empty');
      const form = page.getByRole('form', { name: 'Create a workspace' });
      await form.getByLabel('Workspace name').fill('Acme');
      await form.getByRole('button', { name: 'Create workspace' }).click();
      await until(() => heading(page)).toBe('Acme');
      const workspaces = await get<{ id: string; name: string; role: string }[]>('/api/v1/workspaces');
      expect(workspaces.map((w) => [w.name, w.role])).toEqual([['Acme', 'owner']]);
      workspaceId = workspaces[0]?.id ?? '';
      await checkScreen(page, 'journey/workspace-new');

      await nav('Settings').click();
      const people = page.getByRole('region', { name: 'People' });
      await until(() => people.getByRole('listitem').count()).toBe(1);
      for (const person of [PEOPLE.ana, PEOPLE.ben]) {
        await people.getByLabel('Name').fill(person.name);
        await people.getByLabel('Email').fill(person.email);
        await people.getByRole('button', { name: 'Add person' }).click();
        await until(() => people.getByRole('listitem').filter({ hasText: person.email }).count()).toBe(1);
      }
      const users = await get<{ name: string; email: string }[]>('/api/v1/users');
      expect(users.map((u) => u.email).sort()).toEqual(['admin@localhost', PEOPLE.ana.email, PEOPLE.ben.email]);
      await checkScreen(page, 'journey/settings-people');

      await people.getByRole('button', { name: `Set-password link for ${PEOPLE.ana.name}` }).click();
      const shown = people.getByRole('status').filter({ hasText: `Set-password link for ${PEOPLE.ana.name}` });
      await until(() => shown.locator('code').count()).toBe(1);
      anaLink = (await shown.locator('code').textContent()) ?? '';
      expect(anaLink).toMatch(new RegExp(`^${base}/app/set-password#\\S+$`));
      await checkScreen(page, 'journey/settings-password-link');
    },
    STEP_TIMEOUT,
  );

  it(
    'makes both members and puts Ana on a new project',
    async () => {
      await nav('Workspaces').click();
      await page.getByRole('link', { name: 'Acme' }).click();
      await until(() => heading(page)).toBe('Acme');
      const form = page.getByRole('form', { name: 'Add a member' });
      const members = page.getByRole('region', { name: 'Members' });
      for (const person of [PEOPLE.ana, PEOPLE.ben]) {
        await form.getByLabel('Person').selectOption({ label: `${person.name} (${person.email})` });
        await form.getByRole('button', { name: 'Add member' }).click();
        await until(() => members.getByRole('status').textContent()).toBe(`${person.name} is now a member.`);
      }
      await until(() => members.getByRole('list', { name: 'Members' }).getByRole('listitem').count()).toBe(3);
      const stored = await get<{ name: string; role: string }[]>(`/api/v1/workspaces/${workspaceId}/members`);
      expect(stored.map((m) => [m.name, m.role]).sort()).toEqual([
        ['Administrator', 'owner'],
        [PEOPLE.ana.name, 'member'],
        [PEOPLE.ben.name, 'member'],
      ]);
      await checkScreen(page, 'journey/workspace-members');

      const create = page.getByRole('form', { name: 'Create a project' });
      await create.getByLabel('Project name').fill('Website relaunch');
      await create.getByRole('button', { name: 'Create project' }).click();
      await until(() => heading(page)).toBe('Website relaunch');
      const projects = await get<{ id: string; name: string }[]>(`/api/v1/workspaces/${workspaceId}/projects`);
      expect(projects.map((p) => p.name)).toEqual(['Website relaunch']);
      await checkScreen(page, 'journey/project-empty');

      const add = page.getByRole('form', { name: 'Add a member' });
      await add.getByLabel('Person').selectOption({ label: `${PEOPLE.ana.name} (${PEOPLE.ana.email})` });
      await add.getByRole('button', { name: 'Add to project' }).click();
      const projectMembers = page.getByRole('region', { name: 'Members' });
      await until(() => projectMembers.getByRole('list', { name: 'Project members' }).textContent()).toContain(PEOPLE.ana.name);
      const onProject = await get<{ name: string }[]>(`/api/v1/projects/${projects[0]?.id ?? ''}/members`);
      expect(onProject.map((m) => m.name)).toEqual([PEOPLE.ana.name]);
      await checkScreen(page, 'journey/project');
    },
    STEP_TIMEOUT,
  );

  it(
    'imports the Toggl export, creating the missing projects and leaving out the rows it cannot import',
    async () => {
      await nav('Import').click();
      await until(() => heading(page)).toBe('Import time');
      await until(() => page.getByLabel('CSV file').count()).toBe(1);
      await checkScreen(page, 'journey/import');
      await page.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Acme' });
      await page.getByLabel('CSV file').setInputFiles({ name: 'toggl.csv', mimeType: 'text/csv', buffer: TOGGL });
      await page.getByLabel('Time zone of the export').fill('Europe/Berlin');
      await page.getByLabel(/^Create missing projects/).check();
      await page.getByLabel('Import the other rows when some cannot be imported').check();
      await page.getByRole('button', { name: 'Check the file' }).click();
      // Created: "Data pipeline" (Ben's) and "Internal" (Ana's). Left out: an unknown e-mail and a
      // duration that cannot be read; skipped: a 20-second timer.
      const checked = page.getByRole('status').filter({ hasText: 'would be imported' });
      await until(() => checked.textContent()).toContain('6 entries would be imported, 1 skipped, 2 cannot be imported');
      expect(await entries()).toEqual([]);
      await checkScreen(page, 'journey/import-checked');

      await page.getByRole('button', { name: 'Import 6 entries' }).click();
      await until(() => page.getByRole('status').filter({ hasText: 'Imported 6 entries' }).count()).toBe(1);
      const stored = await entries();
      expect(stored.map((e) => e.description).sort()).toEqual([
        'Backfill job',
        'Expenses',
        'Homepage hero, second pass',
        'Overnight incident',
        'Standup\nnotes: "blockers" and next steps',
        'Unassigned reading',
      ]);
      const projects = await get<{ name: string }[]>(`/api/v1/workspaces/${workspaceId}/projects`);
      expect(projects.map((p) => p.name).sort()).toEqual(['Data pipeline', 'Internal', 'Website relaunch']);
      await checkScreen(page, 'journey/import-done');
    },
    STEP_TIMEOUT,
  );

  it(
    "makes a report over Ana's time, edits it twice and compares version 1 with version 3",
    async () => {
      await nav('Reports').click();
      await until(() => heading(page)).toBe('Reports');
      await checkScreen(page, 'journey/reports-empty');
      await page.getByRole('link', { name: 'New report' }).click();
      const form = page.getByRole('form', { name: 'New report' });
      await form.getByLabel('Template').selectOption({ label: 'Timesheet' });
      await form.getByLabel('Period').selectOption({ label: 'Dates…' });
      await form.getByLabel('From').fill('2026-10-01');
      await form.getByLabel('To (inclusive)').fill('2026-10-31');
      await form
        .getByRole('group', { name: /Also include/ })
        .getByLabel(PEOPLE.ana.name)
        .check();
      const preview = page.getByRole('region', { name: 'Preview' });
      await until(() => preview.textContent()).toContain('Homepage hero, second pass');
      await form.getByLabel('Name', { exact: true }).fill('Acme in October');
      await until(() => preview.getAttribute('aria-busy')).toBe('false');
      await checkScreen(page, 'journey/report-new');
      await form.getByRole('button', { name: 'Create report' }).click();
      await until(() => heading(page)).toBe('Acme in October v1');
      reportId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
      const me = await get<{ id: string }>('/api/v1/me');
      const anaId = (await get<{ id: string; email: string }[]>('/api/v1/users')).find((u) => u.email === PEOPLE.ana.email)?.id;
      const report = await get<{ filters: { userIds: string[]; workspaceIds: string[] } }>(`/api/v1/reports/${reportId}`);
      expect(report.filters).toMatchObject({ workspaceIds: [workspaceId], userIds: [me.id, anaId] });
      await until(() => page.getByRole('region', { name: 'Document' }).textContent()).toContain('Unassigned reading');
      await checkScreen(page, 'journey/report-v1');

      for (const [field, value, version] of [
        ['Note (optional, Markdown)', 'Checked with Ana.', 2],
        ['Name', 'Acme, October 2026', 3],
      ] as const) {
        await page.getByRole('link', { name: 'Edit', exact: true }).click();
        const edit = page.getByRole('form', { name: 'Edit report' });
        await until(() => edit.getByLabel(PEOPLE.ana.name).isChecked()).toBe(true);
        await edit.getByLabel(field, { exact: true }).fill(value);
        await until(() => page.getByRole('region', { name: 'Preview' }).getAttribute('aria-busy')).toBe('false');
        if (version === 2) await checkScreen(page, 'journey/report-edit');
        await edit.getByRole('button', { name: 'Save as a new version' }).click();
        await until(() => heading(page)).toMatch(new RegExp(` v${version}$`));
      }
      expect(await heading(page)).toBe('Acme, October 2026 v3');
      const versions = await get<{ version: number }[]>(`/api/v1/reports/${reportId}/versions`);
      expect(versions.map((v) => v.version).sort()).toEqual([1, 2, 3]);

      const history = page.getByRole('region', { name: 'Versions', exact: true });
      await until(() => history.getByRole('table').getByRole('row').count()).toBe(4);
      await history.getByLabel('Compare', { exact: true }).selectOption({ label: 'Version 1' });
      await history.getByLabel('with', { exact: true }).selectOption({ label: 'Version 3' });
      await history.getByRole('button', { name: 'Show changes' }).click();
      const changes = page.getByRole('region', { name: 'Changes from version 1 to version 3' });
      await until(() => changes.count()).toBe(1);
      await until(() => changes.locator('ins').allTextContents()).toContain('+Added: Checked with Ana.\n');
      expect(await changes.textContent()).toContain('Acme, October 2026');
      await checkScreen(page, 'journey/report-changes');
    },
    STEP_TIMEOUT,
  );

  it(
    'sends the current version to Ana with a message',
    async () => {
      const send = page.getByRole('region', { name: 'Send version 3' });
      await send.getByLabel(PEOPLE.ana.name).check();
      await send.getByLabel('Message (optional)').fill('Ana, please check your hours.');
      await send.getByRole('button', { name: 'Send to 1' }).click();
      await until(() => send.getByRole('status').textContent()).toBe('Sent version 3 to 1 teammate.');
      await until(() => page.getByRole('region', { name: 'Sent' }).textContent()).toContain('Read by 0 of 1');
      const sends = await get<{ version: number; recipients: { name: string }[] }[]>(`/api/v1/reports/${reportId}/sends`);
      expect(sends).toMatchObject([{ version: 3, recipients: [{ name: PEOPLE.ana.name }] }]);
      await checkScreen(page, 'journey/report-sent');
    },
    STEP_TIMEOUT,
  );

  it(
    'lets Ana set her password from her link, read the report and comment; the admin sees the comment',
    async () => {
      const { context, page: ana } = await newPage(browser, cspErrors, { width: WIDE });
      await ana.goto(anaLink);
      await until(() => heading(ana)).toBe('Set your password');
      await ana.getByLabel('New password').fill(PASSWORD);
      await ana.getByLabel('Repeat the password').fill(PASSWORD);
      await ana.getByRole('button', { name: 'Set password and sign in' }).click();
      await until(() => heading(ana)).toBe('Inbox');
      // A member gets no getting-started checklist; the report waits in the inbox.
      const message = ana.getByRole('link', { name: /Acme, October 2026/ });
      await until(() => message.count()).toBe(1);
      expect(await ana.getByRole('region', { name: 'Getting started' }).count()).toBe(0);
      await checkScreen(ana, 'journey/ana-inbox');

      await message.click();
      await until(() => heading(ana)).toBe('Acme, October 2026 v3');
      expect(await ana.locator('blockquote').textContent()).toBe('Ana, please check your hours.');
      expect(await ana.locator('article').first().textContent()).toContain('Homepage hero, second pass');
      await ana.getByLabel('Add a comment').fill(COMMENT);
      await ana.getByRole('button', { name: 'Comment' }).click();
      await until(() => ana.getByRole('listitem').filter({ hasText: COMMENT }).count()).toBe(1);
      await checkScreen(ana, 'journey/ana-message');
      await context.close();

      const versions = await get<{ version: number; reportContentId: string }[]>(`/api/v1/reports/${reportId}/versions`);
      const v3 = versions.find((v) => v.version === 3)?.reportContentId ?? '';
      const discussion = await get<{ comments: { body: string; authorName: string }[] }>(`/api/v1/report-contents/${v3}/discussion`);
      expect(discussion.comments).toMatchObject([{ body: COMMENT }]);

      await page.reload();
      await until(() => heading(page)).toBe('Acme, October 2026 v3');
      await until(() => page.getByRole('region', { name: 'Discussion' }).textContent()).toContain(COMMENT);
      await until(() => page.getByRole('region', { name: 'Sent' }).textContent()).toContain('Read by 1 of 1');
      await checkScreen(page, 'journey/report-discussion');
    },
    STEP_TIMEOUT,
  );

  it(
    'mints a passcode link that a client opens on a phone',
    async () => {
      const links = page.getByRole('region', { name: 'Public links' });
      await links.getByLabel('Passcode (optional)').fill('open sesame');
      await links.getByRole('button', { name: 'Create link' }).click();
      const link = links.getByRole('listitem').first();
      await until(() => link.textContent()).toContain('Passcode');
      shareUrl = (await link.getByRole('link').textContent()) ?? '';
      expect(shareUrl).toMatch(new RegExp(`^${base}/share/[A-Za-z0-9_-]{22}$`));
      await checkScreen(page, 'journey/report-link');

      const client = await newPage(browser, cspErrors, { width: 390 });
      await client.page.goto(shareUrl);
      await until(() => client.page.getByLabel(/passcode/i).count()).toBe(1);
      await checkScreen(client.page, 'journey/share-passcode');
      await client.page.getByLabel(/passcode/i).fill('open sesame');
      await client.page.getByRole('button').click();
      await until(() => heading(client.page)).toBe('Acme, October 2026');
      expect(await client.page.locator('body').textContent()).toContain('Homepage hero, second pass');
      await checkScreen(client.page, 'journey/share-page');
      await client.context.close();
    },
    STEP_TIMEOUT,
  );

  it(
    'deletes one time entry on the Time screen after a confirmation',
    async () => {
      await nav('Time').click();
      await until(() => heading(page)).toBe('Time');
      const row = page.locator('table.entries tbody tr').filter({ hasText: 'Backfill job' });
      await until(() => row.count()).toBe(1);
      await checkScreen(page, 'journey/time');
      await row.getByRole('button', { name: /^Delete/ }).click();
      await until(() => row.getByRole('button', { name: 'Delete this entry' }).count()).toBe(1);
      await checkScreen(page, 'journey/time-confirm');
      await row.getByRole('button', { name: 'Delete this entry' }).click();
      await until(() => row.count()).toBe(0);
      await until(() => page.getByRole('status').filter({ hasText: 'Deleted the entry' }).count()).toBe(1);
      const left = await entries();
      expect(left).toHaveLength(5);
      expect(left.map((e) => e.description)).not.toContain('Backfill job');
      await checkScreen(page, 'journey/time-deleted');
    },
    STEP_TIMEOUT,
  );

  it('broke no Content-Security-Policy rule on any page', () => {
    expect(cspErrors).toEqual([]);
  });
});
