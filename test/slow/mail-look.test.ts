/**
 * How each kind of mail looks (delivery.md §3; docs/email.md): one app with a real SMTP server on
 * loopback and a branded workspace (name, accent, a PNG logo uploaded through the API) produces a
 * mail of every kind; each received message's HTML is opened in Chromium as a mail client would
 * show it (the inline logo as a data: URL, every other request refused) at 390 and 800 px, light
 * and dark. Each must fit a phone without sideways scroll, link only to Chronicle's own https
 * address, load nothing remote, run no script, pass axe-core (serious and critical), and carry the
 * same action link in its plain-text part. Screenshots go to docs/email/ only with SCREENSHOTS_DIR.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  axeViolations,
  COLOUR_RULES,
  hasChromium,
  launchBrowser,
  releaseBrowser,
  SCREENSHOTS,
  STEP_TIMEOUT,
  until,
} from '../helpers/browser.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { newReport, type TestReport } from '../helpers/report-factories.js';
import { startSmtp, type ReceivedMail, type TestSmtp } from '../helpers/smtp.js';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

const BASE = 'https://chronicle.example';
/** An outside address long enough to test wrapping on a phone. */
const CLIENT = 'accounts-payable.department@northwind-consolidated-holdings.example.com';
const KINDS = ['delivery', 'address', 'discussion', 'run_problem', 'password_link', 'digest'] as const;
type Kind = (typeof KINDS)[number];
const WIDTHS = [390, 800] as const;
const SCHEMES = ['light', 'dark'] as const;
const EMAIL_DIR = SCREENSHOTS ? join(SCREENSHOTS, '..', 'email') : null;

describe.skipIf(!hasChromium)('how each mail looks in a mail client', () => {
  let smtp: TestSmtp;
  let t: TestContext;
  let browser: Browser;
  let owner: TestUser;
  let ana: TestUser;
  let ben: TestUser;
  let kei: TestUser;
  let ws: string;
  let report: TestReport;
  const mails = new Map<Kind, ReceivedMail>();

  const drain = () => t.app.chronicle.mailer.drain();
  /** The one mail received since the last call that matches, kept as `kind`. */
  const keep = (kind: Kind, to: string, subject: RegExp) => {
    const found = smtp.received.filter((m) => m.to === to.toLowerCase() && subject.test(m.parsed.subject ?? ''));
    expect(found, `${kind} mail to ${to}`).toHaveLength(1);
    mails.set(kind, found[0]!);
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp({ config: { smtpUrl: smtp.url, publicBaseUrl: BASE } });
    t.clock.set('2026-12-01T12:00:00.000Z');
    owner = await newUser(t, { name: 'Olga Owner', timezone: 'Europe/Berlin' });
    ana = await newUser(t, { name: 'Anastasia Konstantinopoulou-Vandersteen' });
    ben = await newUser(t, { name: 'Ben Member' });
    kei = await newUser(t, { name: 'Kei Tokyo', timezone: 'Asia/Tokyo' });
    ws = (await newWorkspace(t, owner, 'Studio')).id;
    for (const user of [ana, ben, kei]) await addMember(t, ws, user, 'member', owner.token);
    const branded = await t.patch(
      `/api/v1/workspaces/${ws}`,
      { branding: { displayName: 'Acme Studio', accentColor: '#1f5fbf' } },
      owner.token,
    );
    expect(branded.status).toBe(200);
    const logo = await sharp({ create: { width: 340, height: 120, channels: 4, background: '#00000000' } })
      .composite([
        {
          input: Buffer.from(
            '<svg width="340" height="120"><circle cx="60" cy="60" r="48" fill="#1f5fbf"/><circle cx="60" cy="60" r="22" fill="#ffcc00"/>' +
              '<text x="130" y="80" font-family="sans-serif" font-size="56" font-weight="700" fill="#1f5fbf">ACME</text></svg>',
          ),
        },
      ])
      .png()
      .toBuffer();
    const uploaded = await t.request('PUT', `/api/v1/workspaces/${ws}/logo`, {
      token: owner.token,
      raw: logo,
      headers: { 'content-type': 'image/png' },
    });
    expect(uploaded.status).toBe(200);
    for (const [day, minutes, description] of [
      ['2026-11-03', 150, 'Design review'],
      ['2026-11-04', 90, 'Client call'],
    ] as const) {
      await t.post('/api/v1/time-entries', { workspaceId: ws, start: `${day}T08:00:00.000Z`, minutes, description }, owner.token);
    }
    report = await newReport(t, owner, [ws], { name: 'November hours' });
    browser = await launchBrowser();
    if (EMAIL_DIR) mkdirSync(EMAIL_DIR, { recursive: true });
  }, STEP_TIMEOUT);

  afterAll(async () => {
    await releaseBrowser(browser);
    await t.close();
    await smtp.close();
  });

  it(
    'mails one of each kind',
    async () => {
      // A send to teammates with a Markdown message; Ana asks for the PDF, Kei for a daily digest.
      expect((await t.patch('/api/v1/me/notifications', { attachPdf: true }, ana.token)).status).toBe(200);
      expect((await t.patch('/api/v1/me/notifications', { digest: 'daily' }, kei.token)).status).toBe(200);
      const message =
        'Hours for **November**, as agreed:\n\n- design review on the 3rd\n- the client call on the 4th\n\n' +
        'Questions? Reply in the discussion. <script>alert(1)</script>';
      const sent = await t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: [ana.id, ben.id, kei.id], message }, owner.token);
      expect(sent.status).toBe(201);
      await drain();
      keep('delivery', ana.email, /^Olga Owner sent you/);

      // A discussion: a comment and a reaction, batched into one mail to the owner.
      smtp.reset();
      const comments = `/api/v1/report-contents/${report.reportContentId}/comments`;
      expect(
        (await t.post(comments, { body: 'The client call ran long; **should we bill** the extra half hour?' }, ana.token)).status,
      ).toBe(201);
      const reaction = await t.put(`/api/v1/report-contents/${report.reportContentId}/reactions`, { emoji: '+1' }, ben.token);
      expect(reaction.status).toBe(200);
      await drain();
      keep('discussion', owner.email, /on \u201cNovember hours\u201d$/);

      // A scheduled run mailing an outside address with the PDF, and skipping Ben, who left.
      smtp.reset();
      const schedule = await t.put(
        `/api/v1/reports/${report.id}/schedule`,
        {
          frequency: 'weekly',
          weekday: 'monday',
          time: '09:00',
          recipientUserIds: [ana.id, ben.id],
          emails: [CLIENT],
          attachPdf: true,
          message: 'Our hours for **November**. Thank you for the work this month.',
        },
        owner.token,
      );
      expect(schedule.status).toBe(201);
      expect((await t.del(`/api/v1/workspaces/${ws}/members/${ben.id}`, owner.token)).status).toBe(204);
      const run = await t.post(`/api/v1/reports/${report.id}/schedule/run-now`, undefined, owner.token);
      expect(run.status).toBe(202);
      await t.app.chronicle.scheduler.execute(run.body.id);
      await drain();
      keep('address', CLIENT, /^November hours \(/);
      keep('run_problem', owner.email, /^Scheduled run skipped recipients/);

      // A set-password link an admin chooses to e-mail.
      smtp.reset();
      expect((await t.post(`/api/v1/users/${ana.id}/password-link`, { email: true })).status).toBe(201);
      await drain();
      keep('password_link', ana.email, /^Set your Chronicle password$/);

      // Kei's digest, at 08:00 in Tokyo (23:00 UTC).
      smtp.reset();
      t.clock.set('2026-12-01T23:00:00.000Z');
      await drain();
      keep('digest', kei.email, /^Your Chronicle digest/);
      expect([...mails.keys()].sort()).toEqual([...KINDS].sort());
    },
    STEP_TIMEOUT,
  );

  /** The mail's HTML with its inline logo as a data: URL, as a mail client shows it. */
  function asShown(mail: ReceivedMail): string {
    let html = typeof mail.parsed.html === 'string' ? mail.parsed.html : '';
    for (const attachment of mail.parsed.attachments) {
      if (!attachment.cid) continue;
      html = html.replaceAll(`cid:${attachment.cid}`, `data:${attachment.contentType};base64,${attachment.content.toString('base64')}`);
    }
    return html;
  }

  async function openMail(mail: ReceivedMail, width: number, requests: string[]): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 800 }, javaScriptEnabled: true });
    const page = await context.newPage();
    page.on('request', (request) => {
      if (!request.url().startsWith('data:')) requests.push(request.url());
    });
    // Nothing leaves the machine: a mail client with remote content off.
    await page.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
    await page.setContent(asShown(mail), { waitUntil: 'load' });
    return page;
  }

  for (const kind of KINDS) {
    it(
      `shows the ${kind} mail on a phone and a desktop, light and dark`,
      async () => {
        const mail = mails.get(kind);
        expect(mail, `a ${kind} mail`).toBeDefined();
        const text = mail!.parsed.text ?? '';
        for (const width of WIDTHS) {
          const requests: string[] = [];
          const page = await openMail(mail!, width, requests);
          try {
            // The logo, when the mail has one, shows from its inline attachment.
            if (mail!.parsed.attachments.some((a) => a.cid)) {
              await until(() => page.evaluate<number>('document.querySelector("img")?.naturalWidth ?? 0')).toBeGreaterThan(0);
            }
            const facts = await page.evaluate<{ links: string[]; images: string[]; scripts: number; action: string | null }>(`({
              links: [...document.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? ''),
              images: [...document.querySelectorAll('img')].map((i) => i.getAttribute('src') ?? ''),
              scripts: document.querySelectorAll('script, iframe, object, embed, form').length,
              action: document.querySelector('a.button')?.getAttribute('href') ?? null,
            })`);
            for (const href of facts.links) expect(href, 'a link').toMatch(new RegExp(`^${BASE.replace(/\./g, '\\.')}/`));
            for (const src of facts.images) expect(src, 'an image').toMatch(/^data:image\/png;base64,/);
            expect(facts.scripts).toBe(0);
            expect(facts.action, 'the action button').not.toBeNull();
            expect(text).toContain(facts.action);
            if (kind === 'delivery') {
              expect(await page.locator('.message strong').first().textContent()).toBe('November');
              expect(await page.locator('.message li').count()).toBe(2);
              expect(await page.locator('.message').textContent()).toContain('<script>alert(1)</script>');
            }
            for (const scheme of SCHEMES) {
              await page.emulateMedia({ colorScheme: scheme });
              await until(() => page.evaluate(`matchMedia('(prefers-color-scheme: ${scheme})').matches`)).toBe(true);
              if (width === 390) {
                await until(() => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
              }
              // The dark scheme changes colours only: its pass runs axe's colour rules.
              const rules = scheme === 'dark' ? COLOUR_RULES : undefined;
              expect(await axeViolations(page, rules), `axe on ${kind} at ${width} px, ${scheme}`).toEqual([]);
              if (EMAIL_DIR) await page.screenshot({ path: join(EMAIL_DIR, `${kind}-${width}-${scheme}.png`), fullPage: true });
            }
            expect(requests, 'requests leaving the page').toEqual([]);
          } finally {
            await page.context().close();
          }
        }
      },
      STEP_TIMEOUT,
    );
  }
});
