/**
 * Workspace webhooks in Chromium (docs/web.md "Webhooks"): a workspace owner adds an endpoint
 * (its signing secret shown once, with a copy button and a warning), sees it listed, pauses and
 * resumes it, reads its deliveries and another endpoint's delivered one with its answer, and
 * deletes it after a confirmation; a plain member sees no Webhooks section. What the API stored is
 * read through it; axe-core at 1440, 390 and 320 px, no sideways scroll on a phone, no CSP
 * complaint. Only loopback traffic: the app resolves hooks.example.com by the test's table and
 * never delivers to it (no job engine); the one delivery made goes, through a peer app that allows
 * private addresses, to a server of the test's on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
import { buildPeerApp, buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

interface Delivery {
  id: string;
  eventType: string;
  status: string;
  attempts: number;
  responseStatus: number | null;
}

describe.skipIf(!hasChromium)('workspace webhooks in Chromium', () => {
  let t: TestContext;
  let open: TestContext;
  let browser: Browser;
  let base: string;
  let owner: TestUser;
  let member: TestUser;
  let workspaceId: string;
  let reportId: string;
  let receiver: Server;
  let receiverUrl: string;
  const received: string[] = [];
  let context: BrowserContext;
  let page: Page;
  const cspErrors: string[] = [];

  const section = () => page.getByRole('region', { name: 'Webhooks' });
  const hooks = async () => (await t.get(`/api/v1/workspaces/${workspaceId}/webhooks`, owner.token)).body as { id: string; url: string }[];
  const deliveries = async (id: string) => (await t.get(`/api/v1/webhooks/${id}/deliveries`, owner.token)).body as Delivery[];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // Registration resolves the name through this table: a public address, never connected to.
    t = await buildTestApp({
      config: { publicBaseUrl: base },
      resolveHost: async (host) => {
        if (host !== 'hooks.example.com') throw new Error(`ENOTFOUND ${host}`);
        return [{ address: '93.184.216.34', family: 4 }];
      },
    });
    open = await buildPeerApp(t, { publicBaseUrl: base, webhookAllowHttp: true, webhookAllowPrivate: true });
    await t.app.listen({ port, host: '127.0.0.1' });
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    owner = await newUser(t, { name: 'Olivia Owner', locale: 'en-GB' });
    member = await newUser(t, { name: 'Mo Member' });
    workspaceId = (await newWorkspace(t, owner, 'Acme')).id;
    await addMember(t, workspaceId, member, 'member', owner.token);
    reportId = (await newReport(t, owner, [workspaceId], { name: 'Weekly timesheet' })).id;
    await setPassword(t, base, owner.id);
    await setPassword(t, base, member.id);
    browser = await launchBrowser();
  }, STEP_TIMEOUT);

  afterAll(async () => {
    // Any may be missing when start-up failed part way.
    await releaseBrowser(browser);
    const server = receiver as Server | undefined;
    if (server) await new Promise((resolve) => server.close(resolve));
    await (open as TestContext | undefined)?.close();
    await (t as TestContext | undefined)?.close();
  });

  it(
    'adds an endpoint and shows its signing secret once, with a copy button and a warning',
    async () => {
      ({ context, page } = await newPage(browser, cspErrors, { width: 1440 }));
      await signIn(page, base, owner.email);
      await page.goto(`${base}/app/workspaces/${workspaceId}`);
      await until(() => section().textContent()).toContain('No endpoints yet.');
      const form = section().getByRole('form', { name: 'Add an endpoint' });
      // An empty address, and no event, are refused in place.
      await form.getByLabel('A report is sent').uncheck();
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      await until(() => form.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
      await form.getByLabel('URL').fill('https://hooks.example.com/chronicle');
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      await until(() => form.getByRole('alert').textContent()).toBe('Choose at least one event.');
      expect(await hooks()).toEqual([]);

      await form.getByLabel('A report is sent').check();
      await form.getByLabel('Someone comments on a report').check();
      await screen(page, 'workspace-webhooks-form');
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      const once = section().locator('.once');
      await until(() => once.locator('code').first().textContent()).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(await once.textContent()).toContain('It will not be shown again.');
      expect(await once.getByRole('button', { name: 'Copy secret' }).count()).toBe(1);
      const [stored] = (await t.get(`/api/v1/workspaces/${workspaceId}/webhooks`, owner.token)).body as Record<string, unknown>[];
      expect(stored).toMatchObject({
        url: 'https://hooks.example.com/chronicle',
        events: ['report.sent', 'comment.created'],
        format: 'standard',
        active: true,
      });
      expect(stored).not.toHaveProperty('secret');
      const item = section().getByRole('list', { name: 'Endpoints' }).getByRole('listitem');
      await until(() => item.locator('p.url').textContent()).toBe('https://hooks.example.com/chronicle');
      expect(await item.locator('.meta').textContent()).toBe('Events: sent, comment');
      await screen(page, 'workspace-webhooks-secret');

      // Gone once dismissed, and never shown again after a reload.
      await once.getByRole('button', { name: 'I have stored it' }).click();
      await until(() => section().locator('.once').count()).toBe(0);
      await page.reload();
      await until(() => section().getByRole('list', { name: 'Endpoints' }).getByRole('listitem').count()).toBe(1);
      expect(await section().textContent()).not.toContain('whsec_');
    },
    STEP_TIMEOUT,
  );

  it(
    'pauses and resumes the endpoint',
    async () => {
      const item = section().getByRole('list', { name: 'Endpoints' }).getByRole('listitem').first();
      await item.getByRole('button', { name: 'Pause https://hooks.example.com/chronicle' }).click();
      await until(() => item.locator('.state').textContent()).toBe('Paused');
      expect((await hooks())[0]).toMatchObject({ active: false });
      await item.getByRole('button', { name: 'Resume https://hooks.example.com/chronicle' }).click();
      await until(() => item.locator('.state').textContent()).toBe('Active');
      expect((await hooks())[0]).toMatchObject({ active: true });
    },
    STEP_TIMEOUT,
  );

  it(
    'lists each endpoint’s deliveries: one waiting for its first attempt, one delivered with its answer',
    async () => {
      // A second endpoint on the test's own server, registered where private addresses are allowed.
      const made = await open.post(
        `/api/v1/workspaces/${workspaceId}/webhooks`,
        { url: receiverUrl, events: ['report.sent'], format: 'slack' },
        owner.token,
      );
      expect(made.status, made.text).toBe(201);
      const local = made.body.id as string;
      const sent = await t.post(`/api/v1/reports/${reportId}/send`, { recipientUserIds: [member.id] }, owner.token);
      expect(sent.status, sent.text).toBe(201);
      // Only the local endpoint's delivery is worked: hooks.example.com's stays queued, never sent.
      const [delivery] = await deliveries(local);
      await open.app.chronicle.webhooks.execute(delivery?.id ?? '');
      // A Slack endpoint gets an incoming-webhook message.
      expect(received).toHaveLength(1);
      expect(JSON.parse(received[0] ?? '{}')).toEqual({ text: expect.stringMatching(/^Chronicle: /) });

      await page.reload();
      const list = section().getByRole('list', { name: 'Endpoints' });
      await until(() =>
        list
          .getByRole('listitem')
          .filter({ has: page.locator('p.url') })
          .count(),
      ).toBe(2);
      const remoteItem = list.locator('li.webhook').filter({ hasText: 'https://hooks.example.com/chronicle' });
      const localItem = list.locator('li.webhook').filter({ hasText: receiverUrl });
      expect(await localItem.locator('.tag').textContent()).toBe('Slack');

      await remoteItem.getByRole('button', { name: 'Deliveries of https://hooks.example.com/chronicle' }).click();
      const remoteDeliveries = remoteItem.getByRole('region', { name: 'Deliveries' });
      await until(() => remoteDeliveries.locator('.delivery').count()).toBe(1);
      expect(await remoteDeliveries.locator('.delivery .state').textContent()).toBe('Queued');
      expect(await remoteDeliveries.locator('.delivery code').textContent()).toBe('report.sent');
      expect(await remoteDeliveries.locator('.delivery .meta').textContent()).toContain('no answer yet · 0 attempts');

      await localItem.getByRole('button', { name: `Deliveries of ${receiverUrl}` }).click();
      const localDeliveries = localItem.getByRole('region', { name: 'Deliveries' });
      await until(() => localDeliveries.locator('.delivery .state').textContent()).toBe('Succeeded');
      expect(await localDeliveries.locator('.delivery .meta').textContent()).toContain('answered 204 · 1 attempt · delivered');
      expect(await deliveries(local)).toMatchObject([{ status: 'succeeded', attempts: 1, responseStatus: 204, eventType: 'report.sent' }]);
      const remoteId = (await hooks()).find((h) => h.url === 'https://hooks.example.com/chronicle')?.id ?? '';
      expect(await deliveries(remoteId)).toMatchObject([{ status: 'queued', attempts: 0, responseStatus: null }]);
      await screen(page, 'workspace-webhooks');

      for (const width of [390, 320]) {
        const phone = await newPage(browser, cspErrors, { width });
        await phone.context.addCookies(await context.cookies());
        await phone.page.goto(`${base}/app/workspaces/${workspaceId}`);
        const hooksSection = phone.page.getByRole('region', { name: 'Webhooks' });
        await until(() => hooksSection.locator('li.webhook').count()).toBe(2);
        await hooksSection.getByRole('button', { name: `Deliveries of ${receiverUrl}` }).click();
        await until(() => hooksSection.locator('.delivery').count()).toBe(1);
        expect(await scrollsSideways(phone.page), `${width} px`).toBe(false);
        await screen(phone.page, `workspace-webhooks-${width}`);
        await phone.context.close();
      }
    },
    STEP_TIMEOUT,
  );

  it(
    'deletes an endpoint after a confirmation',
    async () => {
      const item = section().locator('li.webhook').filter({ hasText: 'https://hooks.example.com/chronicle' });
      await item.getByRole('button', { name: 'Delete https://hooks.example.com/chronicle' }).click();
      await item.getByRole('button', { name: 'Really delete, with its deliveries' }).click();
      await until(() => section().locator('li.webhook').count()).toBe(1);
      expect((await hooks()).map((h) => h.url)).toEqual([receiverUrl]);
      await context.close();
    },
    STEP_TIMEOUT,
  );

  it(
    'shows a plain member no Webhooks section',
    async () => {
      const members = await newPage(browser, cspErrors, { width: 1440 });
      await signIn(members.page, base, member.email);
      await members.page.goto(`${base}/app/workspaces/${workspaceId}`);
      await until(() => members.page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme');
      await until(() => members.page.getByRole('region', { name: 'Members' }).count()).toBe(1);
      expect(await members.page.getByRole('region', { name: 'Webhooks' }).count()).toBe(0);
      await members.context.close();
    },
    STEP_TIMEOUT,
  );

  it('broke no Content-Security-Policy rule on any page', () => {
    expect(cspErrors).toEqual([]);
  });
});
