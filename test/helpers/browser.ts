/**
 * The web app in Chromium, for the browser tests (test/slow/web-*.test.ts): the machine's
 * Chromium through playwright-core, pages that record CSP complaints, axe-core checks, and
 * signing in as a user would. Playwright waits for what a user would see, never for the clock.
 * Browser-side code is passed to page.evaluate as strings (no DOM types here).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestContext } from './test-app.js';
import { perProcess } from './per-process.js';

/**
 * The machine's Chromium: Debian's headless shell (`chromium-headless-shell`, the same Blink
 * without the full browser's GPU process and window layers) where installed, else the full browser.
 * With the shell the 16 browser files took 126-132 s of wall time against 188 s, and 40% less CPU.
 */
const CHROMIUMS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'] as const;
export const CHROMIUM = CHROMIUMS.find((path) => existsSync(path)) ?? CHROMIUMS[1];
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`browser tests skipped: no ${CHROMIUMS.join(' or ')} (apt-get install -y chromium-headless-shell)`);

/** Screenshots are written only when asked for (`npm run docs:screenshots`): the suite writes no tracked file. */
export const SCREENSHOTS = process.env.SCREENSHOTS_DIR ?? null;
export const PASSWORD = 'a long and secret password';
export const STEP_TIMEOUT = 120_000;

/** Waits for what a user would see: polls until the assertion holds (renders run in workers, so allow time). */
export const until = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 30_000 });

/**
 * This test process's Chromium, launched on first use and shared by the files it runs, as its
 * database is: a launch costs about 1.5 s. Each file closes what it opened with `releaseBrowser`;
 * the browser ends with the process (Playwright stops it when the process is told to end).
 */
export async function launchBrowser(): Promise<Browser> {
  const slot = perProcess('testBrowser', () => ({ launching: null as Promise<Browser> | null }));
  const running = await slot.launching?.catch(() => null);
  if (running?.isConnected()) return running;
  if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
  const launching = chromium.launch({
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
  slot.launching = launching;
  return launching;
}

/** Closes every context a file opened on the shared browser (`launchBrowser`); the browser stays for the next file. */
export async function releaseBrowser(browser: Browser | undefined): Promise<void> {
  await Promise.all((browser?.contexts() ?? []).map((context) => context.close()));
}

export interface Violation {
  id: string;
  impact: string;
  nodes: string[];
}

/**
 * The axe-core rules whose outcome depends on colours, and so on the colour scheme: the dark
 * scheme of the web app, the share page and the e-mails sets colours only (custom properties and
 * `color`/`background` overrides), so the rest of axe's rules answer in it as in the light one.
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'] as const;

/**
 * axe-core's minified build: less than half the text of its `source` (654 KB against 1,482 KB), so
 * each new document takes it sooner (the 84 injections of web-mail, web-reports and web-journey:
 * 10.4 s against 13.5 s). The same release: package.json pins one.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Serious and critical axe-core violations on the page as it is now: of every rule axe runs by
 * default, or of `rules` only.
 */
export async function axeViolations(page: Page, rules?: readonly string[]): Promise<Violation[]> {
  // page.evaluate runs outside the page's CSP, which would rightly refuse an injected script.
  // Once per document: the web app moves between screens without loading a new one.
  if (await page.evaluate("typeof axe === 'undefined'")) await page.evaluate(AXE_SOURCE);
  const only = rules ? `, runOnly: { type: 'rule', values: ${JSON.stringify(rules)} }` : '';
  return page.evaluate(`axe.run(document, { resultTypes: ['violations']${only} }).then((r) => r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })))`);
}

/** Checks a screen with axe and keeps its screenshot (when SCREENSHOTS_DIR is set). */
export async function screen(page: Page, name: string): Promise<void> {
  expect(await axeViolations(page), `axe on ${name}`).toEqual([]);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}

/**
 * The app's own tables (outside a report's document, whose wide tables scroll in their box with a
 * hint) that are wider than the box they sit in, by their region's name and how far: such a table
 * hides its last columns behind a scroll nobody sees.
 */
const TABLES_WIDER_THAN_THEIR_BOX = `[...document.querySelectorAll('.table-wrap')]
  .filter((box) => !box.closest('.document, .markdown') && box.scrollWidth - box.clientWidth > 1)
  .map((box) => (box.getAttribute('aria-label') ?? 'a table') + ' by ' + (box.scrollWidth - box.clientWidth) + ' px')`;

/** Whether the page is wider than its viewport (it would pan sideways). */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate('document.documentElement.scrollWidth > window.innerWidth');
}

/** A new browser context (its own cookies) with a page whose CSP complaints land in `cspErrors`. */
export async function newPage(
  browser: Browser,
  cspErrors: string[],
  options: { width?: number; dark?: boolean; timezoneId?: string; locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: 900 },
    colorScheme: options.dark ? 'dark' : 'light',
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    ...(options.locale ? { locale: options.locale } : {}),
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) cspErrors.push(message.text());
  });
  return { context, page };
}

/** A user's set-password link, minted by the bootstrap admin through the API, on `base`. */
export async function passwordLink(t: TestContext, base: string, userId: string): Promise<string> {
  const res = await t.post(`/api/v1/users/${userId}/password-link`);
  expect(res.status).toBe(201);
  return (res.body.url as string).replace('http://chronicle.test', base);
}

/** Sets a user's password (PASSWORD) through the API, as following their link would. */
export async function setPassword(t: TestContext, base: string, userId: string): Promise<void> {
  const url = await passwordLink(t, base, userId);
  const res = await t.request('POST', '/api/v1/password-links/redeem', {
    token: null,
    body: { token: new URL(url).hash.slice(1), password: PASSWORD },
  });
  expect(res.status).toBe(201);
}

/** Signs in on the sign-in screen and waits for the inbox. */
export async function signIn(page: Page, base: string, email: string): Promise<void> {
  await page.goto(`${base}/app/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Inbox');
}

/** The widths every screen of a journey must fit: a small phone, a common phone, a wide screen. */
export const CHECKED_WIDTHS = [320, 390, 1440] as const;

async function resizeTo(page: Page, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await until(() => page.evaluate('window.innerWidth')).toBe(width);
}

async function colourScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await until(() => page.evaluate(`matchMedia('(prefers-color-scheme: ${scheme})').matches`)).toBe(true);
}

/**
 * Checks the screen as it is now: axe-core (no serious or critical violation) in the light colour
 * scheme, and its colour rules in the dark one (the rest answer there as in the light), then at
 * 320, 390 and 1440 px that neither the page nor any of the app's tables inside its box scrolls
 * sideways (polled, as the layout follows the resize); a screenshot at each width when SCREENSHOTS_DIR is set
 * (`${name}-320.png` ...; a name with a folder, `journey/inbox`, writes into that folder), of the
 * whole page, or with `around`, of the window scrolled to that element (a page too long to show
 * whole, such as a list of 60 versions). Leaves the page light and at the size it had.
 */
export async function checkScreen(page: Page, name: string, options: { around?: Locator } = {}): Promise<void> {
  if (SCREENSHOTS) mkdirSync(dirname(`${SCREENSHOTS}/${name}`), { recursive: true });
  expect(await axeViolations(page), `axe on ${name}, light`).toEqual([]);
  await colourScheme(page, 'dark');
  expect(await axeViolations(page, COLOUR_RULES), `axe's colour rules on ${name}, dark`).toEqual([]);
  await colourScheme(page, 'light');

  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of CHECKED_WIDTHS) {
    await resizeTo(page, width, size.height);
    // How far the page is wider than the window (0 or less: it does not pan sideways).
    await expect
      .poll(() => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth'), {
        timeout: 30_000,
        message: `${name} at ${width} px scrolls sideways by this many pixels`,
      })
      .toBeLessThanOrEqual(0);
    await expect
      .poll(() => page.evaluate<string[]>(TABLES_WIDER_THAN_THEIR_BOX), {
        timeout: 30_000,
        message: `${name} at ${width} px: tables wider than their box`,
      })
      .toEqual([]);
    if (width < 640) {
      // On a phone the app's header (brand, sections, Sign out) takes at most a fifth of an 844 px
      // screen: with its links one per line beside the brand it took 217 px at 390 px.
      const header = await page.evaluate<number | null>(`document.querySelector('header.top')?.getBoundingClientRect().height ?? null`);
      if (header !== null) expect(header, `${name}: the header's height at ${width} px`).toBeLessThanOrEqual(180);
    }
    if (SCREENSHOTS) {
      await options.around?.evaluate((element) => {
        element.scrollIntoView({ block: 'center' });
      });
      await page.screenshot({ path: `${SCREENSHOTS}/${name}-${width}.png`, fullPage: !options.around });
    }
  }
  await resizeTo(page, size.width, size.height);
}
