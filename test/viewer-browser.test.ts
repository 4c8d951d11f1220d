/**
 * The public viewer in a real browser: hostile report content runs nothing and loads nothing,
 * the CSP-hashed stylesheet applies, and the passcode form works by typing. Browser-side checks
 * are passed to page.evaluate as strings, since the project compiles without the DOM library.
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page, type Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, newUser, type TestContext, type TestUser } from './helpers/test-app.js';
import { newProject, newWorkspace } from './helpers/factories.js';
import { newReport, newTemplate } from './helpers/report-factories.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`viewer-browser tests skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);

/** Each would set window.__pwned, open a dialog or fetch from another origin if it ever became markup. */
const PAYLOADS = [
  '<script>window.__pwned=1;alert(1)</script>',
  '<img src=x onerror="window.__pwned=1;alert(1)">',
  '"><svg onload="window.__pwned=1">',
  '[click](javascript:window.__pwned=1)',
  '![t](https://evil.example/t.png)',
  '<iframe src="https://evil.example/frame"></iframe>',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<style>body{background:url(https://evil.example/bg.png)}</style>',
  '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
  '<a href="javascript:window.__pwned=1">x</a> <form action="https://evil.example/"><button>go</button></form>',
  '<base href="https://evil.example/">',
];

const RAW_TEMPLATE = `# {{ report.name }}

{{ owner.name }}

{{ report.note }}

{% for e in entries %}- {{ e.description }} ({{ e.project.name }})
{% endfor %}`;

describe.skipIf(!hasChromium)('public viewer in Chromium', () => {
  let t: TestContext | undefined;
  let browser: Browser | undefined;
  let base: string;
  let owner: TestUser;
  let openToken: string;
  let lockedToken: string;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await newUser(t, { name: '<img src=x onerror="window.__pwned=1">' });
    const workspace = await newWorkspace(t, owner, '<script>window.__pwned=1</script>');
    const project = await newProject(t, workspace.id, owner.token, '<svg onload="window.__pwned=1">');
    for (const [i, description] of PAYLOADS.entries()) {
      const res = await t.post(
        '/api/v1/time-entries',
        {
          workspaceId: workspace.id,
          projectId: project.id,
          start: `2026-11-0${1 + (i % 9)}T10:00:00Z`,
          minutes: 15,
          description,
          tags: [description.slice(0, 50)],
        },
        owner.token,
      );
      if (res.status !== 201) throw new Error(`entry failed: ${res.status} ${res.text}`);
    }
    const templateId = await newTemplate(t, RAW_TEMPLATE);
    const report = await newReport(t, owner, [workspace.id], {
      name: 'Hostile <script>window.__pwned=1</script>',
      templateId,
      note: PAYLOADS.join('\n\n'),
    });
    openToken = (await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token)).body.token;
    lockedToken = (await t.post(`/api/v1/reports/${report.id}/shares`, { passcode: 'let me in' }, owner.token)).body.token;

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** The answer to the passcode form's POST (the page it navigates to). */
  const isUnlock = (response: Response): boolean => response.request().method() === 'POST' && response.url().startsWith(`${base}/share/`);

  /** A fresh page that records dialogs, console messages and every request it makes. */
  async function watchedPage(): Promise<{ page: Page; dialogs: string[]; console: string[]; requests: string[] }> {
    if (!browser) throw new Error('no browser');
    const page = await browser.newPage();
    const seen = { page, dialogs: [] as string[], console: [] as string[], requests: [] as string[] };
    page.on('dialog', (dialog) => {
      seen.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('console', (message) => seen.console.push(message.text()));
    page.on('request', (request) => seen.requests.push(request.url()));
    return seen;
  }

  it('renders hostile content as text: no script, no dialog, no foreign request', async () => {
    const { page, dialogs, console, requests } = await watchedPage();
    const response = await page.goto(`${base}/share/${openToken}`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    await page.waitForLoadState('load');
    await page.waitForTimeout(300);

    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(dialogs).toEqual([]);
    expect(requests.filter((url) => new URL(url).origin !== base)).toEqual([]);
    expect(await page.locator('script, img, svg, iframe, link, form, base, object, embed').count()).toBe(0);
    expect(await page.locator('[style]').count()).toBe(0);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(await page.textContent('h1')).toBe('Hostile <script>window.__pwned=1</script>');
    expect(await page.textContent('main')).toContain('<img src=x onerror="window.__pwned=1;alert(1)">');

    // The one stylesheet is allowed by its hash and applies; the CSP had nothing to refuse.
    expect(await page.evaluate('getComputedStyle(document.body).maxWidth')).toBe('800px');
    expect(console.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
    await page.close();
  });

  it('unlocks a passcode link by typing: wrong, then right', async () => {
    const { page, dialogs, console, requests } = await watchedPage();
    const prompt = await page.goto(`${base}/share/${lockedToken}`);
    expect(prompt?.status()).toBe(200);
    expect(await page.textContent('h1')).toBe('This report is protected');

    await page.fill('#passcode', 'not the passcode');
    const [wrong] = await Promise.all([page.waitForResponse(isUnlock), page.click('button[type="submit"]')]);
    await page.waitForLoadState();
    expect(wrong.status()).toBe(401);
    expect(await page.textContent('#passcode-error')).toContain('not right');
    expect(await page.getAttribute('#passcode', 'aria-invalid')).toBe('true');

    await page.fill('#passcode', 'let me in');
    const [right] = await Promise.all([page.waitForResponse(isUnlock), page.click('button[type="submit"]')]);
    await page.waitForLoadState();
    expect(right.status()).toBe(200);
    expect(right.request().method()).toBe('POST');
    expect(await page.textContent('h1')).toBe('Hostile <script>window.__pwned=1</script>');

    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(dialogs).toEqual([]);
    expect(requests.filter((url) => new URL(url).origin !== base)).toEqual([]);
    expect(console.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
    await page.close();
  });

  it('shows the not-found page for a dead link', async () => {
    const { page } = await watchedPage();
    const response = await page.goto(`${base}/share/AAAAAAAAAAAAAAAAAAAAAA`);
    expect(response?.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('This link is not available');
    expect(await page.evaluate('getComputedStyle(document.body).maxWidth')).toBe('800px');
    await page.close();
  });
});
