/**
 * E-mail in Chromium (docs/web.md "E-mail"): a teammate's Settings → E-mail saved and read back;
 * a send to three teammates whose send history says each one's mail (held for a digest, queued,
 * then kept, no mail); a schedule that mails outside addresses (a bad address refused in place,
 * one the server refuses named under the field), its run's addresses with their state and link
 * views; a set-password link also e-mailed; and the outbox an instance admin reads on an app
 * without SMTP, where every message is kept. What the API stored is read through it; axe-core at
 * 1440, 390 and 320 px, no sideways scroll on a phone, no CSP complaint. Nothing waits on the
 * clock: mail is drained and runs executed by the test, and the page is polled for what it shows.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
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
import { addMember, newWorkspace } from '../helpers/factories.js';
import { newReport } from '../helpers/report-factories.js';
import { freePort } from '../helpers/server-process.js';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

interface Mail {
  status: string;
  error: string | null;
}
interface SendEntry {
  version: number;
  recipients: { userId: string; name: string; mail?: Mail | null }[];
  emails?: { address: string; mail: Mail; viewCount: number }[];
}
interface OutboxMessage {
  kind: string;
  to: string;
  status: string;
  subject: string | null;
  text: string | null;
}

describe.skipIf(!hasChromium)('e-mail in Chromium', () => {
  let t: TestContext;
  let browser: Browser;
  let base: string;
  let owner: TestUser;
  let ana: TestUser;
  let bo: TestUser;
  let cy: TestUser;
  let admin: TestUser;
  let reportId: string;
  let context: BrowserContext;
  let page: Page;
  const cspErrors: string[] = [];

  const sends = async () => (await t.get(`/api/v1/reports/${reportId}/sends`, owner.token)).body as SendEntry[];
  const outbox = async () => (await t.get('/api/v1/admin/outbox', admin.token)).body as OutboxMessage[];
  const sentRegion = (p: Page) => p.getByRole('region', { name: 'Sent' });
  const schedule = () => page.getByRole('region', { name: 'Schedule' });

  /** A page of its own at `width` px, signed in with the cookies of `from`. */
  async function sized(from: BrowserContext, width: number) {
    const made = await newPage(browser, cspErrors, { width });
    await made.context.addCookies(await from.cookies());
    return made;
  }

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // No SMTP_URL (the test default): every message is kept in the outbox. No job engine: the test
    // drains mail and executes runs itself.
    t = await buildTestApp({ config: { publicBaseUrl: base } });
    await t.app.listen({ port, host: '127.0.0.1' });
    owner = await newUser(t, { name: 'Olivia Owner', timezone: 'Europe/Berlin', locale: 'en-GB' });
    ana = await newUser(t, { name: 'Ana Souza', timezone: 'America/New_York' });
    bo = await newUser(t, { name: 'Bo Lindqvist' });
    cy = await newUser(t, { name: 'Cy Mbeki' });
    admin = await newUser(t, { name: 'Ada Admin', instanceAdmin: true });
    const workspaceId = (await newWorkspace(t, owner, 'Acme')).id;
    for (const teammate of [ana, bo, cy]) await addMember(t, workspaceId, teammate, 'member', owner.token);
    reportId = (await newReport(t, owner, [workspaceId], { name: 'Weekly timesheet' })).id;
    // Cy wants no inbox mail (set through the API: Ana's screen is the one under test).
    const off = await t.request('PATCH', '/api/v1/me/notifications', { token: cy.token, body: { events: { inbox: false } } });
    expect(off.status, off.text).toBe(200);
    for (const user of [owner, ana, admin]) await setPassword(t, base, user.id);
    browser = await launchBrowser();
  }, STEP_TIMEOUT);

  afterAll(async () => {
    // Either may be missing when start-up failed part way.
    await releaseBrowser(browser);
    await (t as TestContext | undefined)?.close();
  });

  it(
    'saves a teammate’s e-mail settings: discussion mail off, PDFs attached, a daily digest',
    async () => {
      const anas = await newPage(browser, cspErrors, { width: 1440 });
      await signIn(anas.page, base, ana.email);
      await anas.page.getByRole('link', { name: 'Settings' }).click();
      const email = anas.page.getByRole('region', { name: 'E-mail' });
      await until(() => email.getByLabel('A report arrives in my inbox').count()).toBe(1);
      // Every event on, no PDF, each mail as it happens: the defaults.
      expect(await email.getByLabel('A report arrives in my inbox').isChecked()).toBe(true);
      expect(await email.getByLabel('New comments and reactions in discussions I take part in').isChecked()).toBe(true);
      expect(await email.getByLabel('A scheduled run of my report fails or skips someone').isChecked()).toBe(true);
      expect(await email.getByLabel('Attach the PDF to inbox mail').isChecked()).toBe(false);
      expect(await email.getByLabel('As it happens').isChecked()).toBe(true);
      expect(await email.textContent()).toContain(`Mail goes to ${ana.email}.`);

      await email.getByLabel('New comments and reactions in discussions I take part in').uncheck();
      await email.getByLabel('Attach the PDF to inbox mail').check();
      await email.getByLabel('Daily digest at 08:00 (your time zone, America/New_York)').check();
      await email.getByRole('button', { name: 'Save e-mail settings' }).click();
      await until(() => email.getByRole('status').textContent()).toBe('Saved.');
      expect((await t.get('/api/v1/me/notifications', ana.token)).body).toEqual({
        events: { inbox: true, discussion: false, scheduleProblems: true },
        attachPdf: true,
        digest: 'daily',
      });
      await screen(anas.page, 'settings-email');

      // A reload shows what was saved.
      await anas.page.reload();
      await until(() => email.getByLabel('Daily digest at 08:00 (your time zone, America/New_York)').isChecked()).toBe(true);
      expect(await email.getByLabel('New comments and reactions in discussions I take part in').isChecked()).toBe(false);
      expect(await email.getByLabel('Attach the PDF to inbox mail').isChecked()).toBe(true);
      for (const width of [390, 320]) {
        const phone = await sized(anas.context, width);
        await phone.page.goto(`${base}/app/settings`);
        await until(() => phone.page.getByRole('region', { name: 'E-mail' }).getByLabel('As it happens').count()).toBe(1);
        expect(await scrollsSideways(phone.page), `${width} px`).toBe(false);
        await screen(phone.page, `settings-email-${width}`);
        await phone.context.close();
      }
      await anas.context.close();
    },
    STEP_TIMEOUT,
  );

  it(
    'sends to three teammates and shows each one’s mail: held for a digest, queued then kept, no mail',
    async () => {
      ({ context, page } = await newPage(browser, cspErrors, { width: 1440 }));
      await signIn(page, base, owner.email);
      await page.goto(`${base}/app/reports/${reportId}`);
      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Weekly timesheet v1');
      const send = page.getByRole('region', { name: 'Send version 1' });
      await until(() => send.getByLabel('Ana Souza').count()).toBe(1);
      await send.getByLabel('Ana Souza').check();
      await send.getByLabel('Bo Lindqvist').check();
      await send.getByLabel('Cy Mbeki').check();
      await send.getByRole('button', { name: 'Send to 3' }).click();
      await until(() => send.getByRole('status').textContent()).toBe('Sent version 1 to 3 teammates.');

      const teammates = sentRegion(page).getByRole('list', { name: 'E-mail to teammates, version 1' });
      await until(() => teammates.getByRole('listitem').allTextContents()).toEqual([
        expect.stringMatching(/^Ana Souza: Held for a digest$/),
        expect.stringMatching(/^Bo Lindqvist: Queued$/),
        expect.stringMatching(/^Cy Mbeki: No mail$/),
      ]);
      const byName = (entry: SendEntry | undefined) => Object.fromEntries((entry?.recipients ?? []).map((r) => [r.name, r.mail]));
      expect(byName((await sends())[0])).toEqual({
        'Ana Souza': { status: 'held', error: null },
        'Bo Lindqvist': { status: 'queued', error: null },
        'Cy Mbeki': null,
      });

      // Without SMTP the job keeps Bo's mail in the outbox; the history says so once read again.
      await t.app.chronicle.mailer.drain();
      await page.reload();
      await until(() => teammates.getByRole('listitem').nth(1).textContent()).toBe('Bo Lindqvist: Kept in the outbox');
      expect(byName((await sends())[0])['Bo Lindqvist']).toEqual({ status: 'kept', error: null });
      await screen(page, 'report-sent-mail');
    },
    STEP_TIMEOUT,
  );

  it(
    'schedules mail to outside addresses: a bad address refused in place, one the server refuses named under the field',
    async () => {
      const form = schedule().getByRole('form', { name: 'New schedule' });
      const addresses = form.getByLabel('Outside addresses (optional)');
      await until(() => addresses.count()).toBe(1);
      expect(await form.getByLabel("This run's version").isChecked()).toBe(true);
      expect(await form.getByLabel('Attach the PDF').isChecked()).toBe(false);
      await form.getByLabel('Bo Lindqvist').check();

      // Refused in the browser: nothing is sent.
      await addresses.fill('accounts@client.example\nnot-an-address');
      await form.getByRole('button', { name: 'Create schedule' }).click();
      await until(() => form.locator('.field-error').textContent()).toBe('This does not look like an e-mail address: not-an-address.');
      expect(await addresses.getAttribute('aria-invalid')).toBe('true');
      expect(await page.evaluate<string | undefined>('document.activeElement?.getAttribute("aria-invalid") ?? undefined')).toBe('true');
      expect(await page.evaluate<string | undefined>('document.activeElement?.tagName')).toBe('TEXTAREA');
      expect((await t.get(`/api/v1/reports/${reportId}/schedule`, owner.token)).status).toBe(404);

      // Looks like an address, but the server's rule refuses it: named under the field.
      await addresses.fill('accounts@client.example\nops@client..example');
      await form.getByRole('button', { name: 'Create schedule' }).click();
      await until(() => form.locator('.field-error').textContent()).toMatch(/^ops@client\.\.example: /);
      expect(await form.getByRole('alert').textContent()).toContain('/emails/1');
      expect((await t.get(`/api/v1/reports/${reportId}/schedule`, owner.token)).status).toBe(404);
      await screen(page, 'report-schedule-emails-refused');

      await addresses.fill('accounts@client.example\nBoss@Client.Example\n');
      await form.getByLabel('Always the newest version').check();
      await form.getByLabel('Attach the PDF').check();
      await screen(page, 'report-schedule-emails-form');
      await form.getByRole('button', { name: 'Create schedule' }).click();
      await until(() => schedule().getByRole('list', { name: 'Outside addresses' }).getByRole('listitem').allTextContents()).toEqual([
        'accounts@client.example',
        'boss@client.example',
      ]);
      expect(await schedule().locator('.schedule-emails p').textContent()).toBe(
        'Also e-mailed, with a link that always shows the newest version, the PDF attached, to:',
      );
      expect((await t.get(`/api/v1/reports/${reportId}/schedule`, owner.token)).body).toMatchObject({
        recipientUserIds: [bo.id],
        emails: ['accounts@client.example', 'boss@client.example'],
        emailLink: 'latest',
        attachPdf: true,
      });
    },
    STEP_TIMEOUT,
  );

  it(
    'runs it: the history says how many addresses it mailed, the send history each address with its state and views',
    async () => {
      await schedule().getByRole('button', { name: 'Run now' }).click();
      await until(() => schedule().locator('.runs .item').count()).toBe(1);
      const runs = (await t.get(`/api/v1/reports/${reportId}/schedule/runs`, owner.token)).body as { id: string }[];
      await t.app.chronicle.scheduler.execute(runs[0]?.id ?? '');
      const run = schedule().locator('.runs .item').first();
      await until(() => run.locator('.run-status').textContent()).toBe('Succeeded');
      expect(await run.locator('.meta').textContent()).toBe('Run now · Version 2 · delivered to 1 teammate · e-mailed to 2 addresses');
      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Weekly timesheet v2');

      const outside = sentRegion(page).getByRole('list', { name: 'E-mail to outside addresses, version 2' });
      await until(() => outside.getByRole('listitem').allTextContents()).toEqual([
        'accounts@client.example: Queued · link not opened yet',
        'boss@client.example: Queued · link not opened yet',
      ]);
      await t.app.chronicle.mailer.drain();
      const [latest] = await sends();
      expect(latest?.emails?.map((e) => [e.address, e.mail.status, e.viewCount])).toEqual([
        ['accounts@client.example', 'kept', 0],
        ['boss@client.example', 'kept', 0],
      ]);
      // The kept message holds the address's own link; opening it counts a view.
      const mailed = (await outbox()).find((m) => m.kind === 'address' && m.to === 'boss@client.example');
      const link = /\/share\/[A-Za-z0-9_-]+/.exec(mailed?.text ?? '')?.[0];
      expect(link).toBeDefined();
      const viewed = await t.request('GET', link ?? '', { token: null });
      expect(viewed.status).toBe(200);

      await page.reload();
      await until(() => outside.getByRole('listitem').allTextContents()).toEqual([
        'accounts@client.example: Kept in the outbox · link not opened yet',
        'boss@client.example: Kept in the outbox · link opened once',
      ]);
      await screen(page, 'report-schedule-emails');
      for (const width of [390, 320]) {
        const phone = await sized(context, width);
        await phone.page.goto(`${base}/app/reports/${reportId}#schedule`);
        await until(() => phone.page.getByRole('region', { name: 'Schedule' }).locator('.schedule-emails li').count()).toBe(2);
        await until(() => sentRegion(phone.page).locator('.mail-states li').count()).toBe(6);
        expect(await scrollsSideways(phone.page), `${width} px`).toBe(false);
        await screen(phone.page, `report-schedule-emails-${width}`);
        await phone.page.getByRole('region', { name: 'Schedule' }).getByRole('button', { name: 'Edit' }).click();
        await until(() => phone.page.getByLabel('Outside addresses (optional)').inputValue()).toBe(
          'accounts@client.example\nboss@client.example',
        );
        expect(await scrollsSideways(phone.page), `form at ${width} px`).toBe(false);
        await screen(phone.page, `report-schedule-emails-form-${width}`);
        await phone.context.close();
      }
    },
    STEP_TIMEOUT,
  );

  it(
    'shows the outbox to instance admins only',
    async () => {
      expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Outbox' }).count()).toBe(0);
      await page.goto(`${base}/app/outbox`);
      await until(() => page.getByRole('alert').textContent()).toContain('Only an instance admin may');
      await context.close();
    },
    STEP_TIMEOUT,
  );

  it(
    'e-mails a set-password link, and the admin reads it and the teammate’s mail in the outbox',
    async () => {
      ({ context, page } = await newPage(browser, cspErrors, { width: 1440 }));
      await signIn(page, base, admin.email);
      await page.getByRole('link', { name: 'Settings' }).click();
      const people = page.getByRole('region', { name: 'People' });
      await until(() => people.getByLabel(`Also e-mail it to ${cy.email}`).count()).toBe(1);
      await people.getByLabel(`Also e-mail it to ${cy.email}`).check();
      await people.getByRole('button', { name: 'Set-password link for Cy Mbeki' }).click();
      const shown = people.getByRole('status').filter({ hasText: 'Set-password link for Cy Mbeki' });
      await until(() => shown.textContent()).toContain(`Also e-mailed to ${cy.email}.`);
      await screen(page, 'settings-password-link-email');
      await t.app.chronicle.mailer.drain();
      const kept = (await outbox()).find((m) => m.kind === 'password_link');
      expect(kept).toMatchObject({ to: cy.email, status: 'kept' });

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Outbox' }).click();
      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Outbox');
      expect(await page.locator('.lead').textContent()).toContain('Without SMTP_URL (the embedded default) nothing is sent');
      const messages = page.getByRole('list', { name: 'Messages' });
      // Newest first, as the API lists them: Ana's, Bo's two deliveries, the two addresses and the link.
      await until(() => messages.locator('.item').count()).toBe(6);
      const stored = await outbox();
      expect(await messages.locator('.address').allTextContents()).toEqual(stored.map((m) => m.to));
      expect(stored.map((m) => m.kind).sort()).toEqual(['address', 'address', 'delivery', 'delivery', 'delivery', 'password_link']);
      const first = messages.locator('.item').first();
      expect(await first.locator('.mail-head').textContent()).toBe(`Kept in the outbox Set-password link · to ${cy.email}`);

      // Only the held one: Ana's mail of version 1, waiting for her digest.
      await page.getByLabel('Status').selectOption({ label: 'Held for a digest' });
      await until(() => messages.locator('.address').allTextContents()).toEqual([ana.email]);
      await page.getByLabel('Status').selectOption({ label: 'Kept in the outbox' });
      await until(() => messages.locator('.item').count()).toBe(5);

      // Bo's delivery opens on its text, which links to his inbox message.
      const bos = messages.locator('.item').filter({ hasText: bo.email }).last();
      await bos.getByText('Open the message').click();
      const text = bos.locator('pre');
      await until(() => text.textContent()).toContain('Olivia Owner sent you version 1');
      expect(await text.textContent()).toContain(`${base}/app/inbox/`);
      // The HTML part is never put into the app's page.
      expect(await page.locator('iframe').count()).toBe(0);
      await screen(page, 'outbox');
      for (const width of [390, 320]) {
        const phone = await sized(context, width);
        await phone.page.goto(`${base}/app/outbox`);
        await until(() => phone.page.getByRole('list', { name: 'Messages' }).locator('.item').count()).toBe(6);
        await phone.page.getByText('Open the message').first().click();
        await until(() => phone.page.locator('.mail-text pre').first().isVisible()).toBe(true);
        expect(await scrollsSideways(phone.page), `${width} px`).toBe(false);
        await screen(phone.page, `outbox-${width}`);
        await phone.context.close();
      }
      await context.close();
    },
    STEP_TIMEOUT,
  );

  it('broke no Content-Security-Policy rule on any page', () => {
    expect(cspErrors).toEqual([]);
  });
});
