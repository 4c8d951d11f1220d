/**
 * The Time and Settings screens in Chromium (docs/web.md): entries shown in the profile's time
 * zone (not the browser's) with the zone named, day and week totals, filters, deleting with a
 * confirmation, the app's own validation messages (no form uses the browser's), layouts without
 * sideways scrolling from 320 to 1440 px, the time-zone picker, session names and the password
 * change. Every screen is checked with axe-core. Playwright waits for what a user would see, never
 * for the clock; screenshots only with SCREENSHOTS_DIR.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidTimezone } from '../../src/render/date-range.js';
import { canonicalLocale } from '../../src/lib/locale.js';
import {
  hasChromium,
  launchBrowser,
  newPage as openPage,
  PASSWORD,
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

const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

describe.skipIf(!hasChromium)('Time and Settings in Chromium', () => {
  let t: TestContext;
  let browser: Browser;
  let base: string;
  let owner: TestUser;
  let teammate: TestUser;
  let newcomer: TestUser;
  let page: Page;
  let context: BrowserContext;
  let reviewId: string;

  const cspErrors: string[] = [];
  /** A browser whose own zone is Berlin and language US English: shown times must follow the profile. */
  const newPage = (width = 1280) => openPage(browser, cspErrors, { width, locale: 'en-US', timezoneId: 'Europe/Berlin' });
  const setPassword = (userId: string) => setUserPassword(t, base, userId);
  const signIn = (p: Page, email: string) => signInAt(p, base, email);

  async function entry(user: TestUser, body: Record<string, unknown>): Promise<string> {
    const res = await t.post('/api/v1/time-entries', body, user.token);
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  const entryRow = (text: string) => page.locator('table.entries tbody tr').filter({ hasText: text });
  const dayRow = (label: string) => page.locator('tr.day-row').filter({ hasText: label });
  const weekRow = (label: string) => page.locator('tr.week-row').filter({ hasText: label });

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await buildTestApp({ config: { publicBaseUrl: base } });
    await t.app.listen({ port, host: '127.0.0.1' });
    owner = await newUser(t, { name: 'Nora Newyork', timezone: 'America/New_York' });
    teammate = await newUser(t, { name: 'Sam Second' });
    newcomer = await newUser(t, { name: 'Elena Empty' });
    const workspaceId = (await newWorkspace(t, owner, 'Studio')).id;
    await addMember(t, workspaceId, teammate, 'member', owner.token);
    await addMember(t, workspaceId, newcomer, 'member', owner.token);
    const website = await newProject(t, workspaceId, owner.token, 'Website');
    const brand = await newProject(t, workspaceId, owner.token, 'Brand');
    // New York is UTC-4 in October: 13:00Z is 9:00 AM there (3:00 PM in the browser's Berlin).
    await entry(owner, {
      workspaceId,
      projectId: website.id,
      start: '2026-10-06T13:00:00Z',
      minutes: 120,
      description: 'Wireframes',
      tags: ['design'],
    });
    await entry(owner, { workspaceId, projectId: brand.id, start: '2026-10-06T18:30:00Z', minutes: 45, description: 'Client call' });
    // 7 October in UTC, still the evening of the 6th in New York.
    await entry(owner, { workspaceId, projectId: website.id, start: '2026-10-07T03:30:00Z', minutes: 30, description: 'Late fix' });
    reviewId = await entry(owner, {
      workspaceId,
      projectId: website.id,
      start: '2026-10-08T14:00:00Z',
      minutes: 60,
      description: 'Review',
    });
    await entry(owner, { workspaceId, projectId: brand.id, start: '2026-09-29T13:00:00Z', minutes: 90, description: 'Kick-off' });
    await entry(teammate, { workspaceId, start: '2026-10-06T15:00:00Z', minutes: 100, description: 'Support shift' });
    await setPassword(owner.id);
    await setPassword(newcomer.id);
    browser = await launchBrowser();
  }, STEP_TIMEOUT);

  afterAll(async () => {
    await releaseBrowser(browser);
    await t.close();
  });

  it(
    'shows entries in the profile zone, names the zone, and totals each day and week',
    async () => {
      ({ context, page } = await newPage());
      await signIn(page, owner.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Time', exact: true }).click();
      await until(() => entryRow('Wireframes').count()).toBe(1);
      expect(await page.locator('.zone-note').textContent()).toContain('Times are in America/New_York');
      expect(await entryRow('Wireframes').locator('td').first().textContent()).toBe('9:00 AM');
      expect(await entryRow('Late fix').locator('td').first().textContent()).toBe('11:30 PM');
      // Tuesday in New York: 120 + 45 + 30 of the owner and 100 of the teammate.
      await until(() => dayRow('Tue, Oct 6, 2026').textContent()).toContain('4:55');
      expect(await dayRow('Wed, Oct 7, 2026').count()).toBe(0);
      expect(await dayRow('Thu, Oct 8, 2026').textContent()).toContain('1:00');
      expect(await weekRow('Oct 5').textContent()).toContain('5:55');
      expect(await weekRow('Sep 28').textContent()).toContain('1:30');
      expect(await entryRow('Support shift').textContent()).toContain('Sam Second');
      // Editing shows the start in the profile zone too.
      await entryRow('Wireframes').getByRole('button', { name: /^Edit/ }).click();
      await until(() => page.getByRole('form', { name: 'Edit entry' }).getByLabel('Start').inputValue()).toBe('2026-10-06T09:00');
      await page.getByRole('form', { name: 'Edit entry' }).getByRole('button', { name: 'Cancel' }).click();
      await screen(page, 'time-totals');
    },
    STEP_TIMEOUT,
  );

  it(
    'narrows the list by tag, person, project and dates, and says when nothing matches',
    async () => {
      const filters = page.getByRole('search', { name: 'Filter entries' });
      // Only "Wireframes" carries the tag "design".
      await filters.getByLabel('Tag').fill('design');
      await until(() => entryRow('Client call').count()).toBe(0);
      expect(await entryRow('Wireframes').count()).toBe(1);
      await filters.getByLabel('Tag').fill('');
      await until(() => entryRow('Client call').count()).toBe(1);

      await filters.getByLabel('Person').selectOption({ label: 'Nora Newyork (you)' });
      await until(() => entryRow('Support shift').count()).toBe(0);
      await until(() => dayRow('Tue, Oct 6, 2026').textContent()).toContain('3:15');

      await filters.getByLabel('Project').selectOption({ label: 'Brand' });
      await until(() => entryRow('Wireframes').count()).toBe(0);
      expect(await page.locator('table.entries tbody tr:not(.day-row):not(.week-row)').count()).toBe(2);

      await filters.getByLabel('From').fill('2026-10-01');
      await filters.getByLabel('To (inclusive)').fill('2026-10-31');
      await until(() => entryRow('Kick-off').count()).toBe(0);
      expect(await entryRow('Client call').count()).toBe(1);

      await filters.getByLabel('To (inclusive)').fill('2026-09-01');
      await until(() => filters.locator('.field-error').textContent()).toBe('Choose a date on or after the first one.');
      expect(await filters.getByLabel('To (inclusive)').getAttribute('aria-invalid')).toBe('true');
      expect(await entryRow('Client call').count()).toBe(1);

      await filters.getByLabel('From').fill('2026-10-07');
      await filters.getByLabel('To (inclusive)').fill('2026-10-31');
      await until(() => page.getByText('No entries match these filters.').count()).toBe(1);
      await screen(page, 'time-no-match');
      await page.locator('.entries-list').getByRole('button', { name: 'Clear filters' }).click();
      await until(() => entryRow('Support shift').count()).toBe(1);
      expect(await filters.getByLabel('Project').inputValue()).toBe('');
    },
    STEP_TIMEOUT,
  );

  it(
    'deletes an entry only after a confirmation',
    async () => {
      const row = entryRow('Review');
      await row.getByRole('button', { name: /^Delete/ }).click();
      await row.getByRole('button', { name: 'Keep it' }).click();
      expect(await row.getByRole('button', { name: 'Delete this entry' }).count()).toBe(0);
      expect((await t.get('/api/v1/time-entries', owner.token)).body.some((e: { id: string }) => e.id === reviewId)).toBe(true);

      await row.getByRole('button', { name: /^Delete/ }).click();
      await row.getByRole('button', { name: 'Delete this entry' }).click();
      await until(() => entryRow('Review').count()).toBe(0);
      expect(await page.getByRole('status').filter({ hasText: 'Deleted the entry' }).textContent()).toContain('Oct 8, 2026, 10:00 AM');
      expect((await t.get('/api/v1/time-entries', owner.token)).body.some((e: { id: string }) => e.id === reviewId)).toBe(false);
      await until(() => weekRow('Oct 5').textContent()).toContain('4:55');
      expect(await dayRow('Thu, Oct 8, 2026').count()).toBe(0);
    },
    STEP_TIMEOUT,
  );

  it(
    'checks the entry form with its own messages, never the browser’s, and stores the start in the profile zone',
    async () => {
      expect(await page.evaluate('[...document.forms].every((f) => f.noValidate)')).toBe(true);
      const form = page.getByRole('form', { name: 'Add an entry' });
      await form.getByLabel('Minutes').fill('');
      await form.getByLabel('Description').fill('Standup');
      await form.getByRole('button', { name: 'Add entry' }).click();
      await until(() => form.locator('.field-error').textContent()).toBe('This field is required.');
      expect(await form.getByLabel('Minutes').getAttribute('aria-invalid')).toBe('true');
      expect(await page.evaluate('document.activeElement?.type')).toBe('number');
      await form.getByLabel('Minutes').fill('2000');
      expect(await form.locator('.field-error').count()).toBe(0);
      await form.getByRole('button', { name: 'Add entry' }).click();
      await until(() => form.locator('.field-error').textContent()).toBe('Use 1440 or less.');
      expect(await entryRow('Standup').count()).toBe(0);

      await form.getByLabel('Start').fill('2026-10-09T08:15');
      await form.getByLabel('Minutes').fill('30');
      await form.getByRole('button', { name: 'Add entry' }).click();
      await until(() => entryRow('Standup').count()).toBe(1);
      expect(await entryRow('Standup').locator('td').first().textContent()).toBe('8:15 AM');
      const stored = (await t.get('/api/v1/time-entries', owner.token)).body.find(
        (e: { description: string }) => e.description === 'Standup',
      );
      expect(stored.start).toBe('2026-10-09T12:15:00.000Z');
    },
    STEP_TIMEOUT,
  );

  it(
    'offers the first step on an empty Time screen',
    async () => {
      const fresh = await newPage();
      await signIn(fresh.page, newcomer.email);
      await fresh.page.goto(`${base}/app/time`);
      const empty = fresh.page.locator('.entries-list');
      await until(() => empty.textContent()).toContain('No time recorded yet.');
      await empty.getByRole('button', { name: 'Add an entry' }).click();
      expect(await fresh.page.evaluate('document.activeElement?.type')).toBe('datetime-local');
      await screen(fresh.page, 'time-empty');
      await fresh.context.close();
    },
    STEP_TIMEOUT,
  );

  it(
    'never scrolls sideways at 320, 390 and 1440 px, and keeps the entry form’s fields apart',
    async () => {
      for (const width of [320, 390, 1440]) {
        const sized = await newPage(width);
        await sized.context.addCookies(await context.cookies());
        for (const path of ['/time', '/settings']) {
          await sized.page.goto(`${base}/app${path}`);
          if (path === '/time') await until(() => sized.page.locator('tr.day-row').count()).toBeGreaterThan(0);
          else await until(() => sized.page.getByRole('region', { name: 'Sessions' }).textContent()).toContain('(this one)');
          const widths = await sized.page.evaluate('[document.documentElement.scrollWidth, document.documentElement.clientWidth]');
          expect(widths, `${path} at ${width} px`).toEqual([width, width]);
        }
        await sized.page.goto(`${base}/app/time`);
        await until(() => sized.page.locator('.entry-grid .field').count()).toBe(7);
        // No field's box overlaps another's, and no input's content runs out of its own box.
        const overlaps = await sized.page.evaluate(`(() => {
          const boxes = [...document.querySelectorAll('.entry-grid .field')].map((f) => f.getBoundingClientRect());
          const out = [];
          boxes.forEach((a, i) => boxes.forEach((b, j) => {
            if (i < j && a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push([i, j]);
          }));
          // A date-time input's fields do not shrink: its own width must hold them (as wide as it is unstyled).
          for (const input of document.querySelectorAll('.entry-grid input')) {
            const natural = input.cloneNode();
            natural.style.width = 'max-content';
            input.parentElement.append(natural);
            const needed = natural.getBoundingClientRect().width;
            natural.remove();
            if (needed > input.getBoundingClientRect().width + 1) out.push(input.type + ' needs ' + Math.round(needed));
          }
          return out;
        })()`);
        expect(overlaps, `entry form at ${width} px`).toEqual([]);
        // Below 40rem each entry is a block (its description under its time); the table keeps its
        // rows, cells and column headers for assistive technology either way.
        const row = sized.page.locator('table.entries tr.entry-row').filter({ hasText: 'Wireframes' });
        const start = await row.locator('td.start').boundingBox();
        const description = await row.locator('td.description').boundingBox();
        if (width <= 390) expect(description!.y, `stacked at ${width} px`).toBeGreaterThanOrEqual(start!.y + start!.height);
        else expect(description!.y, `one row at ${width} px`).toBeLessThan(start!.y + start!.height);
        const cdp = await sized.context.newCDPSession(sized.page);
        const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: { role?: { value?: string }; ignored?: boolean }[] };
        const exposed = (role: string) => nodes.filter((n) => !n.ignored && n.role?.value === role).length;
        expect([exposed('table'), exposed('columnheader')], `table semantics at ${width} px`).toEqual([1, 8]);
        expect(exposed('row'), `rows at ${width} px`).toBe(await sized.page.locator('table.entries tr').count());
        if (width !== 1440) await screen(sized.page, `time-${width}`);
        await sized.context.close();
      }
    },
    STEP_TIMEOUT,
  );

  it(
    'picks a time zone by searching the zones the server accepts',
    async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings', exact: true }).click();
      const profile = page.getByRole('region', { name: 'Profile' });
      const zone = profile.getByLabel('Time zone', { exact: true });
      await until(() => zone.inputValue()).toBe('America/New_York');

      // Every zone the picker can offer is one the server takes.
      const offered = await page.evaluate<string[]>("['UTC', ...Intl.supportedValuesOf('timeZone')]");
      expect(offered.length).toBeGreaterThan(300);
      expect(offered.filter((name) => !isValidTimezone(name))).toEqual([]);

      await profile.getByLabel('Search time zones').fill('berl');
      await until(() => zone.locator('option').count()).toBe(1);
      const options = await zone.locator('option').allTextContents();
      expect(options).toHaveLength(1);
      expect(options[0]).toMatch(/^Europe\/Berlin \(GMT\+0[12]:00\)$/);
      await profile.getByLabel('Search time zones').fill('+05:30');
      // Chromium lists India's zone by its older canonical name, Asia/Calcutta.
      await until(() => zone.locator('option').allTextContents()).toContainEqual(
        expect.stringMatching(/^Asia\/(Kolkata|Calcutta) \(GMT\+05:30\)$/),
      );
      await profile.getByLabel('Search time zones').fill('nowhere at all');
      await until(() => profile.getByRole('status').first().textContent()).toContain('No time zone matches');
      await profile.getByLabel('Search time zones').fill('new york');
      await until(() => zone.locator('option').count()).toBe(1);
      await profile.getByLabel('Search time zones').fill('tokyo');
      await zone.selectOption('Asia/Tokyo');
      await profile.getByRole('button', { name: 'Save profile' }).click();
      await until(async () => (await t.get('/api/v1/me', owner.token)).body.timezone).toBe('Asia/Tokyo');
      await screen(page, 'settings-time-zone');
      // Back to New York for the screens above.
      expect((await t.patch('/api/v1/me', { timezone: 'America/New_York' }, owner.token)).status).toBe(200);
    },
    STEP_TIMEOUT,
  );

  it(
    'picks a locale from a short list that keeps the saved one',
    async () => {
      // A saved locale the list lacks is offered, and chosen.
      expect((await t.patch('/api/v1/me', { locale: 'fr-ca' }, owner.token)).body.locale).toBe('fr-CA');
      await page.reload();
      const profile = page.getByRole('region', { name: 'Profile' });
      const locale = profile.getByLabel('Locale', { exact: true });
      await until(() => locale.inputValue()).toBe('fr-CA');
      const offered = await Promise.all((await locale.locator('option').all()).map(async (o) => (await o.getAttribute('value')) ?? ''));
      expect(offered).toContain('fr-CA');
      expect(offered).toContain('en-GB');
      // Every tag offered is one the server takes as it is.
      expect(offered.filter((tag) => canonicalLocale(tag) !== tag)).toEqual([]);
      expect(await locale.locator('option[value="en-GB"]').textContent()).toBe('British English (en-GB)');

      await locale.selectOption('de-DE');
      await profile.getByRole('button', { name: 'Save profile' }).click();
      await until(async () => (await t.get('/api/v1/me', owner.token)).body.locale).toBe('de-DE');
      await until(() => profile.getByRole('status').filter({ hasText: 'Saved.' }).count()).toBe(1);
      // The time zone was saved unchanged beside it.
      expect((await t.get('/api/v1/me', owner.token)).body.timezone).toBe('America/New_York');
      await screen(page, 'settings-locale');
      expect((await t.patch('/api/v1/me', { locale: 'en' }, owner.token)).status).toBe(200);
    },
    STEP_TIMEOUT,
  );

  it(
    'names sessions by browser and system, with their last use',
    async () => {
      const other = await t.request('POST', '/api/v1/sessions', {
        token: null,
        body: { email: owner.email, password: PASSWORD },
        headers: { 'user-agent': FIREFOX_ON_WINDOWS },
      });
      expect(other.status).toBe(201);
      await page.reload();
      const sessions = page.getByRole('region', { name: 'Sessions' });
      const items = sessions.getByRole('listitem');
      // This browser's, the Firefox one, and the one the set-password link opened (through the API).
      await until(() => items.count()).toBe(3);
      expect(await items.nth(0).textContent()).toMatch(/^Chrome on Linux \(this one\)Last used .* · signed in /);
      // Newest use first after the current one.
      expect(await items.nth(1).textContent()).toMatch(/^Firefox on Windows Last used /);
      expect(await items.nth(1).locator('.session-name').getAttribute('title')).toBe(FIREFOX_ON_WINDOWS);
      expect(
        await items
          .nth(1)
          .getByRole('button', { name: /^End session of Firefox on Windows/ })
          .count(),
      ).toBe(1);
    },
    STEP_TIMEOUT,
  );

  it(
    'refuses a new password that is short or not repeated the same, in the app’s own words',
    async () => {
      const password = page.getByRole('region', { name: 'Password' });
      await password.getByLabel('Current password').fill(PASSWORD);
      await password.getByLabel('New password', { exact: true }).fill('short');
      await password.getByLabel('Repeat the new password').fill('short');
      await password.getByRole('button', { name: 'Change password' }).click();
      await until(() => password.locator('.field-error').allTextContents()).toEqual(['Use at least 12 characters (now 5).']);

      await password.getByLabel('New password', { exact: true }).fill('another long password');
      await password.getByLabel('Repeat the new password').fill('another long passw0rd');
      await password.getByRole('button', { name: 'Change password' }).click();
      await until(() => password.locator('.field-error').allTextContents()).toEqual(['The two passwords differ.']);
      expect(await password.getByLabel('Repeat the new password').getAttribute('aria-invalid')).toBe('true');
      expect(await password.getByRole('status').count()).toBe(0);
      await screen(page, 'settings-password-mismatch');
      // Nothing was sent: the old password still signs in.
      const still = await t.request('POST', '/api/v1/sessions', { token: null, body: { email: owner.email, password: PASSWORD } });
      expect(still.status).toBe(201);
    },
    STEP_TIMEOUT,
  );
});
