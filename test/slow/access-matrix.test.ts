/**
 * The access matrix: every route the running app registers, against every kind of caller, with
 * the status the rules of docs/api.md ("Access at a glance") give. The route list is collected
 * from the app itself (an onRoute hook installed through Fastify's initialization channel), so a
 * route added without a row here fails the test.
 *
 * Each role acts on the report "family" it relates to: a report with a delivery to a recipient,
 * links and comments by both. Most roles use the single-workspace family; the admin of a
 * multi-workspace report uses a report over two workspaces; the user who lost membership is the
 * owner of a report in a workspace they have left since. Routes that destroy their target get a
 * fresh one for every cell.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, newUser, readOnlyToken, type Response, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, addProjectMember, newProject, newWorkspace } from '../helpers/factories.js';
import { newReport, newTemplate, type TestReport } from '../helpers/report-factories.js';
import { unsubscribeKey, unsubscribeToken } from '../../src/modules/mail/unsubscribe.js';

const ROLES = [
  'anonymous',
  'readOnly',
  'writeOnly',
  'owner',
  'recipient',
  'teammate',
  'outsider',
  'wsAdmin',
  'multiWsAdmin',
  'instanceAdmin',
  'lostMember',
  'deletedAccount',
] as const;
type Role = (typeof ROLES)[number];

/** One report and what hangs off its sent version. */
interface Family {
  owner: TestUser;
  report: TestReport & { templateId: string; filters: { workspaceIds: string[] } };
  contentId: string;
  /** The recipient's inbox message of the version. */
  inboxId: string;
  ownerShareId: string;
  recipientShareId: string;
  ownerCommentId: string;
  recipientCommentId: string;
  /** Runs `fn` while the owner belongs to the report's workspaces (only differs for the lost member). */
  asMember<T>(fn: () => Promise<T>): Promise<T>;
}

interface World {
  wsOwner: TestUser;
  owner: TestUser;
  recipient: TestUser;
  teammate: TestUser;
  outsider: TestUser;
  wsAdmin: TestUser;
  multiWsAdmin: TestUser;
  instanceAdmin: TestUser;
  lost: TestUser;
  spare: TestUser;
  w1: { id: string };
  w2: { id: string };
  project: { id: string };
  client: { id: string };
  webhook: { id: string };
  templateId: string;
  disabledTemplateId: string;
  entryId: string;
  viewerToken: string;
  passcodeToken: string;
  single: Family;
  multi: Family;
  lostFamily: Family;
  tokens: Record<Role, string | null>;
}

/** What one cell's request is about. */
interface Cell {
  role: Role;
  token: string | null;
  family: Family;
  w: World;
}

interface Row {
  method: string;
  /** The route as Fastify knows it (`/api/v1/reports/:id`). */
  route: string;
  /** Which variant of the target, when a route has several rows. */
  variant?: string;
  /** The URL (and body) of the request; may make a fresh target. */
  request(cell: Cell): Promise<{ url: string; body?: unknown; form?: string }>;
  /** In ROLES order. */
  expected: readonly number[];
}

/** The web app's files: public, no data behind them (test/api/web-app.test.ts checks their headers). */
const WEB_APP_FILES = /^GET \/app(\/|$)|^GET \/$/;

/**
 * Session and password routes, whose callers are a browser session or an anonymous visitor rather
 * than the token roles of this matrix: every one of their access rules is asserted in
 * test/api/sessions.test.ts.
 */
const COVERED_ELSEWHERE: Record<string, string> = {
  'POST /api/v1/sessions': 'test/api/sessions.test.ts',
  'GET /api/v1/me/sessions': 'test/api/sessions.test.ts',
  'DELETE /api/v1/me/sessions/:id': 'test/api/sessions.test.ts',
  'DELETE /api/v1/me/sessions/current': 'test/api/sessions.test.ts',
  'PUT /api/v1/me/password': 'test/api/sessions.test.ts',
  'POST /api/v1/password-links/redeem': 'test/api/sessions.test.ts',
  'POST /api/v1/users/:id/password-link': 'test/api/sessions.test.ts',
  // A raw image body and a public image: every role's answer is in the branding tests.
  'PUT /api/v1/workspaces/:id/logo': 'test/api/branding.test.ts',
  'DELETE /api/v1/workspaces/:id/logo': 'test/api/branding.test.ts',
  'GET /branding/:workspaceId/logo.png': 'test/api/branding.test.ts',
};

let t: TestContext;
let w: World;
/**
 * "METHOD url" of every route the app registered, with its options (kept by reference: hooks of
 * plugins that run after ours, such as the API reference's, still complete them).
 */
const routes = new Map<string, RouteOptions>();
const scopeOf = (key: string) => (routes.get(key)?.config as { scope?: string } | undefined)?.scope;

function check(what: string, res: Response, status: number): Response {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text.slice(0, 300)}`);
  return res;
}

beforeAll(async () => {
  // Every route the app registers, as it registers it.
  const collect = (message: unknown) => {
    const app = (message as { fastify: FastifyInstance }).fastify;
    app.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) routes.set(`${method} ${route.url}`, route);
    });
  };
  subscribe('fastify.initialization', collect);
  try {
    t = await buildTestApp();
  } finally {
    unsubscribe('fastify.initialization', collect);
  }
  w = await buildWorld();
}, 300_000);
afterAll(() => t.close());

async function family(owner: TestUser, recipient: TestUser, workspaceIds: string[], name: string): Promise<Omit<Family, 'asMember'>> {
  const report = (await newReport(t, owner, workspaceIds, { name })) as Family['report'];
  check('send', await t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: [recipient.id] }, owner.token), 201);
  const inbox = check('inbox', await t.get('/api/v1/inbox', recipient.token), 200).body as { id: string; reportId: string }[];
  const inboxId = inbox.find((m) => m.reportId === report.id)!.id;
  const ownerShare = check('mint', await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token), 201);
  const recipientShare = check('mint', await t.post(`/api/v1/inbox/${inboxId}/shares`, {}, recipient.token), 201);
  const comments = `/api/v1/report-contents/${report.reportContentId}/comments`;
  const ownerComment = check('comment', await t.post(comments, { body: 'From the owner' }, owner.token), 201);
  const recipientComment = check('comment', await t.post(comments, { body: 'From the recipient' }, recipient.token), 201);
  return {
    owner,
    report,
    contentId: report.reportContentId,
    inboxId,
    ownerShareId: ownerShare.body.id,
    recipientShareId: recipientShare.body.id,
    ownerCommentId: ownerComment.body.id,
    recipientCommentId: recipientComment.body.id,
  };
}

async function buildWorld(): Promise<World> {
  const [wsOwner, owner, recipient, teammate, outsider, wsAdmin, multiWsAdmin, lost, spare, deleted] = await Promise.all(
    ['Workspace owner', 'Owner', 'Recipient', 'Teammate', 'Outsider', 'Admin', 'Multi admin', 'Lost', 'Spare', 'Deleted'].map((name) =>
      newUser(t, { name }),
    ),
  );
  const instanceAdmin = await newUser(t, { name: 'Instance admin', instanceAdmin: true });
  const w1 = await newWorkspace(t, wsOwner!, 'One');
  const w2 = await newWorkspace(t, wsOwner!, 'Two');
  for (const user of [owner, recipient, teammate, lost, spare, deleted]) await addMember(t, w1.id, user!, 'member', wsOwner!.token);
  await addMember(t, w2.id, owner!, 'member', wsOwner!.token);
  await addMember(t, w1.id, wsAdmin!, 'admin', wsOwner!.token);
  await addMember(t, w1.id, multiWsAdmin!, 'admin', wsOwner!.token);
  await addMember(t, w2.id, multiWsAdmin!, 'admin', wsOwner!.token);
  const project = await newProject(t, w1.id, wsOwner!.token, 'P');
  await addProjectMember(t, project.id, spare!.id, wsOwner!.token);
  const client = check('client', await t.post(`/api/v1/workspaces/${w1.id}/clients`, { name: 'Client' }, wsOwner!.token), 201).body;
  // A literal public address: registering it asks no resolver, and no delivery is ever attempted here.
  const webhook = check('webhook', await t.post(`/api/v1/workspaces/${w1.id}/webhooks`, WEBHOOK, wsOwner!.token), 201).body;
  const templateId = await newTemplate(t);
  const disabledTemplateId = await newTemplate(t, 'x', { enabled: false });
  const entry = check(
    'entry',
    await t.post('/api/v1/time-entries', { workspaceId: w1.id, start: '2026-11-02T09:00:00.000Z', minutes: 30 }, owner!.token),
    201,
  );

  const always = <T>(fn: () => Promise<T>) => fn();
  const single = { ...(await family(owner!, recipient!, [w1.id], 'Single')), asMember: always };
  const multi = { ...(await family(owner!, recipient!, [w1.id, w2.id], 'Multi')), asMember: always };
  const lostBase = await family(lost!, recipient!, [w1.id], 'Lost');
  const leave = async () => check('leave', await t.del(`/api/v1/workspaces/${w1.id}/members/${lost!.id}`, lost!.token), 204);
  await leave();
  const lostFamily: Family = {
    ...lostBase,
    asMember: async (fn) => {
      await addMember(t, w1.id, lost!, 'member', wsOwner!.token);
      try {
        return await fn();
      } finally {
        await leave();
      }
    },
  };

  const viewer = check('mint', await t.post(`/api/v1/reports/${single.report.id}/shares`, {}, owner!.token), 201);
  const locked = check('mint', await t.post(`/api/v1/reports/${single.report.id}/shares`, { passcode: 'open sesame' }, owner!.token), 201);

  const readOnly = await readOnlyToken(t, owner!);
  const writeOnly = check('token', await t.post(`/api/v1/users/${owner!.id}/tokens`, { scopes: ['write'] }, owner!.token), 201).body.token;
  check('delete user', await t.del(`/api/v1/users/${deleted!.id}`), 204);

  return {
    wsOwner: wsOwner!,
    owner: owner!,
    recipient: recipient!,
    teammate: teammate!,
    outsider: outsider!,
    wsAdmin: wsAdmin!,
    multiWsAdmin: multiWsAdmin!,
    instanceAdmin,
    lost: lost!,
    spare: spare!,
    w1,
    w2,
    project,
    client,
    webhook,
    templateId,
    disabledTemplateId,
    entryId: entry.body.id,
    viewerToken: viewer.body.token,
    passcodeToken: locked.body.token,
    single,
    multi,
    lostFamily,
    tokens: {
      anonymous: null,
      readOnly,
      writeOnly,
      owner: owner!.token,
      recipient: recipient!.token,
      teammate: teammate!.token,
      outsider: outsider!.token,
      wsAdmin: wsAdmin!.token,
      multiWsAdmin: multiWsAdmin!.token,
      instanceAdmin: instanceAdmin.token,
      lostMember: lost!.token,
      deletedAccount: deleted!.token,
    },
  };
}

const familyOf = (role: Role): Family => (role === 'multiWsAdmin' ? w.multi : role === 'lostMember' ? w.lostFamily : w.single);

const reportBody = (f: Family, name = 'Matrix') => ({
  name,
  templateId: f.report.templateId,
  filters: { workspaceIds: f.report.filters.workspaceIds, dateRange: { from: '2026-11-01', to: '2026-11-30' } },
});

let fresh = 0;

const SCHEDULE = { frequency: 'weekly', weekday: 'monday', time: '09:00' };
const WEBHOOK = { url: 'https://93.184.216.34/hook', events: ['share.viewed'] };

/**
 * The URL of the family report's schedule, which exists (its owner puts it, while a member).
 * `idle`: no run of it is waiting, so a run-now is not refused for another.
 */
async function withSchedule(family: Family, options: { idle?: boolean } = {}): Promise<string> {
  const url = api(`/reports/${family.report.id}/schedule`);
  await family.asMember(() => t.put(url, SCHEDULE, family.owner.token));
  if (options.idle) {
    await t.database.db.execute(
      sql`update schedule_runs set status = 'skipped' where report_id = ${family.report.id} and status in ('queued', 'running')`,
    );
  }
  return url;
}
const api = (path: string) => `/api/v1${path}`;
/** The token of the unsubscribe link a user's inbox mail carries. */
const unsubscribeLink = (userId: string) =>
  unsubscribeToken(unsubscribeKey(t.app.chronicle.shareKey), { kind: 'event', userId, event: 'inbox' }) ?? 'none';

// The rows. Columns, in ROLES order:
// anonymous, readOnly (the owner's read-only token), writeOnly (the owner's write-only token), owner,
// recipient, teammate, outsider, wsAdmin (single-workspace report), multiWsAdmin (multi-workspace
// report), instanceAdmin, lostMember, deletedAccount.
const ROWS: Row[] = [
  // Operations and the public viewer: no token needed, whatever one sends.
  { method: 'GET', route: '/healthz', request: async () => ({ url: '/healthz' }), expected: Array(12).fill(200) },
  { method: 'GET', route: '/readyz', request: async () => ({ url: '/readyz' }), expected: Array(12).fill(200) },
  { method: 'GET', route: '/openapi.json', request: async () => ({ url: '/openapi.json' }), expected: Array(12).fill(200) },
  // Metrics are open without METRICS_TOKEN (test/api/metrics.test.ts covers the token).
  { method: 'GET', route: '/metrics', request: async () => ({ url: '/metrics' }), expected: Array(12).fill(200) },
  // The API reference (Swagger UI) and its documents: public pages.
  { method: 'GET', route: '/docs', request: async () => ({ url: '/docs' }), expected: Array(12).fill(200) },
  { method: 'GET', route: '/docs/json', request: async () => ({ url: '/docs/json' }), expected: Array(12).fill(200) },
  { method: 'GET', route: '/docs/yaml', request: async () => ({ url: '/docs/yaml' }), expected: Array(12).fill(200) },
  { method: 'GET', route: '/docs/static/*', request: async () => ({ url: '/docs/static/swagger-ui.css' }), expected: Array(12).fill(200) },
  // Swagger UI answers its static index with a redirect to the page.
  {
    method: 'GET',
    route: '/docs/static/index.html',
    request: async () => ({ url: '/docs/static/index.html' }),
    expected: Array(12).fill(302),
  },
  {
    method: 'GET',
    route: '/docs/static/swagger-initializer.js',
    request: async () => ({ url: '/docs/static/swagger-initializer.js' }),
    expected: Array(12).fill(200),
  },
  {
    method: 'GET',
    route: '/docs/static/theme/favicon.svg',
    request: async () => ({ url: '/docs/static/theme/favicon.svg' }),
    expected: Array(12).fill(200),
  },
  // The origin's icons and robots.txt: public files.
  ...[
    '/robots.txt',
    '/favicon.ico',
    '/favicon.svg',
    '/apple-touch-icon.png',
    '/apple-touch-icon-precomposed.png',
    '/icon-192.png',
    '/icon-512.png',
    '/icon-maskable-512.png',
  ].map((url): Row => ({ method: 'GET', route: url, request: async () => ({ url }), expected: Array(12).fill(200) })),
  { method: 'GET', route: '/share/:token', request: async (c) => ({ url: `/share/${c.w.viewerToken}` }), expected: Array(12).fill(200) },
  {
    method: 'POST',
    route: '/share/:token',
    request: async (c) => ({ url: `/share/${c.w.passcodeToken}`, form: 'passcode=open+sesame' }),
    expected: Array(12).fill(200),
  },
  {
    method: 'GET',
    route: '/share/:token/export.pdf',
    request: async (c) => ({ url: `/share/${c.w.viewerToken}/export.pdf` }),
    expected: Array(12).fill(200),
  },
  {
    method: 'GET',
    route: '/share/:token/export.csv',
    request: async (c) => ({ url: `/share/${c.w.viewerToken}/export.csv` }),
    expected: Array(12).fill(200),
  },

  // Users and tokens.
  //                                                                             anon  ro   wo   own  rcp  tm   out  wsa  mwa  ia   lost del
  {
    method: 'POST',
    route: '/api/v1/users',
    request: async () => ({ url: api('/users'), body: { name: 'New', email: `new${++fresh}@example.com` } }),
    expected: [401, 403, 403, 403, 403, 403, 403, 403, 403, 201, 403, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/users',
    request: async () => ({ url: api('/users') }),
    expected: [401, 403, 403, 403, 403, 403, 403, 403, 403, 200, 403, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/users/:id',
    variant: "the owner's record",
    request: async (c) => ({ url: api(`/users/${c.w.owner.id}`) }),
    expected: [401, 200, 403, 200, 404, 404, 404, 404, 404, 200, 404, 401],
  },
  {
    method: 'PATCH',
    route: '/api/v1/users/:id',
    variant: "the owner's record",
    request: async (c) => ({ url: api(`/users/${c.w.owner.id}`), body: { name: 'Owner' } }),
    expected: [401, 403, 403, 403, 404, 404, 404, 404, 404, 200, 404, 401],
  },
  {
    method: 'DELETE',
    route: '/api/v1/users/:id',
    variant: 'a fresh user',
    request: async () => ({ url: api(`/users/${(await newUser(t)).id}`) }),
    expected: [401, 403, 404, 404, 404, 404, 404, 404, 404, 204, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/me',
    request: async () => ({ url: api('/me') }),
    expected: [401, 200, 403, 200, 200, 200, 200, 200, 200, 200, 200, 401],
  },
  {
    method: 'PATCH',
    route: '/api/v1/me',
    request: async () => ({ url: api('/me'), body: { timezone: 'UTC' } }),
    expected: [401, 403, 200, 200, 200, 200, 200, 200, 200, 200, 200, 401],
  },
  // E-mail preferences are every user's own; the outbox is instance admins'.
  {
    method: 'GET',
    route: '/api/v1/me/notifications',
    request: async () => ({ url: api('/me/notifications') }),
    expected: [401, 200, 403, 200, 200, 200, 200, 200, 200, 200, 200, 401],
  },
  {
    method: 'PATCH',
    route: '/api/v1/me/notifications',
    request: async () => ({ url: api('/me/notifications'), body: { attachPdf: false } }),
    expected: [401, 403, 200, 200, 200, 200, 200, 200, 200, 200, 200, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/admin/outbox',
    request: async () => ({ url: api('/admin/outbox') }),
    expected: [401, 403, 403, 403, 403, 403, 403, 403, 403, 200, 403, 401],
  },
  // A mail's unsubscribe link: public, the signed token is the capability, whatever else one sends.
  {
    method: 'GET',
    route: '/mail/unsubscribe/:token',
    request: async (c) => ({ url: `/mail/unsubscribe/${unsubscribeLink(c.w.spare.id)}` }),
    expected: Array(12).fill(200),
  },
  {
    method: 'POST',
    route: '/mail/unsubscribe/:token',
    request: async (c) => ({ url: `/mail/unsubscribe/${unsubscribeLink(c.w.spare.id)}`, form: 'List-Unsubscribe=One-Click' }),
    expected: Array(12).fill(200),
  },
  {
    method: 'POST',
    route: '/api/v1/users/:id/tokens',
    variant: 'for the owner',
    request: async (c) => ({ url: api(`/users/${c.w.owner.id}/tokens`), body: { scopes: ['write'] } }),
    expected: [401, 403, 201, 201, 404, 404, 404, 404, 404, 201, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/me/tokens',
    request: async () => ({ url: api('/me/tokens') }),
    expected: [401, 200, 403, 200, 200, 200, 200, 200, 200, 200, 200, 401],
  },
  {
    method: 'DELETE',
    route: '/api/v1/me/tokens/:id',
    variant: "a fresh token of the owner's",
    request: async (c) => {
      const token = check('token', await t.post(api(`/users/${c.w.owner.id}/tokens`), { scopes: ['read'] }, c.w.owner.token), 201);
      return { url: api(`/me/tokens/${token.body.id}`) };
    },
    expected: [401, 403, 204, 204, 404, 404, 404, 404, 404, 404, 404, 401],
  },

  // Workspaces and projects (the report's first workspace: everyone but the outsider, the instance
  // admin and the lost member is a member; the two admins are its admins).
  //                                                                             anon  ro   wo   own  rcp  tm   out  wsa  mwa  ia   lost del
  {
    method: 'POST',
    route: '/api/v1/workspaces',
    request: async () => ({ url: api('/workspaces'), body: { name: 'Another' } }),
    expected: [401, 403, 201, 201, 201, 201, 201, 201, 201, 201, 201, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/workspaces',
    request: async () => ({ url: api('/workspaces') }),
    expected: [401, 200, 403, 200, 200, 200, 200, 200, 200, 200, 200, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/workspaces/:id',
    request: async (c) => ({ url: api(`/workspaces/${c.w.w1.id}`) }),
    expected: [401, 200, 403, 200, 200, 200, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'PATCH',
    route: '/api/v1/workspaces/:id',
    request: async (c) => ({ url: api(`/workspaces/${c.w.w1.id}`), body: { name: 'One' } }),
    expected: [401, 403, 403, 403, 403, 403, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/workspaces/:id/members',
    request: async (c) => ({ url: api(`/workspaces/${c.w.w1.id}/members`) }),
    expected: [401, 200, 403, 200, 200, 200, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'PUT',
    route: '/api/v1/workspaces/:id/members/:userId',
    variant: 'a member keeps the member role',
    request: async (c) => ({ url: api(`/workspaces/${c.w.w1.id}/members/${c.w.spare.id}`), body: { role: 'member' } }),
    expected: [401, 403, 403, 403, 403, 403, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'DELETE',
    route: '/api/v1/workspaces/:id/members/:userId',
    variant: 'a fresh member',
    request: async (c) => {
      const user = await newUser(t);
      await addMember(t, c.w.w1.id, user, 'member', c.w.wsOwner.token);
      return { url: api(`/workspaces/${c.w.w1.id}/members/${user.id}`) };
    },
    expected: [401, 403, 403, 403, 403, 403, 404, 204, 204, 204, 404, 401],
  },
  {
    method: 'POST',
    route: '/api/v1/workspaces/:id/projects',
    request: async (c) => ({ url: api(`/workspaces/${c.w.w1.id}/projects`), body: { name: `P${++fresh}` } }),
    expected: [401, 403, 403, 403, 403, 403, 404, 201, 201, 201, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/workspaces/:id/projects',
    request: async (c) => ({ url: api(`/workspaces/${c.w.w1.id}/projects`) }),
    expected: [401, 200, 403, 200, 200, 200, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'PATCH',
    route: '/api/v1/projects/:id',
    request: async (c) => ({ url: api(`/projects/${c.w.project.id}`), body: { billableByDefault: false } }),
    expected: [401, 403, 403, 403, 403, 403, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'POST',
    route: '/api/v1/workspaces/:id/clients',
    request: async (c) => ({ url: api(`/workspaces/${c.w.w1.id}/clients`), body: { name: `C${++fresh}` } }),
    expected: [401, 403, 403, 403, 403, 403, 404, 201, 201, 201, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/workspaces/:id/clients',
    request: async (c) => ({ url: api(`/workspaces/${c.w.w1.id}/clients`) }),
    expected: [401, 200, 403, 200, 200, 200, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'PATCH',
    route: '/api/v1/clients/:id',
    request: async (c) => ({ url: api(`/clients/${c.w.client.id}`), body: { archived: false } }),
    expected: [401, 403, 403, 403, 403, 403, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'DELETE',
    route: '/api/v1/clients/:id',
    variant: 'a fresh client',
    request: async (c) => {
      const client = check(
        'client',
        await t.post(api(`/workspaces/${c.w.w1.id}/clients`), { name: `D${++fresh}` }, c.w.wsOwner.token),
        201,
      );
      return { url: api(`/clients/${client.body.id}`) };
    },
    expected: [401, 403, 403, 403, 403, 403, 404, 204, 204, 204, 404, 401],
  },
  // Webhooks: the first workspace's admins and owners (and instance admins); members 403, others 404.
  //                                                                             anon  ro   wo   own  rcp  tm   out  wsa  mwa  ia   lost del
  {
    method: 'POST',
    route: '/api/v1/workspaces/:id/webhooks',
    request: async (c) => ({ url: api(`/workspaces/${c.w.w1.id}/webhooks`), body: WEBHOOK }),
    expected: [401, 403, 403, 403, 403, 403, 404, 201, 201, 201, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/workspaces/:id/webhooks',
    request: async (c) => ({ url: api(`/workspaces/${c.w.w1.id}/webhooks`) }),
    expected: [401, 403, 403, 403, 403, 403, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/webhooks/:id',
    request: async (c) => ({ url: api(`/webhooks/${c.w.webhook.id}`) }),
    expected: [401, 403, 403, 403, 403, 403, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'PATCH',
    route: '/api/v1/webhooks/:id',
    request: async (c) => ({ url: api(`/webhooks/${c.w.webhook.id}`), body: { active: true } }),
    expected: [401, 403, 403, 403, 403, 403, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/webhooks/:id/deliveries',
    request: async (c) => ({ url: api(`/webhooks/${c.w.webhook.id}/deliveries`) }),
    expected: [401, 403, 403, 403, 403, 403, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'DELETE',
    route: '/api/v1/webhooks/:id',
    variant: 'a fresh webhook',
    request: async (c) => {
      const webhook = check('webhook', await t.post(api(`/workspaces/${c.w.w1.id}/webhooks`), WEBHOOK, c.w.wsOwner.token), 201);
      return { url: api(`/webhooks/${webhook.body.id}`) };
    },
    expected: [401, 403, 403, 403, 403, 403, 404, 204, 204, 204, 404, 401],
  },
  {
    method: 'PUT',
    route: '/api/v1/projects/:id/members/:userId',
    request: async (c) => ({ url: api(`/projects/${c.w.project.id}/members/${c.w.spare.id}`) }),
    expected: [401, 403, 403, 403, 403, 403, 404, 204, 204, 204, 404, 401],
  },
  {
    method: 'DELETE',
    route: '/api/v1/projects/:id/members/:userId',
    request: async (c) => ({ url: api(`/projects/${c.w.project.id}/members/${c.w.spare.id}`) }),
    expected: [401, 403, 403, 403, 403, 403, 404, 204, 204, 204, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/projects/:id/members',
    request: async (c) => ({ url: api(`/projects/${c.w.project.id}/members`) }),
    expected: [401, 200, 403, 200, 200, 200, 404, 200, 200, 200, 404, 401],
  },

  // Rates: workspace admins and owners (and instance admins) only; members of the workspace get 404 as everyone else.
  // The project member rate names the workspace admin, who may log time on every project of it.
  //                                                                             anon  ro   wo   own  rcp  tm   out  wsa  mwa  ia   lost del
  {
    method: 'PUT',
    route: '/api/v1/projects/:id/members/:userId/rates',
    request: async (c) => ({
      url: api(`/projects/${c.w.project.id}/members/${c.w.wsAdmin.id}/rates`),
      body: { hourly: { currency: 'EUR', minor: 100 }, effectiveFrom: '2026-01-01' },
    }),
    expected: [401, 403, 404, 404, 404, 404, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/projects/:id/members/:userId/rates',
    request: async (c) => ({ url: api(`/projects/${c.w.project.id}/members/${c.w.wsAdmin.id}/rates`) }),
    expected: [401, 404, 403, 404, 404, 404, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'PUT',
    route: '/api/v1/projects/:id/rates',
    request: async (c) => ({
      url: api(`/projects/${c.w.project.id}/rates`),
      body: { hourly: { currency: 'EUR', minor: 100 }, effectiveFrom: '2026-01-01' },
    }),
    expected: [401, 403, 404, 404, 404, 404, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/projects/:id/rates',
    request: async (c) => ({ url: api(`/projects/${c.w.project.id}/rates`) }),
    expected: [401, 404, 403, 404, 404, 404, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'PUT',
    route: '/api/v1/workspaces/:id/members/:userId/rates',
    request: async (c) => ({
      url: api(`/workspaces/${c.w.w1.id}/members/${c.w.spare.id}/rates`),
      body: { hourly: { currency: 'EUR', minor: 100 }, effectiveFrom: '2026-01-01' },
    }),
    expected: [401, 403, 404, 404, 404, 404, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/workspaces/:id/members/:userId/rates',
    request: async (c) => ({ url: api(`/workspaces/${c.w.w1.id}/members/${c.w.spare.id}/rates`) }),
    expected: [401, 404, 403, 404, 404, 404, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'PUT',
    route: '/api/v1/workspaces/:id/rates',
    request: async (c) => ({
      url: api(`/workspaces/${c.w.w1.id}/rates`),
      body: { hourly: { currency: 'EUR', minor: 100 }, effectiveFrom: '2026-01-01' },
    }),
    expected: [401, 403, 404, 404, 404, 404, 404, 200, 200, 200, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/workspaces/:id/rates',
    request: async (c) => ({ url: api(`/workspaces/${c.w.w1.id}/rates`) }),
    expected: [401, 404, 403, 404, 404, 404, 404, 200, 200, 200, 404, 401],
  },

  // Time entries (the target entry is the owner's, unassigned, in the first workspace).
  //                                                                             anon  ro   wo   own  rcp  tm   out  wsa  mwa  ia   lost del
  {
    method: 'POST',
    route: '/api/v1/time-entries',
    request: async (c) => ({ url: api('/time-entries'), body: { workspaceId: c.w.w1.id, start: '2026-11-03T09:00:00.000Z', minutes: 5 } }),
    expected: [401, 403, 201, 201, 201, 201, 404, 201, 201, 404, 404, 401],
  },
  {
    method: 'POST',
    route: '/api/v1/time-entries/batch',
    // A refused row is a 400 naming its index, whatever a single entry would have answered.
    request: async (c) => ({
      url: api('/time-entries/batch'),
      body: { entries: [{ workspaceId: c.w.w1.id, start: '2026-11-03T10:00:00.000Z', minutes: 5 }] },
    }),
    expected: [401, 403, 201, 201, 201, 201, 400, 201, 201, 400, 400, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/time-entries',
    request: async () => ({ url: api('/time-entries') }),
    expected: [401, 200, 403, 200, 200, 200, 200, 200, 200, 200, 200, 401],
  },
  {
    method: 'PATCH',
    route: '/api/v1/time-entries/:id',
    variant: "the owner's entry",
    request: async (c) => ({ url: api(`/time-entries/${c.w.entryId}`), body: { minutes: 30 } }),
    expected: [401, 403, 200, 200, 404, 404, 404, 200, 200, 404, 404, 401],
  },
  {
    method: 'DELETE',
    route: '/api/v1/time-entries/:id',
    variant: "a fresh entry of the owner's",
    request: async (c) => {
      const entry = check(
        'entry',
        await t.post(api('/time-entries'), { workspaceId: c.w.w1.id, start: '2026-11-04T09:00:00.000Z', minutes: 5 }, c.w.owner.token),
        201,
      );
      return { url: api(`/time-entries/${entry.body.id}`) };
    },
    expected: [401, 403, 204, 204, 404, 404, 404, 204, 204, 404, 404, 401],
  },

  // Templates.
  //                                                                             anon  ro   wo   own  rcp  tm   out  wsa  mwa  ia   lost del
  {
    method: 'GET',
    route: '/api/v1/templates',
    request: async () => ({ url: api('/templates') }),
    expected: [401, 200, 403, 200, 200, 200, 200, 200, 200, 200, 200, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/templates',
    variant: 'with disabled ones',
    request: async () => ({ url: api('/templates?includeDisabled=true') }),
    expected: [401, 403, 403, 403, 403, 403, 403, 403, 403, 200, 403, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/templates/:id',
    variant: 'a disabled template',
    request: async (c) => ({ url: api(`/templates/${c.w.disabledTemplateId}`) }),
    expected: [401, 404, 403, 404, 404, 404, 404, 404, 404, 200, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/templates/:id',
    request: async (c) => ({ url: api(`/templates/${c.w.templateId}`) }),
    expected: [401, 200, 403, 200, 200, 200, 200, 200, 200, 200, 200, 401],
  },
  {
    method: 'POST',
    route: '/api/v1/templates',
    request: async () => ({ url: api('/templates'), body: { name: `Matrix ${++fresh}`, body: 'x' } }),
    expected: [401, 403, 403, 403, 403, 403, 403, 403, 403, 201, 403, 401],
  },
  {
    method: 'POST',
    route: '/api/v1/templates/preview',
    // Instance admins only; the admin is no member of the family's workspace, so its filters are a 400.
    request: async (c) => ({ url: api('/templates/preview'), body: { body: 'x', filters: reportBody(c.family).filters } }),
    expected: [401, 403, 403, 403, 403, 403, 403, 403, 403, 400, 403, 401],
  },
  {
    method: 'PATCH',
    route: '/api/v1/templates/:id',
    request: async (c) => ({ url: api(`/templates/${c.w.templateId}`), body: { enabled: true } }),
    expected: [401, 403, 403, 403, 403, 403, 403, 403, 403, 200, 403, 401],
  },
  {
    method: 'DELETE',
    route: '/api/v1/templates/:id',
    variant: 'a fresh template',
    request: async () => ({ url: api(`/templates/${await newTemplate(t, 'x')}`) }),
    expected: [401, 403, 403, 403, 403, 403, 403, 403, 403, 204, 403, 401],
  },

  // Reports. Create and preview name the role's report's workspaces.
  //                                                                             anon  ro   wo   own  rcp  tm   out  wsa  mwa  ia   lost del
  {
    method: 'GET',
    route: '/api/v1/reports',
    request: async () => ({ url: api('/reports') }),
    expected: [401, 200, 403, 200, 200, 200, 200, 200, 200, 200, 200, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/reports',
    variant: "the owner's, by ownerUserId",
    request: async (c) => ({ url: api(`/reports?ownerUserId=${c.w.owner.id}`) }),
    expected: [401, 200, 403, 200, 403, 403, 403, 403, 403, 200, 403, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/reports',
    variant: "the first workspace's, by workspaceId",
    request: async (c) => ({ url: api(`/reports?workspaceId=${c.w.w1.id}`) }),
    expected: [401, 403, 403, 403, 403, 403, 403, 200, 200, 200, 403, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/reports/template-ids',
    request: async () => ({ url: api('/reports/template-ids') }),
    expected: [401, 200, 403, 200, 200, 200, 200, 200, 200, 200, 200, 401],
  },
  {
    method: 'POST',
    route: '/api/v1/reports/preview',
    request: async (c) => ({ url: api('/reports/preview'), body: reportBody(c.family) }),
    expected: [401, 200, 403, 200, 200, 200, 400, 200, 200, 400, 400, 401],
  },
  {
    method: 'POST',
    route: '/api/v1/reports',
    request: async (c) => ({ url: api('/reports'), body: reportBody(c.family) }),
    expected: [401, 403, 201, 201, 201, 201, 400, 201, 201, 400, 400, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/reports/:id',
    request: async (c) => ({ url: api(`/reports/${c.family.report.id}`) }),
    expected: [401, 200, 403, 200, 404, 404, 404, 200, 404, 200, 404, 401],
  },
  {
    method: 'PATCH',
    route: '/api/v1/reports/:id',
    request: async (c) => ({ url: api(`/reports/${c.family.report.id}`), body: reportBody(c.family, c.family.report.name as string) }),
    expected: [401, 403, 200, 200, 404, 404, 404, 404, 404, 404, 404, 401],
  },
  {
    method: 'DELETE',
    route: '/api/v1/reports/:id',
    variant: 'a fresh report of the family owner',
    request: async (c) => {
      const f = c.family;
      const report = await f.asMember(() => newReport(t, f.owner, f.report.filters.workspaceIds));
      return { url: api(`/reports/${report.id}`) };
    },
    expected: [401, 403, 204, 204, 404, 404, 404, 404, 404, 404, 204, 401],
  },
  // Version history: the report's readers; a version also its recipients, a diff those of both.
  {
    method: 'GET',
    route: '/api/v1/reports/:id/versions',
    request: async (c) => ({ url: api(`/reports/${c.family.report.id}/versions`) }),
    expected: [401, 200, 403, 200, 404, 404, 404, 200, 404, 200, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/report-contents/:id/export',
    variant: 'the sent version, as Markdown',
    request: async (c) => ({ url: api(`/report-contents/${c.family.contentId}/export?format=md`) }),
    expected: [401, 200, 403, 200, 200, 404, 404, 200, 404, 200, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/report-contents/:id',
    variant: 'the sent version',
    request: async (c) => ({ url: api(`/report-contents/${c.family.contentId}`) }),
    expected: [401, 200, 403, 200, 200, 404, 404, 200, 404, 200, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/reports/:id/diff',
    variant: 'the sent version against itself',
    request: async (c) => ({ url: api(`/reports/${c.family.report.id}/diff?from=${c.family.contentId}&to=${c.family.contentId}`) }),
    expected: [401, 200, 403, 200, 200, 404, 404, 200, 404, 200, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/reports/:id/recipients',
    request: async (c) => ({ url: api(`/reports/${c.family.report.id}/recipients`) }),
    expected: [401, 200, 403, 200, 404, 404, 404, 404, 404, 404, 404, 401],
  },
  {
    method: 'POST',
    route: '/api/v1/reports/:id/send',
    request: async (c) => ({ url: api(`/reports/${c.family.report.id}/send`), body: { recipientUserIds: [c.w.recipient.id] } }),
    expected: [401, 403, 201, 201, 404, 404, 404, 404, 404, 404, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/reports/:id/sends',
    request: async (c) => ({ url: api(`/reports/${c.family.report.id}/sends`) }),
    expected: [401, 200, 403, 200, 404, 404, 404, 200, 404, 200, 404, 401],
  },

  // Schedules: the owner's alone, like sending.
  {
    method: 'GET',
    route: '/api/v1/reports/:id/schedule',
    request: async (c) => ({ url: await withSchedule(c.family) }),
    expected: [401, 200, 403, 200, 404, 404, 404, 404, 404, 404, 404, 401],
  },
  {
    method: 'PUT',
    route: '/api/v1/reports/:id/schedule',
    variant: 'replacing one',
    request: async (c) => ({ url: await withSchedule(c.family), body: SCHEDULE }),
    expected: [401, 403, 200, 200, 404, 404, 404, 404, 404, 404, 404, 401],
  },
  {
    method: 'DELETE',
    route: '/api/v1/reports/:id/schedule',
    request: async (c) => ({ url: await withSchedule(c.family) }),
    expected: [401, 403, 204, 204, 404, 404, 404, 404, 404, 404, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/reports/:id/schedule/runs',
    request: async (c) => ({ url: `${await withSchedule(c.family)}/runs` }),
    expected: [401, 200, 403, 200, 404, 404, 404, 404, 404, 404, 404, 401],
  },
  {
    method: 'POST',
    route: '/api/v1/reports/:id/schedule/run-now',
    request: async (c) => ({ url: `${await withSchedule(c.family, { idle: true })}/run-now`, body: {} }),
    expected: [401, 403, 202, 202, 404, 404, 404, 404, 404, 404, 404, 401],
  },

  // Share links.
  //                                                                             anon  ro   wo   own  rcp  tm   out  wsa  mwa  ia   lost del
  {
    method: 'GET',
    route: '/api/v1/reports/:id/shares',
    request: async (c) => ({ url: api(`/reports/${c.family.report.id}/shares`) }),
    expected: [401, 200, 403, 200, 404, 404, 404, 200, 404, 200, 404, 401],
  },
  {
    method: 'POST',
    route: '/api/v1/reports/:id/shares',
    request: async (c) => ({ url: api(`/reports/${c.family.report.id}/shares`), body: {} }),
    expected: [401, 403, 201, 201, 404, 404, 404, 404, 404, 404, 404, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/inbox/:id/shares',
    variant: "the recipient's message",
    request: async (c) => ({ url: api(`/inbox/${c.family.inboxId}/shares`) }),
    expected: [401, 404, 403, 404, 200, 404, 404, 404, 404, 404, 404, 401],
  },
  {
    method: 'POST',
    route: '/api/v1/inbox/:id/shares',
    variant: "the recipient's message",
    request: async (c) => ({ url: api(`/inbox/${c.family.inboxId}/shares`), body: {} }),
    expected: [401, 403, 404, 404, 201, 404, 404, 404, 404, 404, 404, 401],
  },
  {
    method: 'POST',
    route: '/api/v1/report-shares/:id/revoke',
    variant: "the owner's link",
    request: async (c) => ({ url: api(`/report-shares/${c.family.ownerShareId}/revoke`) }),
    expected: [401, 403, 200, 200, 404, 404, 404, 404, 404, 404, 200, 401],
  },
  {
    method: 'POST',
    route: '/api/v1/report-shares/:id/revoke',
    variant: "the recipient's link",
    request: async (c) => ({ url: api(`/report-shares/${c.family.recipientShareId}/revoke`) }),
    expected: [401, 403, 404, 404, 200, 404, 404, 404, 404, 404, 404, 401],
  },

  // Inbox (the target message is the recipient's).
  //                                                                             anon  ro   wo   own  rcp  tm   out  wsa  mwa  ia   lost del
  {
    method: 'GET',
    route: '/api/v1/inbox',
    request: async () => ({ url: api('/inbox') }),
    expected: [401, 200, 403, 200, 200, 200, 200, 200, 200, 200, 200, 401],
  },
  {
    method: 'GET',
    route: '/api/v1/inbox/:id',
    request: async (c) => ({ url: api(`/inbox/${c.family.inboxId}`) }),
    expected: [401, 404, 403, 404, 200, 404, 404, 404, 404, 404, 404, 401],
  },
  {
    method: 'POST',
    route: '/api/v1/inbox/:id/read',
    request: async (c) => ({ url: api(`/inbox/${c.family.inboxId}/read`) }),
    expected: [401, 403, 404, 404, 200, 404, 404, 404, 404, 404, 404, 401],
  },

  // Discussion of the sent version.
  //                                                                             anon  ro   wo   own  rcp  tm   out  wsa  mwa  ia   lost del
  {
    method: 'GET',
    route: '/api/v1/report-contents/:id/discussion',
    request: async (c) => ({ url: api(`/report-contents/${c.family.contentId}/discussion`) }),
    expected: [401, 200, 403, 200, 200, 404, 404, 200, 404, 200, 404, 401],
  },
  {
    method: 'POST',
    route: '/api/v1/report-contents/:id/comments',
    request: async (c) => ({ url: api(`/report-contents/${c.family.contentId}/comments`), body: { body: 'Hello' } }),
    expected: [401, 403, 201, 201, 201, 404, 404, 403, 404, 403, 404, 401],
  },
  {
    method: 'PATCH',
    route: '/api/v1/report-contents/:id/comments/:commentId',
    variant: "the owner's comment",
    request: async (c) => ({
      url: api(`/report-contents/${c.family.contentId}/comments/${c.family.ownerCommentId}`),
      body: { body: 'Edited' },
    }),
    expected: [401, 403, 200, 200, 404, 404, 404, 403, 404, 403, 404, 401],
  },
  {
    method: 'PATCH',
    route: '/api/v1/report-contents/:id/comments/:commentId',
    variant: "the recipient's comment",
    request: async (c) => ({
      url: api(`/report-contents/${c.family.contentId}/comments/${c.family.recipientCommentId}`),
      body: { body: 'Edited' },
    }),
    expected: [401, 403, 404, 404, 200, 404, 404, 403, 404, 403, 404, 401],
  },
  {
    method: 'DELETE',
    route: '/api/v1/report-contents/:id/comments/:commentId',
    variant: "a fresh comment of the family owner's",
    request: async (c) => {
      const f = c.family;
      const comment = await f.asMember(async () =>
        check('comment', await t.post(api(`/report-contents/${f.contentId}/comments`), { body: 'To delete' }, f.owner.token), 201),
      );
      return { url: api(`/report-contents/${f.contentId}/comments/${comment.body.id}`) };
    },
    expected: [401, 403, 204, 204, 404, 404, 404, 403, 404, 403, 404, 401],
  },
  {
    method: 'PUT',
    route: '/api/v1/report-contents/:id/reactions',
    request: async (c) => ({ url: api(`/report-contents/${c.family.contentId}/reactions`), body: { emoji: 'eyes' } }),
    expected: [401, 403, 200, 200, 200, 404, 404, 403, 404, 403, 404, 401],
  },
  {
    method: 'PUT',
    route: '/api/v1/report-contents/:id/comments/:commentId/reactions',
    request: async (c) => ({
      url: api(`/report-contents/${c.family.contentId}/comments/${c.family.ownerCommentId}/reactions`),
      body: { emoji: 'rocket' },
    }),
    expected: [401, 403, 200, 200, 200, 404, 404, 403, 404, 403, 404, 401],
  },
];

describe('access matrix', () => {
  it('has a row for every route the app serves, and no row for a route it does not', () => {
    // HEAD routes are Fastify's automatic twins of GET routes.
    const served = [...routes.keys()].filter((r) => !r.startsWith('HEAD ') && !WEB_APP_FILES.test(r)).sort();
    const covered = [...new Set([...ROWS.map((row) => `${row.method} ${row.route}`), ...Object.keys(COVERED_ELSEWHERE)])].sort();
    expect(covered).toEqual(served);
  });

  it('follows the scope rule in every row (docs/api.md "Conventions")', () => {
    // Without a valid token: 401; with a token lacking the route's scope: 403; with the scope, the
    // owner's answer (the read-only and write-only tokens are the owner's).
    const col = (role: Role) => ROLES.indexOf(role);
    for (const row of ROWS) {
      const scope = scopeOf(`${row.method} ${row.route}`);
      if (scope === 'public') continue;
      const owner = row.expected[col('owner')];
      const label = `${row.method} ${row.route}`;
      expect([row.expected[col('anonymous')], row.expected[col('deletedAccount')]], label).toEqual([401, 401]);
      expect(row.expected[col('readOnly')], label).toBe(scope === 'read' ? owner : 403);
      expect(row.expected[col('writeOnly')], label).toBe(scope === 'write' ? owner : 403);
    }
  });

  it('answers every role on every route as the rules say', async () => {
    const mismatches: string[] = [];
    let cells = 0;
    for (const row of ROWS) {
      expect(row.expected).toHaveLength(ROLES.length);
      for (const [i, role] of ROLES.entries()) {
        const cell: Cell = { role, token: w.tokens[role], family: familyOf(role), w };
        const { url, body, form } = await row.request(cell);
        const res = await t.request(row.method, url, {
          token: cell.token,
          ...(body !== undefined ? { body } : {}),
          ...(form !== undefined ? { raw: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {}),
        });
        cells += 1;
        const expected = row.expected[i];
        const label = `${row.method} ${row.route}${row.variant ? ` (${row.variant})` : ''} as ${role}`;
        if (res.status !== expected) mismatches.push(`${label}: expected ${expected}, got ${res.status} ${res.text.slice(0, 160)}`);
        else if (
          res.status >= 400 &&
          row.route.startsWith('/api/') &&
          !String(res.headers['content-type']).startsWith('application/problem+json')
        )
          mismatches.push(`${label}: ${res.status} without problem+json`);
      }
    }
    console.log(`access matrix: ${cells} cells asserted (${ROWS.length} rows x ${ROLES.length} roles)`);
    expect(mismatches).toEqual([]);
  }, 300_000);
});
