/**
 * The API reference at /docs in Chromium: it renders under its CSP with no violation, loads
 * nothing from another origin, gets its scripts compressed, and "Try it out" calls the API with a
 * bearer token. (The reference's
 * headers, CORS and path probes are tested without a browser in test/api/docs-and-cors.test.ts.)
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, releaseBrowser } from '../helpers/browser.js';
import { freePort } from '../helpers/server-process.js';
import { ADMIN_TOKEN, buildTestApp, type TestContext } from '../helpers/test-app.js';

describe.skipIf(!hasChromium)('the API reference in Chromium', () => {
  let browser: Browser | undefined;
  let served: TestContext | undefined;
  let base: string;
  beforeAll(async () => {
    // "Try it out" calls the document's server, PUBLIC_BASE_URL: here the address it listens on.
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    served = await buildTestApp({ config: { publicBaseUrl: base } });
    await served.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await releaseBrowser(browser);
    await served?.close();
  });

  it('renders the reference with no CSP violation, and "try it out" calls the API with a bearer token', async () => {
    const page = await browser!.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(base) && !request.url().startsWith('data:')) outside.push(request.url());
    });
    const bundle = page.waitForResponse((response) => response.url() === `${base}/docs/static/swagger-ui-bundle.js`);
    const document = page.waitForResponse((response) => response.url() === `${base}/docs/json`);
    await page.goto(`${base}/docs`);
    // Swagger UI's 1.7 MB bundle and the 0.4 MB document arrive compressed on the first visit, as Chromium asks for them.
    expect(['br', 'gzip']).toContain((await (await bundle).allHeaders())['content-encoding']);
    expect(['br', 'gzip']).toContain((await (await document).allHeaders())['content-encoding']);
    await page.getByText('Chronicle API').first().waitFor();
    // The top bar's logo is Chronicle's, not the plugin's.
    const logo = page.locator('.topbar-wrapper img').first();
    await expect.poll(() => logo.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(((await logo.getAttribute('src')) ?? '').split(',')[1] ?? '', 'base64').toString();
    expect(svg).toContain('>Chronicle</text>');
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);

    // Authorize with a bearer token, then call GET /api/v1/me from the page.
    await page.locator('button.authorize').first().click();
    await page.locator('.auth-container input').first().fill(ADMIN_TOKEN);
    await page.locator('.auth-btn-wrapper button.authorize').click();
    await page.locator('.btn-done').click();
    const me = page.locator('.opblock', { has: page.locator('[data-path="/api/v1/me"]') }).first();
    await me.locator('.opblock-summary').click();
    await me.getByRole('button', { name: 'Try it out' }).click();
    const answered = page.waitForResponse((response) => response.url() === `${base}/api/v1/me`);
    await me.getByRole('button', { name: 'Execute' }).click();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(response.request().headers().authorization).toBe(`Bearer ${ADMIN_TOKEN}`);
    expect(violations).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  });
});
