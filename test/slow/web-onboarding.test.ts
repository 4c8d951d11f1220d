/**
 * From an empty instance to a team, in Chromium (docs/web.md "Workspaces, projects and people"):
 * the instance admin follows a set-password link, sees the getting-started checklist, creates a
 * workspace, adds two people in Settings → People, makes them members and one of them an admin,
 * creates a project and puts a member on it; the checklist ticks what was done. A plain member
 * then sees the same screens without the controls the API would refuse them. Every new screen is
 * checked with axe-core (no serious or critical violation) at 1440 and 390 px, and at 390 px the
 * page must not scroll sideways. Screenshots only when SCREENSHOTS_DIR is set. Waits poll for what
 * a user would see, never the clock.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  axeViolations,
  hasChromium,
  launchBrowser,
  newPage as openPage,
  PASSWORD,
  passwordLink as mintPasswordLink,
  releaseBrowser,
  SCREENSHOTS,
  STEP_TIMEOUT,
  until,
} from '../helpers/browser.js';
import { freePort } from '../helpers/server-process.js';
import { buildTestApp, type TestContext } from '../helpers/test-app.js';

const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/**
 * Checks the screen as it is now at 1440 px and at 390 px: axe-core at both, no sideways scroll
 * on the phone, a screenshot of each when asked for. Leaves the page at 1440 px.
 */
async function screen(page: Page, name: string): Promise<void> {
  expect(await axeViolations(page), `axe on ${name} at 1440 px`).toEqual([]);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await until(() => page.evaluate('window.innerWidth')).toBe(PHONE.width);
  await until(() => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  expect(await axeViolations(page), `axe on ${name} at 390 px`).toEqual([]);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}-phone.png`, fullPage: true });
  await page.setViewportSize(WIDE);
  await until(() => page.evaluate('window.innerWidth')).toBe(WIDE.width);
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

describe.skipIf(!hasChromium)('onboarding an empty instance in Chromium', () => {
  let t: TestContext;
  let browser: Browser;
  let base: string;
  let admin: { id: string; email: string; name: string };
  let page: Page;
  let workspaceId: string;
  let projectId: string;
  const people = { ana: { name: 'Ana Souza', email: 'ana@example.com' }, ben: { name: 'Ben Okafor', email: 'ben@example.com' } };
  const cspErrors: string[] = [];

  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

  const newPage = async (): Promise<Page> => (await openPage(browser, cspErrors, { width: WIDE.width })).page;
  /** A set-password link minted through the API with the bootstrap admin's token, as after a first start. */
  const passwordLink = (userId: string) => mintPasswordLink(t, base, userId);

  async function userId(email: string): Promise<string> {
    const users = (await t.get('/api/v1/users')).body as { id: string; email: string }[];
    const found = users.find((u) => u.email === email);
    if (!found) throw new Error(`no user ${email}`);
    return found.id;
  }

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await buildTestApp({ config: { publicBaseUrl: base } });
    await t.app.listen({ port, host: '127.0.0.1' });
    admin = (await t.get('/api/v1/me')).body;
    // Only the bootstrap admin exists: nothing else in the database.
    expect((await t.get('/api/v1/users')).body).toHaveLength(1);
    expect((await t.get('/api/v1/workspaces')).body).toEqual([]);
    browser = await launchBrowser();
  }, STEP_TIMEOUT);

  afterAll(async () => {
    await releaseBrowser(browser);
    await t.close();
  });

  it(
    'signs the instance admin in with a set-password link and shows the checklist',
    async () => {
      page = await newPage();
      await page.goto(await passwordLink(admin.id));
      await until(() => heading(page)).toBe('Set your password');
      await page.getByLabel('New password').fill(PASSWORD);
      await page.getByLabel('Repeat the password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      await until(() => heading(page)).toBe('Inbox');
      const checklist = page.getByRole('region', { name: 'Getting started' });
      await until(() => checklist.textContent()).toContain('0 of 6 done');
      const steps = checklist.getByRole('listitem');
      expect(await steps.allTextContents()).toEqual([
        expect.stringMatching(/To do: Create a workspace/),
        expect.stringMatching(/To do: Add people/),
        expect.stringMatching(/To do: Add a project and its members/),
        expect.stringMatching(/To do: Log or import time/),
        expect.stringMatching(/To do: Make the first report/),
        expect.stringMatching(/To do: Send or share it/),
      ]);
      await screen(page, 'onboarding-checklist');
    },
    STEP_TIMEOUT,
  );

  it(
    'creates a workspace from the empty list, refusing an empty name in place',
    async () => {
      await page.getByRole('region', { name: 'Getting started' }).getByRole('link', { name: 'Create a workspace' }).click();
      await until(() => heading(page)).toBe('Workspaces');
      await until(() => page.locator('main').textContent()).toContain('You are in no workspace yet');
      await screen(page, 'workspaces-empty');

      const form = page.getByRole('form', { name: 'Create a workspace' });
      expect(await form.getAttribute('novalidate')).not.toBeNull();
      await form.getByRole('button', { name: 'Create workspace' }).click();
      await until(() => page.getByRole('region', { name: 'Create a workspace' }).getByRole('alert').textContent()).toBe(
        'Give the workspace a name.',
      );
      expect((await t.get('/api/v1/workspaces')).body).toEqual([]);

      await form.getByLabel('Workspace name').fill('Acme');
      await form.getByRole('button', { name: 'Create workspace' }).click();
      await until(() => heading(page)).toBe('Acme');
      const workspaces = (await t.get('/api/v1/workspaces')).body as { id: string; name: string; role: string }[];
      expect(workspaces.map((w) => [w.name, w.role])).toEqual([['Acme', 'owner']]);
      workspaceId = workspaces[0]?.id ?? '';
      expect(new URL(page.url()).pathname).toBe(`/app/workspaces/${workspaceId}`);
      const members = page.getByRole('region', { name: 'Members' });
      await until(() => members.textContent()).toContain('Everyone with an account is already a member');
      await screen(page, 'workspace-new');

      // A rename, shown at once.
      const rename = page.getByRole('form', { name: 'Rename the workspace' });
      await rename.getByLabel('Workspace name').fill('Acme Studio');
      await rename.getByRole('button', { name: 'Rename' }).click();
      await until(() => heading(page)).toBe('Acme Studio');
      expect((await t.get(`/api/v1/workspaces/${workspaceId}`)).body.name).toBe('Acme Studio');
    },
    STEP_TIMEOUT,
  );

  it(
    'adds two people in Settings → People',
    async () => {
      await nav('Settings').click();
      const section = page.getByRole('region', { name: 'People' });
      for (const person of [people.ana, people.ben]) {
        await section.getByLabel('Name').fill(person.name);
        await section.getByLabel('Email').fill(person.email);
        await section.getByRole('button', { name: 'Add person' }).click();
        await until(() => section.getByRole('listitem').filter({ hasText: person.email }).count()).toBe(1);
      }
      expect((await t.get('/api/v1/users')).body).toHaveLength(3);
    },
    STEP_TIMEOUT,
  );

  it(
    'makes them members of the workspace and one of them an admin',
    async () => {
      await nav('Workspaces').click();
      await page.getByRole('link', { name: 'Acme Studio' }).click();
      await until(() => heading(page)).toBe('Acme Studio');
      const form = page.getByRole('form', { name: 'Add a member' });
      // Nobody chosen: the app's own message, nothing sent.
      await form.getByRole('button', { name: 'Add member' }).click();
      const members = page.getByRole('region', { name: 'Members' });
      await until(() => members.getByRole('alert').textContent()).toBe('Choose the person to add.');
      // Only owners give the owner role; the admin acts as an owner in every workspace.
      expect(await form.getByLabel('Role').locator('option').allTextContents()).toEqual(['Member', 'Admin', 'Owner']);

      for (const person of [people.ana, people.ben]) {
        await form.getByLabel('Person').selectOption({ label: `${person.name} (${person.email})` });
        await form.getByRole('button', { name: 'Add member' }).click();
        await until(() => members.getByRole('status').textContent()).toBe(`${person.name} is now a member.`);
      }
      await until(() => members.getByRole('list', { name: 'Members' }).getByRole('listitem').count()).toBe(3);
      await until(() => members.textContent()).toContain('Everyone with an account is already a member');

      const anaRole = members.getByRole('form', { name: `Role of ${people.ana.name}` });
      await anaRole.getByLabel(`Role of ${people.ana.name}`).selectOption('admin');
      await anaRole.getByRole('button', { name: /Save role/ }).click();
      await until(async () => {
        const list = (await t.get(`/api/v1/workspaces/${workspaceId}/members`)).body as { name: string; role: string }[];
        return Object.fromEntries(list.map((m) => [m.name, m.role]));
      }).toEqual({ [admin.name]: 'owner', [people.ana.name]: 'admin', [people.ben.name]: 'member' });
      await screen(page, 'workspace-members');

      // The API decides: the last owner cannot leave, and its detail shows in the row.
      const own = members.getByRole('listitem').filter({ hasText: `${admin.name} (you)` });
      await own.getByRole('button', { name: 'Leave workspace' }).click();
      await own.getByRole('button', { name: 'Really leave' }).click();
      await until(() => own.getByRole('alert').textContent()).toContain('A workspace must keep at least one owner');
      expect(((await t.get(`/api/v1/workspaces/${workspaceId}/members`)).body as unknown[]).length).toBe(3);
    },
    STEP_TIMEOUT,
  );

  it(
    'creates a project and puts a member on it',
    async () => {
      const projects = page.getByRole('region', { name: 'Projects' });
      await until(() => projects.textContent()).toContain('No projects yet. Create one below');
      const form = page.getByRole('form', { name: 'Create a project' });
      await form.getByRole('button', { name: 'Create project' }).click();
      await until(() => projects.getByRole('alert').textContent()).toBe('Give the project a name.');
      await form.getByLabel('Project name').fill('Website');
      await form.getByRole('button', { name: 'Create project' }).click();
      await until(() => heading(page)).toBe('Website');
      const created = (await t.get(`/api/v1/workspaces/${workspaceId}/projects`)).body as { id: string; name: string }[];
      expect(created.map((p) => p.name)).toEqual(['Website']);
      projectId = created[0]?.id ?? '';
      const members = page.getByRole('region', { name: 'Members' });
      await until(() => members.textContent()).toContain('Nobody is on this project yet');
      await screen(page, 'project-empty');

      const add = page.getByRole('form', { name: 'Add a member' });
      await add.getByRole('button', { name: 'Add to project' }).click();
      await until(() => members.getByRole('alert').textContent()).toBe('Choose the person to add.');
      await add.getByLabel('Person').selectOption({ label: `${people.ben.name} (${people.ben.email})` });
      await add.getByRole('button', { name: 'Add to project' }).click();
      await until(() => members.getByRole('list', { name: 'Project members' }).textContent()).toContain(people.ben.name);
      expect((await t.get(`/api/v1/projects/${projectId}/members`)).body).toEqual([
        { userId: await userId(people.ben.email), name: people.ben.name },
      ]);
      await screen(page, 'project');
    },
    STEP_TIMEOUT,
  );

  it(
    'ticks the steps done from the data, and stays hidden once hidden',
    async () => {
      await nav('Inbox').click();
      const checklist = page.getByRole('region', { name: 'Getting started' });
      await until(() => checklist.textContent()).toContain('3 of 6 done');
      expect(await checklist.getByRole('listitem').allTextContents()).toEqual([
        expect.stringMatching(/Done: Create a workspace/),
        expect.stringMatching(/Done: Add people/),
        expect.stringMatching(/Done: Add a project and its members/),
        expect.stringMatching(/To do: Log or import time/),
        expect.stringMatching(/To do: Make the first report/),
        expect.stringMatching(/To do: Send or share it/),
      ]);
      await screen(page, 'onboarding-progress');
      await checklist.getByRole('button', { name: 'Hide this checklist' }).click();
      await until(() => checklist.count()).toBe(0);
      await page.reload();
      await until(() => heading(page)).toBe('Inbox');
      // The inbox has loaded (its empty state) and the checklist stays away in this browser.
      await until(() => page.locator('main').textContent()).toContain('Nothing here yet');
      expect(await checklist.count()).toBe(0);
    },
    STEP_TIMEOUT,
  );

  it(
    'shows a plain member the workspace and project without the controls, and no checklist',
    async () => {
      const benId = await userId(people.ben.email);
      const link = await passwordLink(benId);
      const redeemed = await t.request('POST', '/api/v1/password-links/redeem', {
        token: null,
        body: { token: new URL(link).hash.slice(1), password: PASSWORD },
      });
      expect(redeemed.status).toBe(201);
      const ben = await newPage();
      await ben.goto(`${base}/app/`);
      await ben.getByLabel('Email').fill(people.ben.email);
      await ben.getByLabel('Password').fill(PASSWORD);
      await ben.getByRole('button', { name: 'Sign in' }).click();
      await until(() => heading(ben)).toBe('Inbox');
      expect(await ben.getByRole('region', { name: 'Getting started' }).count()).toBe(0);

      await ben.goto(`${base}/app/workspaces/${workspaceId}`);
      await until(() => heading(ben)).toBe('Acme Studio');
      const members = ben.getByRole('region', { name: 'Members' });
      await until(() => members.getByRole('list', { name: 'Members' }).getByRole('listitem').count()).toBe(3);
      expect(await ben.locator('main').textContent()).toContain('Your role: Member');
      expect(await ben.locator('main form').count()).toBe(0);
      // Only leaving is offered, on Ben's own row.
      expect(await members.getByRole('button').allTextContents()).toEqual(['Leave workspace']);
      const projects = ben.getByRole('region', { name: 'Projects' });
      await until(() => projects.getByRole('link', { name: 'Website' }).count()).toBe(1);
      expect(await projects.textContent()).toContain('You are on it');
      await screen(ben, 'workspace-as-member');

      await projects.getByRole('link', { name: 'Website' }).click();
      await until(() => heading(ben)).toBe('Website');
      const projectMembers = ben.getByRole('region', { name: 'Members' });
      await until(() => projectMembers.textContent()).toContain(`${people.ben.name} (you)`);
      expect(await projectMembers.getByRole('button').count()).toBe(0);
      expect(await ben.locator('main form').count()).toBe(0);
      await ben.context().close();
    },
    STEP_TIMEOUT,
  );

  it('broke no Content-Security-Policy rule on any page', () => {
    expect(cspErrors).toEqual([]);
  });
});
