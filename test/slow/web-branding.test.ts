/**
 * Workspace branding in Chromium (docs/web.md "Branding"): an owner sets the display name, tries
 * a colour too light for white text (refused in place, with its contrast), takes a readable one,
 * writes a footer and uploads a logo, which the page previews; the share page of a report then
 * shows the name, the logo (loaded from its own origin), the accent and the footer, with no CSP
 * complaint. Both screens go through checkScreen (axe light and dark; no sideways scroll at 320,
 * 390 and 1440 px). Screenshots only with SCREENSHOTS_DIR; waits poll what a user would see.
 */
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkScreen,
  hasChromium,
  launchBrowser,
  newPage as openPage,
  releaseBrowser,
  setPassword,
  signIn,
  STEP_TIMEOUT,
  until,
} from '../helpers/browser.js';
import { newWorkspace } from '../helpers/factories.js';
import { newReport } from '../helpers/report-factories.js';
import { freePort } from '../helpers/server-process.js';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

describe.skipIf(!hasChromium)('workspace branding in Chromium', () => {
  let t: TestContext;
  let browser: Browser;
  let base: string;
  let owner: TestUser;
  let workspaceId: string;
  let page: Page;
  const cspErrors: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await buildTestApp({ config: { publicBaseUrl: base } });
    await t.app.listen({ port, host: '127.0.0.1' });
    owner = await newUser(t, { name: 'Olga Owner' });
    workspaceId = (await newWorkspace(t, owner, 'Studio')).id;
    await setPassword(t, base, owner.id);
    browser = await launchBrowser();
  }, STEP_TIMEOUT);

  afterAll(async () => {
    await releaseBrowser(browser);
    await t.close();
  });

  it(
    'sets the name, a readable accent, the footer and the logo',
    async () => {
      ({ page } = await openPage(browser, cspErrors, { width: 1440 }));
      await signIn(page, base, owner.email);
      await page.goto(`${base}/app/workspaces/${workspaceId}`);
      const section = page.getByRole('region', { name: 'Branding' });
      await until(() => section.isVisible()).toBe(true);

      await section.getByLabel('Display name').fill('Acme Studio');
      const accent = section.getByLabel('Accent colour', { exact: true });
      await accent.fill('#ffff00');
      await until(() => section.textContent()).toContain('Contrast with white 1.07:1: too light');
      await section.getByRole('button', { name: 'Save branding' }).click();
      await until(() => page.evaluate<string | null>('document.activeElement?.getAttribute("placeholder") ?? null')).toBe('#1f5fbf');
      expect((await t.get(`/api/v1/workspaces/${workspaceId}`, owner.token)).body.branding.displayName).toBeNull();

      await accent.fill('#1f5fbf');
      await until(() => section.textContent()).toContain('Contrast with white 6.09:1: readable.');
      await section.getByLabel('Footer').fill('Questions? Write to [hello@acme.example](mailto:hello@acme.example).');
      await section.getByRole('button', { name: 'Save branding' }).click();
      await until(() => section.getByRole('status').textContent()).toContain('Saved.');

      const logo = await sharp({ create: { width: 960, height: 240, channels: 3, background: '#1f5fbf' } })
        .composite([{ input: Buffer.from('<svg width="960" height="240"><circle cx="120" cy="120" r="90" fill="#ffcc00"/></svg>') }])
        .jpeg()
        .toBuffer();
      await section.locator('input[type=file]').setInputFiles({ name: 'logo.jpg', mimeType: 'image/jpeg', buffer: logo });
      await until(() => section.getByRole('img', { name: "The workspace's logo" }).isVisible()).toBe(true);
      await until(() => page.evaluate<number>('document.querySelector(".logo-preview")?.naturalWidth ?? 0')).toBe(512);
      await checkScreen(page, 'branding/settings');

      const stored = (await t.get(`/api/v1/workspaces/${workspaceId}`, owner.token)).body.branding;
      expect(stored).toMatchObject({ displayName: 'Acme Studio', accentColor: '#1f5fbf', logo: { width: 512, height: 128 } });
    },
    STEP_TIMEOUT,
  );

  it(
    'shows it on the share page, every part loaded under its CSP',
    async () => {
      const report = await newReport(t, owner, [workspaceId], { name: 'November timesheet' });
      const share = await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token);
      ({ page } = await openPage(browser, cspErrors, { width: 1440 }));
      await page.goto(`${base}/share/${share.body.token}`);
      await until(() => page.locator('.brand').textContent()).toContain('Acme Studio');
      await until(() => page.evaluate<number>('document.querySelector(".brand img")?.naturalWidth ?? 0')).toBe(512);
      expect(await page.locator('.site-footer a[href^="mailto:"]').textContent()).toBe('hello@acme.example');
      // The accent stylesheet applied: links take the workspace's colour.
      expect(await page.evaluate<string>('getComputedStyle(document.querySelector(".site-footer a")).color')).toBe('rgb(31, 95, 191)');
      await checkScreen(page, 'branding/share-page');
      expect(cspErrors).toEqual([]);
    },
    STEP_TIMEOUT,
  );
});
