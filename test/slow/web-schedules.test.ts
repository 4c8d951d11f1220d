/**
 * A report's schedule in Chromium (docs/web.md "The report page"): the owner makes a weekly
 * schedule with a teammate as recipient and reads its next five runs on their own clock, pauses
 * and resumes it, runs it at once and follows the run to its version (the job engine works it),
 * changes it and deletes it; a workspace admin who reads the report sees no Schedule section.
 * axe-core at 1440, 390 and 320 px, no sideways scroll on a phone. The server's clock is pinned,
 * so the next runs are known; waits poll for what a user would see, never the clock.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkScreen,
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
import { newReport } from '../helpers/report-factories.js';
import { freePort } from '../helpers/server-process.js';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

describe.skipIf(!hasChromium)('report schedules in Chromium', () => {
  let t: TestContext;
  let browser: Browser;
  let base: string;
  let owner: TestUser;
  let ana: TestUser;
  let admin: TestUser;
  let reportId: string;
  let context: BrowserContext;
  let page: Page;
  const cspErrors: string[] = [];

  const heading = () => page.getByRole('heading', { level: 1 });
  const panel = () => page.getByRole('region', { name: 'Schedule' });
  const stored = async () => t.get(`/api/v1/reports/${reportId}/schedule`, owner.token);

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // The job engine runs, polling often, so a run-now is worked within a second or two.
    t = await buildTestApp({ config: { publicBaseUrl: base, jobPollSeconds: 0.5, scheduleTickSeconds: 1 }, jobs: true });
    // Wednesday 2 December 2026, 11:00 in Berlin: the next Monday 09:00 is the 7th, and none falls due meanwhile.
    t.clock.set('2026-12-02T10:00:00.000Z');
    await t.app.listen({ port, host: '127.0.0.1' });
    owner = await newUser(t, { name: 'Olivia Owner', timezone: 'Europe/Berlin', locale: 'en-GB' });
    ana = await newUser(t, { name: 'Ana Souza' });
    admin = await newUser(t, { name: 'Walter Admin' });
    const workspaceId = (await newWorkspace(t, owner, 'Acme')).id;
    await addMember(t, workspaceId, ana, 'member', owner.token);
    await addMember(t, workspaceId, admin, 'admin', owner.token);
    const projectId = (await newProject(t, workspaceId, owner.token, 'Website')).id;
    await addProjectMember(t, projectId, ana.id, owner.token);
    const entry = await t.post(
      '/api/v1/time-entries',
      { workspaceId, projectId, start: '2026-11-24T09:00:00Z', minutes: 120, description: 'Wireframes' },
      owner.token,
    );
    expect(entry.status, entry.text).toBe(201);
    reportId = (await newReport(t, owner, [workspaceId], { name: 'Weekly timesheet' })).id;
    await setPassword(t, base, owner.id);
    await setPassword(t, base, admin.id);
    browser = await launchBrowser();
  }, STEP_TIMEOUT);

  afterAll(async () => {
    // Either may be missing when start-up failed part way.
    await releaseBrowser(browser);
    await (t as TestContext | undefined)?.close();
  });

  it(
    'creates a weekly schedule and shows it in words with its next five runs on the owner’s clock',
    async () => {
      ({ context, page } = await newPage(browser, cspErrors, { width: 1440 }));
      await signIn(page, base, owner.email);
      await page.goto(`${base}/app/reports/${reportId}`);
      await until(() => heading().textContent()).toBe('Weekly timesheet v1');
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
      await until(() => panel().textContent()).toContain('Send a new version of this report on its own, every day, week or month.');

      const form = panel().getByRole('form', { name: 'New schedule' });
      await until(() => form.getByLabel('Ana Souza').count()).toBe(1);
      // Weekly on Monday, and last week's entries, are where a new schedule starts.
      expect(await form.getByLabel('Frequency').inputValue()).toBe('weekly');
      expect(await form.getByLabel('Entries from').inputValue()).toBe('last_week');
      // The period follows the frequency until one is chosen.
      await form.getByLabel('Frequency').selectOption({ label: 'Every month' });
      expect(await form.getByLabel('Entries from').inputValue()).toBe('last_month');
      expect(await form.getByLabel('Day of the month').count()).toBe(1);
      await form.getByLabel('Frequency').selectOption({ label: 'Every week' });
      await form.getByLabel('Day', { exact: true }).selectOption({ label: 'Monday' });
      await form.getByLabel('Time').fill('09:00');
      expect(await form.getByLabel('Entries from').inputValue()).toBe('last_week');
      await form.getByLabel('Ana Souza').check();
      await screen(page, 'report-schedule-form');
      await form.getByRole('button', { name: 'Create schedule' }).click();

      await until(() => panel().locator('.schedule-summary').textContent()).toBe(
        "Every Monday at 09:00 (Europe/Berlin), last week's entries, to Ana Souza.",
      );
      expect(await panel().getByRole('status').textContent()).toBe('Schedule created.');
      const next = panel().locator('.next-runs time');
      expect(await next.count()).toBe(5);
      expect(await next.first().getAttribute('datetime')).toBe('2026-12-07T09:00:00.000+01:00');
      expect(await next.first().textContent()).toMatch(/^Monday,? 7 December 2026(,| at) 09:00 (CET|GMT\+1)$/);
      expect(await next.nth(4).getAttribute('datetime')).toBe('2027-01-04T09:00:00.000+01:00');
      const saved = await stored();
      expect(saved.body).toMatchObject({
        frequency: 'weekly',
        weekday: 'monday',
        time: '09:00',
        dateRange: 'last_week',
        recipientUserIds: [ana.id],
        sendToSelf: false,
        active: true,
      });
      expect(await panel().textContent()).toContain('No runs yet.');
      await screen(page, 'report-schedule');
    },
    STEP_TIMEOUT,
  );

  it(
    'pauses and resumes the schedule',
    async () => {
      await panel().getByRole('button', { name: 'Pause' }).click();
      await until(() => panel().getByRole('status').textContent()).toBe('Schedule paused.');
      expect(await panel().locator('.next-runs').count()).toBe(0);
      expect(await panel().textContent()).toContain('No runs until it is resumed.');
      expect((await stored()).body).toMatchObject({ active: false, nextRuns: [] });

      await panel().getByRole('button', { name: 'Resume' }).click();
      await until(() => panel().getByRole('status').textContent()).toBe('Schedule resumed.');
      expect(await panel().locator('.next-runs time').count()).toBe(5);
      expect((await stored()).body).toMatchObject({ active: true, recipientUserIds: [ana.id] });
    },
    STEP_TIMEOUT,
  );

  it(
    'runs it now and follows the run to the version it made',
    async () => {
      await panel().getByRole('button', { name: 'Run now' }).click();
      const run = panel().locator('.runs .item').first();
      await until(() => run.locator('.run-status').textContent()).toBe('Succeeded');
      await until(() => panel().getByRole('status').textContent()).toBe('The run finished: succeeded, version 2.');
      expect(await run.locator('.meta').textContent()).toBe('Run now · Version 2 · delivered to 1 teammate');
      expect(await run.textContent()).toContain('delivered to 1 teammate');
      // The page read the report again: the run's version is the current one.
      await until(() => heading().textContent()).toBe('Weekly timesheet v2');
      await until(() => page.getByRole('region', { name: 'Sent' }).textContent()).toContain('to Ana Souza');
      await screen(page, 'report-schedule-run');

      await run.getByRole('link', { name: 'Version 2' }).click();
      expect(new URL(page.url()).hash).toBe('#versions');
      const versions = page.getByRole('region', { name: 'Versions', exact: true });
      await until(() => versions.getByRole('heading', { level: 3, name: 'Version 2: Weekly timesheet' }).count()).toBe(1);
      const inbox = (await t.get('/api/v1/inbox', ana.token)).body as { reportName: string; version: number }[];
      expect(inbox.map((m) => [m.reportName, m.version])).toEqual([['Weekly timesheet', 2]]);
    },
    STEP_TIMEOUT,
  );

  it(
    'mints a link that follows the newest version, which the next run moves on',
    async () => {
      const links = page.getByRole('region', { name: 'Public links' });
      await links.getByLabel('Always show the newest version').check();
      await links.getByRole('button', { name: 'Create link' }).click();
      const item = links.locator('li.share').first();
      await until(() => item.locator('.meta').textContent()).toContain('Follows the newest version (now 2)');
      const url = (await item.locator('.url a').textContent()) ?? '';
      expect(url).toMatch(/\/share\/[A-Za-z0-9_-]{22}$/);

      const run = await t.post(`/api/v1/reports/${reportId}/schedule/run-now`, {}, owner.token);
      expect(run.status).toBe(202);
      await until(
        async () => ((await t.get(`/api/v1/reports/${reportId}/schedule/runs`, owner.token)).body as { status: string }[])[0]?.status,
      ).toBe('succeeded');
      const reader = await newPage(browser, cspErrors);
      try {
        await reader.page.goto(url);
        await until(() => reader.page.locator('.provenance').textContent()).toContain('Version3');
        expect(await reader.page.locator('p.follows').textContent()).toContain('This link always shows the newest version of the report.');
      } finally {
        await reader.context.close();
      }
    },
    STEP_TIMEOUT,
  );

  it(
    'fits a phone: axe-core and no sideways scroll at 390 and 320 px',
    async () => {
      for (const width of [390, 320]) {
        const sized = await newPage(browser, cspErrors, { width });
        await sized.context.addCookies(await context.cookies());
        await sized.page.goto(`${base}/app/reports/${reportId}#schedule`);
        const schedule = sized.page.getByRole('region', { name: 'Schedule' });
        await until(() => schedule.locator('.next-runs time').count()).toBe(5);
        await until(() => schedule.locator('.runs .run-status').first().textContent()).toBe('Succeeded');
        expect(await scrollsSideways(sized.page), `${width} px`).toBe(false);
        await screen(sized.page, width === 390 ? 'report-schedule-390' : 'report-schedule-320');
        // The form, too.
        await schedule.getByRole('button', { name: 'Edit' }).click();
        await until(() => schedule.getByRole('form', { name: 'Edit the schedule' }).count()).toBe(1);
        expect(await scrollsSideways(sized.page), `form at ${width} px`).toBe(false);
        await screen(sized.page, `report-schedule-form-${width}`);
        await sized.context.close();
      }
    },
    STEP_TIMEOUT,
  );

  it(
    'edits the schedule with the saved values, then deletes it after a confirmation, keeping its history',
    async () => {
      await panel().getByRole('button', { name: 'Edit' }).click();
      const form = panel().getByRole('form', { name: 'Edit the schedule' });
      expect(await form.getByLabel('Day', { exact: true }).inputValue()).toBe('monday');
      expect(await form.getByLabel('Time').inputValue()).toBe('09:00');
      expect(await form.getByLabel('Ana Souza').isChecked()).toBe(true);
      await form.getByLabel('Frequency').selectOption({ label: 'Every month' });
      await form.getByLabel('Day of the month').selectOption({ label: 'Last day' });
      await form.getByLabel('Also send to me').check();
      await form.getByLabel('Message (optional)').fill('The month, as promised.');
      await form.getByRole('button', { name: 'Save schedule' }).click();
      await until(() => panel().locator('.schedule-summary').textContent()).toBe(
        "On the last day of every month at 09:00 (Europe/Berlin), last month's entries, to Ana Souza and you.",
      );
      expect(await panel().locator('.next-runs time').first().getAttribute('datetime')).toBe('2026-12-31T09:00:00.000+01:00');
      expect((await stored()).body).toMatchObject({ frequency: 'monthly', dayOfMonth: 'last', weekday: null, sendToSelf: true });

      await panel().getByRole('button', { name: 'Delete schedule' }).click();
      await panel().getByRole('button', { name: 'Really delete the schedule' }).click();
      await until(() => panel().getByRole('status').textContent()).toBe('Schedule deleted; its runs stay in the history.');
      expect(await panel().getByRole('form', { name: 'New schedule' }).count()).toBe(1);
      expect(await panel().locator('.runs .item').count()).toBe(2);
      expect((await stored()).status).toBe(404);
      await context.close();
    },
    STEP_TIMEOUT,
  );

  it(
    'shows a workspace admin who reads the report no Schedule section',
    async () => {
      const other = await newPage(browser, cspErrors, { width: 1440 });
      await signIn(other.page, base, admin.email);
      await other.page.goto(`${base}/app/reports/${reportId}`);
      await until(() => other.page.getByRole('heading', { level: 1 }).textContent()).toBe('Weekly timesheet v3');
      const nav = other.page.getByRole('navigation', { name: 'On this page' });
      expect(await nav.getByRole('link').allTextContents()).toEqual(['Document', 'Sent', 'Versions', 'Discussion']);
      expect(await other.page.getByRole('region', { name: 'Schedule' }).count()).toBe(0);
      expect(await other.page.locator('#schedule').count()).toBe(0);
      await other.context.close();
    },
    STEP_TIMEOUT,
  );

  it(
    'runs a weekday schedule through the change to summer time, each run at 09:00 on the owner’s clock',
    async () => {
      // The weekly schedule is gone (deleted above), so nothing else falls due as the clock moves months on.
      expect((await t.get(`/api/v1/reports/${reportId}/schedule`, owner.token)).status).toBe(404);
      const workspaceId = (await t.get('/api/v1/workspaces', owner.token)).body[0].id as string;
      const daily = (await newReport(t, owner, [workspaceId], { name: 'Daily log' })).id;
      // Thursday 25 March 2027, 07:00 in Berlin; clocks go forward on Sunday the 28th.
      t.clock.set('2027-03-25T06:00:00.000Z');
      const created = await t.put(
        `/api/v1/reports/${daily}/schedule`,
        { frequency: 'daily', time: '09:00', recipientUserIds: [ana.id] },
        owner.token,
      );
      expect(created.status, created.text).toBe(201);
      const due = [
        '2027-03-25T08:00:00.000Z',
        '2027-03-26T08:00:00.000Z',
        '2027-03-29T07:00:00.000Z',
        '2027-03-30T07:00:00.000Z',
        '2027-03-31T07:00:00.000Z',
      ];
      expect(created.body.nextRuns.map((instant: string) => new Date(instant).toISOString())).toEqual(due);
      const runs = async () =>
        (await t.get(`/api/v1/reports/${daily}/schedule/runs`, owner.token)).body as { scheduledFor: string; status: string }[];
      // A minute past each occurrence: the engine's own tick (every second) finds it and works it.
      for (const [done, instant] of due.entries()) {
        t.clock.set(new Date(Date.parse(instant) + 60_000));
        await until(async () => (await runs()).filter((r) => r.status === 'succeeded').length).toBe(done + 1);
      }
      expect((await runs()).map((r) => [r.scheduledFor, r.status])).toEqual([...due].reverse().map((instant) => [instant, 'succeeded']));

      const owners = await newPage(browser, cspErrors, { width: 1440 });
      await signIn(owners.page, base, owner.email);
      await owners.page.goto(`${base}/app/reports/${daily}`);
      await until(() => owners.page.getByRole('heading', { level: 1 }).textContent()).toBe('Daily log v6');
      const history = owners.page.getByRole('region', { name: 'Schedule' }).locator('.runs .item time');
      await until(() => history.count()).toBe(5);
      expect(await history.allTextContents()).toEqual([
        'Wed, 31 Mar 2027, 09:00',
        'Tue, 30 Mar 2027, 09:00',
        'Mon, 29 Mar 2027, 09:00',
        'Fri, 26 Mar 2027, 09:00',
        'Thu, 25 Mar 2027, 09:00',
      ]);
      await screen(owners.page, 'report-schedule-dst-week');
      await owners.context.close();
    },
    STEP_TIMEOUT,
  );

  it(
    'names a skipped recipient and why in words, without ids',
    async () => {
      const daily = ((await t.get('/api/v1/reports', owner.token)).body as { id: string; name: string }[]).find(
        (r) => r.name === 'Daily log',
      )!.id;
      const workspaceId = (await t.get('/api/v1/workspaces', owner.token)).body[0].id as string;
      expect((await t.del(`/api/v1/workspaces/${workspaceId}/members/${ana.id}`, owner.token)).status).toBe(204);
      expect((await t.post(`/api/v1/reports/${daily}/schedule/run-now`, {}, owner.token)).status).toBe(202);
      await until(
        async () => ((await t.get(`/api/v1/reports/${daily}/schedule/runs`, owner.token)).body as { status: string }[])[0]?.status,
      ).toBe('partial');

      const owners = await newPage(browser, cspErrors, { width: 1440 });
      await signIn(owners.page, base, owner.email);
      await owners.page.goto(`${base}/app/reports/${daily}`);
      const run = owners.page.getByRole('region', { name: 'Schedule' }).locator('.runs .item').first();
      // Ana was its one recipient: the version was made, and it reached no one.
      await until(() => run.locator('.run-status').textContent()).toBe('Not sent');
      expect(await run.locator('.meta').textContent()).toMatch(/^Run now · Version \d+ · delivered to no teammate$/);
      expect(await run.locator('.skipped li').allTextContents()).toEqual(['Ana Souza is no longer a member of \u201cAcme\u201d']);
      await run.scrollIntoViewIfNeeded();
      await checkScreen(owners.page, 'report-schedule-skipped');
      await owners.context.close();
    },
    STEP_TIMEOUT,
  );

  it('broke no Content-Security-Policy rule on any page', () => {
    expect(cspErrors).toEqual([]);
  });
});
