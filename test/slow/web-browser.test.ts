/**
 * The web app in Chromium, end to end (docs/web.md): a set-password link, time entries, a report
 * with its live preview, an edit, a send with a message, the teammate's inbox with a comment and a
 * reaction, a passcode link opened by a client and then revoked, and template editing by an admin.
 * Every screen is checked with axe-core (no serious or critical violation); `npm run
 * docs:screenshots` (SCREENSHOTS_DIR) also writes each screen's picture for docs/web/. Playwright waits for what a user would see, never for
 * the clock. Browser-side code is passed to page.evaluate as strings (no DOM types here).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hasChromium,
  launchBrowser,
  newPage as openPage,
  PASSWORD,
  passwordLink as mintPasswordLink,
  releaseBrowser,
  screen,
  setPassword as setUserPassword,
  signIn as signInAt,
  STEP_TIMEOUT,
  until,
} from '../helpers/browser.js';
import { addMember, newProject, newWorkspace } from '../helpers/factories.js';
import { freePort } from '../helpers/server-process.js';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

describe.skipIf(!hasChromium)('the web app in Chromium', () => {
  let t: TestContext;
  let browser: Browser;
  let base: string;
  let owner: TestUser;
  let teammate: TestUser;
  let workspaceId: string;
  let ownerPage: Page;
  let teammateContext: BrowserContext;
  let shareUrl: string;
  let reportUrl: string;
  const cspErrors: string[] = [];

  const newPage = (options: { width?: number; dark?: boolean } = {}) => openPage(browser, cspErrors, options);
  const passwordLink = (userId: string) => mintPasswordLink(t, base, userId);
  const setPassword = (userId: string) => setUserPassword(t, base, userId);
  const signIn = (page: Page, email: string) => signInAt(page, base, email);

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await buildTestApp({ config: { publicBaseUrl: base } });
    await t.app.listen({ port, host: '127.0.0.1' });
    owner = await newUser(t, { name: 'Olivia Owner' });
    teammate = await newUser(t, { name: 'Tomás Teammate' });
    workspaceId = (await newWorkspace(t, owner, 'Acme')).id;
    await addMember(t, workspaceId, teammate, 'member', owner.token);
    const project = await newProject(t, workspaceId, owner.token, 'Website');
    for (const [day, description] of [
      ['06', 'Wireframes'],
      ['07', 'Copy review'],
    ] as const) {
      const res = await t.post(
        '/api/v1/time-entries',
        { workspaceId, projectId: project.id, start: `2026-10-${day}T09:00:00Z`, minutes: 120, description, tags: ['design'] },
        owner.token,
      );
      expect(res.status).toBe(201);
    }
    browser = await launchBrowser();
  }, STEP_TIMEOUT);

  afterAll(async () => {
    await releaseBrowser(browser);
    await t.close();
  });

  it(
    'signs a new user in with a set-password link',
    async () => {
      ({ page: ownerPage } = await newPage());
      await ownerPage.goto(await passwordLink(owner.id));
      await until(() => ownerPage.getByRole('heading', { level: 1 }).textContent()).toBe('Set your password');
      await screen(ownerPage, 'set-password');
      await ownerPage.getByLabel('New password').fill(PASSWORD);
      await ownerPage.getByLabel('Repeat the password').fill(`${PASSWORD}!`);
      await ownerPage.getByRole('button', { name: 'Set password and sign in' }).click();
      await until(() => ownerPage.getByRole('alert').textContent()).toBe('The two passwords differ.');
      await ownerPage.getByLabel('New password').fill(PASSWORD);
      await ownerPage.getByLabel('Repeat the password').fill(PASSWORD);
      await ownerPage.getByRole('button', { name: 'Set password and sign in' }).click();
      await until(() => ownerPage.getByRole('heading', { level: 1 }).textContent()).toBe('Inbox');
      expect(new URL(ownerPage.url()).pathname).toBe('/app/inbox');
      await screen(ownerPage, 'inbox-empty');
    },
    STEP_TIMEOUT,
  );

  it(
    'can be installed: its manifest reads without errors and Chromium finds nothing against installing it',
    async () => {
      const { page } = await newPage();
      await page.goto(`${base}/app/`);
      await until(() => page.getByRole('heading', { level: 1 }).count()).toBe(1);
      const cdp = await page.context().newCDPSession(page);
      const manifest = await cdp.send('Page.getAppManifest');
      expect(manifest.url).toBe(`${base}/app/manifest.webmanifest`);
      expect(manifest.errors).toEqual([]);
      // A Playwright context is private, which the full browser names as a reason; nothing else may be.
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors.filter((error) => error.errorId !== 'in-incognito')).toEqual([]);
      await page.close();
    },
    STEP_TIMEOUT,
  );

  it(
    'adds and edits a time entry',
    async () => {
      await ownerPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Time', exact: true }).click();
      await until(() => ownerPage.getByRole('heading', { level: 1 }).textContent()).toBe('Time');
      const form = ownerPage.getByRole('form', { name: 'Add an entry' });
      await form.getByLabel('Project').selectOption({ label: 'Website' });
      await form.getByLabel('Start').fill('2026-10-08T10:00');
      await form.getByLabel('Minutes').fill('90');
      await form.getByLabel('Description').fill('Design review');
      await form.getByLabel('Tags (comma-separated)').fill('design, meeting');
      await form.getByRole('button', { name: 'Add entry' }).click();
      const row = ownerPage.getByRole('row').filter({ hasText: 'Design review' });
      await until(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain('1:30');

      await row.getByRole('button', { name: /Edit/ }).click();
      const edit = ownerPage.getByRole('form', { name: 'Edit entry' });
      await edit.getByLabel('Minutes').fill('100');
      await edit.getByRole('button', { name: 'Save entry' }).click();
      await until(() => row.textContent()).toContain('1:40');
      await screen(ownerPage, 'time-entries');
    },
    STEP_TIMEOUT,
  );

  it(
    'creates a report with a live preview, then edits it',
    async () => {
      await ownerPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports', exact: true }).click();
      await ownerPage.getByRole('link', { name: 'New report' }).click();
      const form = ownerPage.getByRole('form', { name: 'New report' });
      await form.getByLabel('Template').selectOption({ label: 'Timesheet' });
      await form.getByLabel('Period').selectOption({ label: 'Dates…' });
      await form.getByLabel('From').fill('2026-10-01');
      await form.getByLabel('To (inclusive)').fill('2026-10-31');
      const preview = ownerPage.getByRole('region', { name: 'Preview' });
      await until(() => preview.textContent()).toContain('Design review');
      expect(await preview.textContent()).toContain('Wireframes');
      // The name follows the template's suggestion until the user types one.
      await until(() => form.getByLabel('Name', { exact: true }).inputValue()).not.toBe('');
      await screen(ownerPage, 'report-new');
      await form.getByRole('button', { name: 'Create report' }).click();
      await until(() => ownerPage.getByRole('heading', { level: 1 }).textContent()).toMatch(/v1$/);
      reportUrl = ownerPage.url();

      await ownerPage.getByRole('link', { name: 'Edit' }).click();
      const edit = ownerPage.getByRole('form', { name: 'Edit report' });
      await edit.getByLabel('Name', { exact: true }).fill('October timesheet');
      await edit.getByLabel('Note (optional, Markdown)').fill('Checked with the client.');
      await edit.getByRole('button', { name: 'Save as a new version' }).click();
      await until(() => ownerPage.getByRole('heading', { level: 1 }).textContent()).toBe('October timesheet v2');
    },
    STEP_TIMEOUT,
  );

  it(
    'shows the version history, an earlier version and what the edit changed',
    async () => {
      const versions = ownerPage.getByRole('region', { name: 'Versions', exact: true });
      const rows = versions.getByRole('table').getByRole('row');
      await until(() => rows.count()).toBe(3);
      expect(await rows.nth(1).textContent()).toMatch(/^2/);

      // Keyboard only: the button for version 1, then focus lands on the version shown.
      await versions.getByRole('button', { name: 'Show version 1' }).focus();
      await ownerPage.keyboard.press('Enter');
      const shown = ownerPage.getByRole('heading', { level: 3, name: /^Version 1: / });
      await until(() => shown.count()).toBe(1);
      expect(await ownerPage.evaluate('document.activeElement?.textContent')).toBe(await shown.textContent());
      expect(await versions.getByRole('button', { name: 'Show version 1' }).getAttribute('aria-expanded')).toBe('true');

      expect(await versions.getByLabel('Compare', { exact: true }).inputValue()).not.toBe(
        await versions.getByLabel('with', { exact: true }).inputValue(),
      );
      await versions.getByRole('button', { name: 'Show changes' }).click();
      const changes = ownerPage.getByRole('region', { name: 'Changes from version 1 to version 2' });
      await until(() => changes.count()).toBe(1);
      const added = changes.locator('ins');
      await until(() => added.allTextContents()).toContain('+Added: Checked with the client.\n');
      expect(await changes.textContent()).toContain('Total:');
      await screen(ownerPage, 'report-history');
    },
    STEP_TIMEOUT,
  );

  it(
    'sends the report to a teammate with a message',
    async () => {
      const send = ownerPage.getByRole('region', { name: 'Send version 2' });
      await send.getByLabel('Search people').fill('tomás');
      await send.getByLabel('Tomás Teammate').check();
      await send.getByLabel('Message (optional)').fill('Please check the hours before Friday.');
      await send.getByRole('button', { name: 'Send to 1' }).click();
      await until(() => send.getByRole('status').textContent()).toBe('Sent version 2 to 1 teammate.');
      const history = ownerPage.getByRole('region', { name: 'Sent' });
      await until(() => history.textContent()).toContain('Read by 0 of 1');
    },
    STEP_TIMEOUT,
  );

  it(
    'lets the teammate read the inbox, comment and react',
    async () => {
      await setPassword(teammate.id);
      const opened = await newPage();
      teammateContext = opened.context;
      const page = opened.page;
      // The app's files reach the browser as their compressed copies (docs/web.md "Serving and security").
      const encodings = new Map<string, string | undefined>();
      page.on('response', (res) => {
        if (new URL(res.url()).pathname.startsWith('/app/')) encodings.set(new URL(res.url()).pathname, res.headers()['content-encoding']);
      });
      await page.goto(`${base}/app/`);
      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
      expect(encodings.get('/app/')).toBe('br');
      const scripts = [...encodings].filter(([path]) => path.endsWith('.js'));
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter(([, encoding]) => encoding !== 'br')).toEqual([]);
      await screen(page, 'sign-in');
      await page.getByLabel('Email').fill(teammate.email);
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await until(() => page.getByRole('alert').textContent()).toBe('The email or the password is wrong.');
      await signIn(page, teammate.email);

      const inboxLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Inbox/ });
      await until(() => inboxLink.textContent()).toBe('Inbox1 unread');
      await screen(page, 'inbox');
      await page.getByRole('link', { name: /October timesheet/ }).click();
      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('October timesheet v2');
      expect(await page.locator('blockquote').textContent()).toBe('Please check the hours before Friday.');
      expect(await page.locator('article').textContent()).toContain('Design review');
      await until(() => inboxLink.textContent()).toBe('Inbox');

      await page.getByLabel('Add a comment').fill('Looks **right** to me. <script>window.__pwned=1</script>');
      await page.getByRole('button', { name: 'Comment' }).click();
      const comment = page.getByRole('listitem').filter({ hasText: 'Looks right to me' });
      await until(() => comment.locator('strong', { hasText: 'right' }).count()).toBe(1);
      expect(await comment.textContent()).toContain('<script>window.__pwned=1</script>');
      expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');

      const heart = page.getByRole('group', { name: 'Reactions to the report' }).getByRole('button', { name: /^Heart/ });
      await heart.click();
      // Shown at once, then confirmed by the server's answer.
      await until(() => heart.getAttribute('aria-pressed')).toBe('true');
      await until(() => heart.getAttribute('aria-label')).toBe('Heart, 1: Tomás Teammate');
      await screen(page, 'inbox-message');
      const stored = await t.get(`/api/v1/inbox`, teammate.token);
      const discussion = await t.get(`/api/v1/report-contents/${stored.body[0].reportContentId}/discussion`, teammate.token);
      expect(discussion.body.reactions).toEqual([{ emoji: 'heart', count: 1, reactedByMe: true, userNames: ['Tomás Teammate'] }]);

      // The same message in dark mode, and on a phone.
      const dark = await teammateContext.browser()?.newContext({ colorScheme: 'dark', viewport: { width: 390, height: 844 } });
      if (!dark) throw new Error('no browser');
      await dark.addCookies(await teammateContext.cookies());
      const phone = await dark.newPage();
      await phone.goto(page.url());
      await until(() => phone.getByRole('heading', { level: 1 }).textContent()).toBe('October timesheet v2');
      await screen(phone, 'inbox-message-dark-phone');
      await dark.close();
    },
    STEP_TIMEOUT,
  );

  it(
    'mints a passcode link that a client opens in a fresh browser, then revokes it',
    async () => {
      await ownerPage.goto(reportUrl);
      const history = ownerPage.getByRole('region', { name: 'Sent' });
      await until(() => history.textContent()).toContain('Read by 1 of 1');
      await until(() => ownerPage.getByRole('region', { name: 'Discussion' }).textContent()).toContain('Looks right to me');

      const links = ownerPage.getByRole('region', { name: 'Public links' });
      await links.getByLabel('Passcode (optional)').fill('open sesame');
      await links.getByLabel('Expires after (days, optional)').fill('30');
      await links.getByRole('button', { name: 'Create link' }).click();
      const link = links.getByRole('listitem').first();
      await until(() => link.textContent()).toContain('Passcode');
      shareUrl = (await link.getByRole('link').textContent()) ?? '';
      expect(shareUrl).toMatch(new RegExp(`^${base}/share/[A-Za-z0-9_-]{22}$`));
      await screen(ownerPage, 'report-page');

      const client = await newPage({ width: 390 });
      await client.page.goto(shareUrl);
      await client.page.getByLabel(/passcode/i).fill('open sesame');
      await client.page.getByRole('button').click();
      await until(() => client.page.getByRole('heading', { level: 1 }).textContent()).toBe('October timesheet');
      await until(() => ownerPage.reload().then(() => link.textContent())).toContain('1 view');

      await link.getByRole('button', { name: 'Revoke' }).click();
      await until(() => link.textContent()).toContain('Revoked');
      const gone = await client.page.goto(shareUrl);
      expect(gone?.status()).toBe(404);
      await client.context.close();
    },
    STEP_TIMEOUT,
  );

  it(
    'lists reports with filters and paging, and shows settings',
    async () => {
      await ownerPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports', exact: true }).click();
      await until(() => ownerPage.getByRole('region', { name: 'Reports' }).textContent()).toContain('October timesheet');
      expect(await ownerPage.getByRole('navigation', { name: 'Pages' }).textContent()).toContain('1–1 of 1');
      await screen(ownerPage, 'reports');

      await ownerPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings', exact: true }).click();
      await until(() => ownerPage.getByRole('region', { name: 'Sessions' }).textContent()).toContain('(this one)');
      await ownerPage.getByLabel('Token name').fill('CI export');
      await ownerPage.getByRole('button', { name: 'Create token' }).click();
      await until(() => ownerPage.locator('.once code').textContent()).toMatch(/^chr_/);
      await screen(ownerPage, 'settings');
    },
    STEP_TIMEOUT,
  );

  it(
    'lets an instance admin edit a template, with its errors and a preview',
    async () => {
      const admin = (await t.get('/api/v1/me')).body;
      await setPassword(admin.id);
      const space = (await t.post('/api/v1/workspaces', { name: 'Admin space' })).body;
      expect(
        (
          await t.post('/api/v1/time-entries', {
            workspaceId: space.id,
            start: new Date(Date.now() - 2 * 86_400_000).toISOString(),
            minutes: 120,
          })
        ).status,
      ).toBe(201);
      const { page } = await newPage();
      await signIn(page, admin.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Templates', exact: true }).click();
      await until(() => page.getByRole('link', { name: 'Timesheet' }).count()).toBe(1);
      await screen(page, 'templates');
      await page.getByRole('button', { name: 'New template' }).click();
      const form = page.getByRole('form', { name: 'Edit template' });
      await form.getByLabel('Name', { exact: true }).fill('Hours only');
      // The preview follows the text as typed, before anything is saved: first its error, with the line.
      const preview = page.getByRole('region', { name: 'Preview' });
      await form.getByLabel('Body (Liquid)').fill('# Hours\n\n{% for e in entries %}\n- {{ e.minutes }}\n');
      await until(() => preview.getByRole('alert').textContent()).toMatch(/line \d+/i);
      // Saving it is refused the same way.
      await form.getByRole('button', { name: 'Save' }).click();
      await until(() => form.getByRole('alert').textContent()).toMatch(/line \d+/i);
      await form.getByLabel('Body (Liquid)').fill('# Hours\n\n{% for e in entries %}- {{ e.minutes }} minutes\n{% endfor %}');
      await form.getByLabel('Period').selectOption('last_30_days');
      await until(() => preview.textContent()).toContain('120 minutes');
      expect(await preview.locator('h2, h3').allTextContents()).toContain('Hours');
      expect((await t.get('/api/v1/templates')).body.some((x: { name: string }) => x.name === 'Hours only')).toBe(false);
      await form.getByLabel(/Enabled/).check();
      await form.getByRole('button', { name: 'Save' }).click();
      await until(() => form.getByRole('status').textContent()).toContain('Saved');
      // The heading and the tab name the template by its saved name (it was made as "New template").
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Template “Hours only”');
      expect(await page.title()).toBe('Template “Hours only” · Chronicle');
      await screen(page, 'template-editor');
      expect((await t.get('/api/v1/templates')).body.some((x: { name: string }) => x.name === 'Hours only')).toBe(true);
      await page.context().close();
    },
    STEP_TIMEOUT,
  );

  it('broke no Content-Security-Policy rule on any page', () => {
    expect(cspErrors).toEqual([]);
  });
});
