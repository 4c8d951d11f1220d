/**
 * Workspace webhooks (delivery.md §4; docs/api.md "Webhooks"): the endpoint API and its rules,
 * the events, and deliveries to real HTTP servers on loopback, driven through the dispatcher's own
 * steps (tick, then each due delivery) on the pinned clock, as the job engine drives them in a
 * server. Two apps share the database and the clock: `t` refuses private addresses (the
 * default) and resolves names with a table of the test's, `open` (WEBHOOK_ALLOW_PRIVATE) reaches
 * the test's servers on 127.0.0.1. No test opens a connection to anything but 127.0.0.1 or ::1.
 */
import { createServer } from 'node:http';
import { sql } from 'drizzle-orm';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../packages/client/src/index.js';
import { rowsOf } from '../../src/db/rows.js';
import { enqueueWebhookEvent } from '../../src/modules/webhooks/webhook-events.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { editReport, newReport, type TestReport } from '../helpers/report-factories.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import {
  buildPeerApp,
  buildTestApp,
  expectProblem,
  first,
  newUser,
  readOnlyToken,
  type TestContext,
  type TestUser,
} from '../helpers/test-app.js';

/** What the injected resolver answers for each name; a test may change it (DNS rebinding). */
const dns = new Map<string, string[]>();
const resolveHost = async (host: string) => {
  const addresses = dns.get(host);
  if (!addresses) throw new Error(`ENOTFOUND ${host}`);
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

let t: TestContext;
let open: TestContext;
let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let stranger: TestUser;
let ws: string;

beforeAll(async () => {
  t = await buildTestApp({ config: { webhookAllowHttp: true }, resolveHost });
  open = await buildPeerApp(t, { webhookAllowHttp: true, webhookAllowPrivate: true });
});
afterAll(async () => {
  await open.close();
  await t.close();
});

beforeEach(async () => {
  t.clock.set('2026-11-20T12:00:00.000Z');
  dns.clear();
  dns.set('hooks.example.com', ['93.184.216.34']);
  owner = await newUser(t);
  admin = await newUser(t);
  member = await newUser(t);
  stranger = await newUser(t);
  ws = (await newWorkspace(t, owner)).id;
  await addMember(t, ws, admin, 'admin', owner.token);
  await addMember(t, ws, member, 'member', owner.token);
});

// ---------------------------------------------------------------------------------------------
// Test servers on loopback

const servers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A receiver (webhook-receiver.ts) closed after the test. */
async function serve(answers?: { status: number; headers?: Record<string, string> }[], host?: string): Promise<WebhookReceiver> {
  const made = await startWebhookReceiver(answers, host);
  servers.push(made);
  return made;
}

/** Whether this machine can listen on IPv6 loopback. */
async function hasIpv6Loopback(): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => {
      resolve(false);
    });
    server.listen(0, '::1', () =>
      server.close(() => {
        resolve(true);
      }),
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers

const hooks = (workspaceId = ws) => `/api/v1/workspaces/${workspaceId}/webhooks`;

async function register(
  body: Record<string, unknown>,
  app: TestContext = open,
  token = owner.token,
): Promise<{ id: string; secret: string }> {
  const res = await app.post(hooks(), { events: ['report.version.created'], ...body }, token);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The dispatcher's steps at the clock's time in `app`: hand on what is due, then work each delivery. */
async function deliverDue(app: TestContext = open): Promise<void> {
  for (const id of await app.app.chronicle.webhooks.tick()) await app.app.chronicle.webhooks.execute(id);
}

const deliveriesOf = async (id: string, token = owner.token) => (await t.get(`/api/v1/webhooks/${id}/deliveries`, token)).body as any[];

/** A delivery of a test event to every endpoint of the workspace, written as an event's change would. */
async function event(workspaceId = ws): Promise<string[]> {
  return t.database.db.transaction((tx) =>
    enqueueWebhookEvent(tx, [workspaceId], 'report.version.created', { report: { id: 'r', name: 'R' }, links: {} }, t.clock.now()),
  );
}

const withEntry = async (report?: TestReport) => {
  await t.post('/api/v1/time-entries', { workspaceId: ws, start: '2026-11-03T08:00:00.000Z', minutes: 60 }, owner.token);
  return report;
};

// ---------------------------------------------------------------------------------------------

describe('the webhook API', () => {
  it('creates, reads, changes, lists and deletes an endpoint; the secret is shown once', async () => {
    const api = t.client(owner.token);
    const created = await unwrap(
      api.POST('/api/v1/workspaces/{id}/webhooks', {
        params: { path: { id: ws } },
        body: { url: 'https://hooks.example.com/chronicle', events: ['report.sent', 'comment.created'] },
      }),
    );
    expect(created).toMatchObject({
      workspaceId: ws,
      url: 'https://hooks.example.com/chronicle',
      events: ['report.sent', 'comment.created'],
      format: 'standard',
      active: true,
      createdByUserId: owner.id,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(24);

    const read = await unwrap(api.GET('/api/v1/webhooks/{id}', { params: { path: { id: created.id } } }));
    expect(read).not.toHaveProperty('secret');
    const listed = await unwrap(api.GET('/api/v1/workspaces/{id}/webhooks', { params: { path: { id: ws } } }));
    expect(listed.map((w) => w.id)).toEqual([created.id]);
    expect(listed[0]).not.toHaveProperty('secret');
    const raw = await t.get(`/api/v1/webhooks/${created.id}`, owner.token);
    expect(raw.text).not.toContain(created.secret.slice(6));
    const answer = await t.post(hooks(), { url: 'https://hooks.example.com/b', events: ['share.viewed'] }, owner.token);
    expect(answer.headers['cache-control']).toBe('no-store');

    // At rest the secret is sealed, never in the clear.
    const stored = rowsOf<{ secret_encrypted: string }>(
      await t.database.db.execute(sql`select secret_encrypted from webhook_endpoints where id = ${created.id}`),
    );
    expect(first(stored).secret_encrypted).not.toContain(created.secret.slice(6));

    const changed = await unwrap(
      api.PATCH('/api/v1/webhooks/{id}', { params: { path: { id: created.id } }, body: { active: false, format: 'slack' } }),
    );
    expect(changed).toMatchObject({ active: false, format: 'slack', events: ['report.sent', 'comment.created'] });
    expect((await t.patch(`/api/v1/webhooks/${created.id}`, {}, owner.token)).body).toMatchObject({ active: false });

    expect((await t.del(`/api/v1/webhooks/${created.id}`, owner.token)).status).toBe(204);
    expectProblem(await t.get(`/api/v1/webhooks/${created.id}`, owner.token), 404);
  });

  it.each([
    ['not a URL', { url: 'not a url' }, '/url'],
    ['another scheme', { url: 'ftp://hooks.example.com/x' }, '/url'],
    ['credentials in the URL', { url: 'https://user:pw@hooks.example.com/x' }, '/url'],
    ['a URL over 2,000 characters', { url: `https://hooks.example.com/${'a'.repeat(2000)}` }, '/url'],
    ['no events', { events: [] }, '/events'],
    ['an unknown event', { events: ['report.deleted'] }, '/events/0'],
    ['an event twice', { events: ['report.sent', 'report.sent'] }, '/events'],
    ['an unknown format', { format: 'teams' }, '/format'],
    ['an unknown field', { secret: 'whsec_mine' }, '/secret'],
    ['a loopback address', { url: 'https://127.0.0.1/x' }, '/url'],
    ['IPv6 loopback', { url: 'https://[::1]/x' }, '/url'],
    ['a private address', { url: 'https://10.0.0.1/x' }, '/url'],
    ['a link-local address', { url: 'https://169.254.169.254/latest/meta-data' }, '/url'],
    ['an IPv4-mapped private address', { url: 'https://[::ffff:10.0.0.1]/x' }, '/url'],
    ['a name that resolves to loopback', { url: 'https://loopback.test/x' }, '/url'],
  ])('refuses %s with a 400 naming the field', async (_what, change, path) => {
    dns.set('loopback.test', ['127.0.0.1']);
    const body = { url: 'https://hooks.example.com/x', events: ['report.sent'], ...change };
    const problem = expectProblem(await t.post(hooks(), body, owner.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
    expect(problem.errors?.[0]?.message.length).toBeGreaterThan(0);
  });

  it('refuses plain http unless WEBHOOK_ALLOW_HTTP is on, and private addresses in a change too', async () => {
    const strict = await buildPeerApp(t);
    try {
      const problem = expectProblem(
        await strict.post(hooks(), { url: 'http://hooks.example.com/x', events: ['report.sent'] }, owner.token),
        400,
      );
      expect(problem.errors).toEqual([{ path: '/url', message: 'must be an https URL' }]);
    } finally {
      await strict.close();
    }
    const { id } = await register({ url: 'https://hooks.example.com/x' }, t);
    expectProblem(await t.patch(`/api/v1/webhooks/${id}`, { url: 'https://192.168.1.1/x' }, owner.token), 400);
  });

  it('allows at most 20 endpoints per workspace (409)', async () => {
    for (let i = 0; i < 20; i++) await register({ url: `https://hooks.example.com/${i}` }, t);
    const problem = expectProblem(
      await t.post(hooks(), { url: 'https://hooks.example.com/21', events: ['report.sent'] }, owner.token),
      409,
    );
    expect(problem.detail).toContain('20');
  });

  it('is for workspace admins and owners: 404 for strangers, 403 for members and without the write scope', async () => {
    const { id } = await register({ url: 'https://hooks.example.com/x' }, t, admin.token);
    const body = { url: 'https://hooks.example.com/y', events: ['report.sent'] };
    for (const [method, url] of [
      ['GET', hooks()],
      ['POST', hooks()],
      ['GET', `/api/v1/webhooks/${id}`],
      ['PATCH', `/api/v1/webhooks/${id}`],
      ['DELETE', `/api/v1/webhooks/${id}`],
      ['GET', `/api/v1/webhooks/${id}/deliveries`],
    ] as const) {
      const payload = method === 'POST' || method === 'PATCH' ? { body } : {};
      expectProblem(await t.request(method, url, { token: stranger.token, ...payload }), 404);
      expectProblem(await t.request(method, url, { token: member.token, ...payload }), 403);
    }
    const reader = await readOnlyToken(t, owner);
    expect((await t.get(hooks(), reader)).status).toBe(200);
    expectProblem(await t.post(hooks(), body, reader), 403);
    expectProblem(await t.del(`/api/v1/webhooks/${id}`, reader), 403);
    // Instance admins act as owners everywhere.
    expect((await t.get(`/api/v1/webhooks/${id}`)).status).toBe(200);
    expectProblem(await t.get('/api/v1/webhooks/0195d2c4-0000-7000-8000-000000000000', owner.token), 404);
  });
});

describe('events', () => {
  it('a report of the workspace: its versions, its send, a comment and share views (one an hour per link)', async () => {
    const { id } = await register(
      {
        url: 'https://hooks.example.com/all',
        events: ['report.version.created', 'report.sent', 'comment.created', 'share.viewed', 'schedule.run.finished'],
      },
      t,
    );
    await withEntry();
    const report = await newReport(t, owner, [ws], { name: 'Weekly hours' });
    await editReport(t, owner, report, { note: 'Second' });
    expect((await t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: [member.id] }, owner.token)).status).toBe(201);
    const current = (await t.get(`/api/v1/reports/${report.id}`, owner.token)).body;
    const comment = await t.post(
      `/api/v1/report-contents/${current.reportContentId}/comments`,
      { body: 'Thanks, private words' },
      member.token,
    );
    expect(comment.status).toBe(201);
    const share = (await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token)).body;
    for (let i = 0; i < 3; i++) expect((await t.request('GET', `/share/${share.token}`, { token: null })).status).toBe(200);
    // A second process asks the database, which remembers the hour.
    expect((await open.request('GET', `/share/${share.token}`, { token: null })).status).toBe(200);

    let deliveries = await deliveriesOf(id);
    expect(deliveries.map((d) => d.eventType).reverse()).toEqual([
      'report.version.created',
      'report.version.created',
      'report.sent',
      'comment.created',
      'share.viewed',
    ]);
    const [viewed, commented, sent, edited, created] = deliveries;
    expect(created.data).toMatchObject({ trigger: 'create', report: { id: report.id, name: 'Weekly hours', version: 1 } });
    expect(edited.data).toMatchObject({ trigger: 'edit', report: { version: 2 }, links: { report: `/app/reports/${report.id}` } });
    expect(sent.data).toMatchObject({ send: { recipients: 1, sendToSelf: false }, sender: { id: owner.id, name: owner.name } });
    expect(commented.data).toMatchObject({ author: { id: member.id }, comment: { id: comment.body.id } });
    expect(viewed.data).toMatchObject({ share: { id: share.id }, report: { id: report.id, version: 2 } });
    // Never a token, a passcode or a document; not a comment's text either.
    const everything = JSON.stringify(deliveries);
    expect(everything).not.toContain(share.token);
    expect(everything).not.toContain('private words');
    expect(everything).not.toContain('renderedMarkdown');
    expect(deliveries.every((d) => d.status === 'queued' && d.attempts === 0)).toBe(true);

    t.clock.advance(60 * 60 * 1000);
    expect((await t.request('GET', `/share/${share.token}`, { token: null })).status).toBe(200);
    deliveries = await deliveriesOf(id);
    expect(deliveries.filter((d) => d.eventType === 'share.viewed')).toHaveLength(2);
  });

  it("a link's concurrent first views ask the database for the hour's event once", async () => {
    const { id } = await register({ url: 'https://hooks.example.com/views', events: ['share.viewed'] }, t);
    await withEntry();
    const report = await newReport(t, owner, [ws], { name: 'Busy link' });
    const share = (await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token)).body;
    const asked: string[] = [];
    const stop = t.database.observeQueries((text) => {
      if (/insert into "webhook_share_views"/i.test(text)) asked.push(text);
    });
    try {
      const views = await Promise.all(Array.from({ length: 20 }, () => t.request('GET', `/share/${share.token}`, { token: null })));
      expect(views.map((view) => view.status)).toEqual(Array.from({ length: 20 }, () => 200));
    } finally {
      stop();
    }
    expect(asked).toHaveLength(1);
    expect((await deliveriesOf(id)).filter((d) => d.eventType === 'share.viewed')).toHaveLength(1);
  });

  it('a scheduled run: its version, its send and its end', async () => {
    const { id } = await register(
      { url: 'https://hooks.example.com/runs', events: ['report.version.created', 'report.sent', 'schedule.run.finished'] },
      t,
    );
    await withEntry();
    const report = await newReport(t, owner, [ws]);
    const put = await t.put(
      `/api/v1/reports/${report.id}/schedule`,
      { frequency: 'daily', time: '09:00', recipientUserIds: [member.id] },
      owner.token,
    );
    expect(put.status).toBe(201);
    const run = await t.post(`/api/v1/reports/${report.id}/schedule/run-now`, {}, owner.token);
    await t.app.chronicle.scheduler.execute(run.body.id);
    const deliveries = (await deliveriesOf(id)).reverse();
    expect(deliveries.map((d) => d.eventType)).toEqual([
      'report.version.created',
      'report.version.created',
      'report.sent',
      'schedule.run.finished',
    ]);
    expect(deliveries[1].data).toMatchObject({ trigger: 'schedule', report: { version: 2 } });
    expect(deliveries[3].data).toMatchObject({
      run: { id: run.body.id, status: 'succeeded', trigger: 'manual', delivered: 1 },
      report: { version: 2 },
    });
  });

  it('goes only to active endpoints that take the event, and never for a report over several workspaces', async () => {
    const other = (await newWorkspace(t, owner)).id;
    const taking = await register({ url: 'https://hooks.example.com/a', events: ['report.version.created'] }, t);
    const paused = await register({ url: 'https://hooks.example.com/b', events: ['report.version.created'], active: false }, t);
    const elsewhere = await register({ url: 'https://hooks.example.com/c', events: ['report.sent'] }, t);
    await withEntry();
    await newReport(t, owner, [ws, other]);
    expect(await deliveriesOf(taking.id)).toEqual([]);
    await newReport(t, owner, [ws]);
    expect(await deliveriesOf(taking.id)).toHaveLength(1);
    expect(await deliveriesOf(paused.id)).toEqual([]);
    expect(await deliveriesOf(elsewhere.id)).toEqual([]);
  });
});

describe('delivery', () => {
  it('POSTs a standard event signed as Standard Webhooks sign it, with absolute links', async () => {
    const server = await serve();
    const { id, secret } = await register({ url: server.url });
    await withEntry();
    const report = await newReport(t, owner, [ws], { name: 'Signed' });
    await deliverDue();
    const request = first(server.received);
    const msgId = String(request.headers['webhook-id']);
    const timestamp = Number(request.headers['webhook-timestamp']);
    expect(timestamp).toBe(Math.floor(t.clock.now().getTime() / 1000));
    // The independent implementation computes the same signature for the same message.
    const expected = new StandardWebhook(secret).sign(msgId, new Date(timestamp * 1000), request.body);
    expect(request.headers['webhook-signature']).toBe(expected);
    expect(request.headers['content-type']).toBe('application/json');
    const body = JSON.parse(request.body);
    expect(body).toMatchObject({
      type: 'report.version.created',
      data: { report: { id: report.id, name: 'Signed' }, links: { report: `http://chronicle.test/app/reports/${report.id}` } },
    });
    const [delivery] = await deliveriesOf(id);
    expect(delivery).toMatchObject({ id: msgId, status: 'succeeded', attempts: 1, responseStatus: 204, error: null, nextAttemptAt: null });

    // With the clock at real time, the library's own verify (which checks the timestamp) accepts it too.
    t.clock.reset();
    await withEntry(await editReport(t, owner, report, { note: 'now' }));
    await deliverDue();
    const second = server.received[1]!;
    expect(() => new StandardWebhook(secret).verify(second.body, second.headers as Record<string, string>)).not.toThrow();
  });

  it('sends a slack endpoint an incoming-webhook message', async () => {
    const server = await serve([{ status: 200 }]);
    await register({ url: server.url, format: 'slack' });
    await withEntry();
    const report = await newReport(t, owner, [ws], { name: 'Hours <&> more' });
    await deliverDue();
    const request = first(server.received);
    expect(request.headers['webhook-signature']).toBeUndefined();
    expect(JSON.parse(request.body)).toEqual({
      text: `Chronicle: New version of "Hours &lt;&amp;&gt; more" (version 1). <http://chronicle.test/app/reports/${report.id}|Open in Chronicle>`,
    });
  });

  it('retries a failed attempt after its backoff and delivers it once', async () => {
    const server = await serve([{ status: 500 }, { status: 200 }]);
    const { id } = await register({ url: server.url });
    await event();
    await deliverDue();
    let [delivery] = await deliveriesOf(id);
    expect(delivery).toMatchObject({ status: 'queued', attempts: 1, responseStatus: 500, error: 'Answered 500.' });
    expect(delivery.nextAttemptAt).toBe(new Date(t.clock.now().getTime() + 30_000).toISOString());
    // Not due yet: nothing happens, however often it is asked.
    await deliverDue();
    await open.app.chronicle.webhooks.execute(delivery.id);
    expect(server.received).toHaveLength(1);
    t.clock.advance(30_000);
    // Two attempts at once: the database gives the delivery to one.
    const due = await open.app.chronicle.webhooks.tick();
    await Promise.all([...due, ...due].map((d) => open.app.chronicle.webhooks.execute(d)));
    [delivery] = await deliveriesOf(id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2, responseStatus: 200, error: null });
    expect(server.received).toHaveLength(2);
    expect(server.received[1]?.headers['webhook-id']).toBe(server.received[0]?.headers['webhook-id']);
    await deliverDue();
    expect(server.received).toHaveLength(2);
  });

  it('gives up 24 hours after the event', async () => {
    const server = await serve([{ status: 503 }]);
    const { id } = await register({ url: server.url });
    await event();
    await deliverDue();
    for (let i = 0; i < 30 && (await deliveriesOf(id))[0].status === 'queued'; i++) {
      t.clock.advance(4 * 60 * 60 * 1000);
      await deliverDue();
    }
    const [delivery] = await deliveriesOf(id);
    expect(delivery.status).toBe('failed');
    expect(delivery.error).toContain('Gave up');
    expect(delivery.attempts).toBe(server.received.length);
    expect(delivery.attempts).toBeGreaterThan(5);
  });

  it('does not follow a redirect (to loopback or anywhere)', async () => {
    const target = await serve();
    const redirecting = await serve([{ status: 302, headers: { location: target.url } }]);
    const { id } = await register({ url: redirecting.url });
    await event();
    await deliverDue();
    expect(redirecting.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
    expect((await deliveriesOf(id))[0]).toMatchObject({
      status: 'queued',
      responseStatus: 302,
      error: 'Answered 302; redirects are not followed.',
    });
  });
});

describe('addresses webhooks may not reach', () => {
  it('refuses loopback at delivery: 127.0.0.1, ::1 and a name resolving to 127.0.0.1, without connecting', async () => {
    const v4 = await serve();
    const targets = [v4.url];
    const checked = [v4];
    if (await hasIpv6Loopback()) {
      const v6 = await serve([{ status: 204 }], '::1');
      targets.push(v6.url);
      checked.push(v6);
    }
    const endpoints = [];
    // Registered where private addresses are allowed (or while the name resolved elsewhere)...
    for (const url of targets) endpoints.push(await register({ url }));
    const port = new URL(v4.url).port;
    endpoints.push(await register({ url: `http://hooks.example.com:${port}/hook` }, t));
    dns.set('hooks.example.com', ['127.0.0.1']);
    // ...and delivered by a process that refuses them.
    await event();
    await deliverDue(t);
    for (const server of checked) expect(server.received).toEqual([]);
    for (const endpoint of endpoints) {
      const [delivery] = await deliveriesOf(endpoint.id);
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, responseStatus: null });
      expect(delivery.error).toMatch(/^Refused: .*loopback/);
    }
  });

  it.each([
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fc00::1', 'private'],
    ['fe80::1', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
  ])('refuses a name that resolves to %s (%s), at registration and at delivery', async (address, reason) => {
    dns.set('internal.example.com', [address]);
    const refused = expectProblem(
      await t.post(hooks(), { url: 'https://internal.example.com/x', events: ['report.sent'] }, owner.token),
      400,
    );
    expect(refused.errors?.[0]?.message).toContain(reason);
    // One public and one private address is still refused.
    dns.set('internal.example.com', ['93.184.216.34', address]);
    expectProblem(await t.post(hooks(), { url: 'https://internal.example.com/x', events: ['report.sent'] }, owner.token), 400);
    // A name that changes what it resolves to after registration is checked again when sent.
    dns.set('internal.example.com', ['93.184.216.34']);
    const { id } = await register({ url: 'https://internal.example.com/x' }, t);
    dns.set('internal.example.com', [address]);
    await event();
    await deliverDue(t);
    const [delivery] = await deliveriesOf(id);
    expect(delivery).toMatchObject({ status: 'failed', responseStatus: null });
    expect(delivery.error).toContain(reason);
  });
});

describe('the deliveries list', () => {
  it('pages newest first with X-Total-Count', async () => {
    const { id } = await register({ url: 'https://hooks.example.com/x' }, t);
    for (let i = 0; i < 3; i++) {
      await event();
      t.clock.advance(1000);
    }
    const page = await t.get(`/api/v1/webhooks/${id}/deliveries`, owner.token, { limit: 2 });
    expect(page.status).toBe(200);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.body).toHaveLength(2);
    expect(String(page.headers.link)).toContain('offset=2');
    expect(page.body[0].createdAt > page.body[1].createdAt).toBe(true);
  });

  it('loses a delivery with its endpoint', async () => {
    const { id } = await register({ url: 'https://hooks.example.com/x' }, t);
    const [delivery] = await event();
    await t.del(`/api/v1/webhooks/${id}`, owner.token);
    expect(await t.app.chronicle.webhooks.tick()).not.toContain(delivery);
    await t.app.chronicle.webhooks.execute(delivery!);
    const left = await t.database.db.execute(sql`select id from webhook_deliveries where endpoint_id = ${id}`);
    expect(rowsOf(left)).toEqual([]);
  });
});
