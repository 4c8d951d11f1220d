/**
 * Credentials are honest boundaries: a token cannot make a stronger or longer-lived token for its
 * user, revoking a token revokes what it made, a removed BOOTSTRAP_ADMIN_TOKEN stops working,
 * secrets are never cached, routes without a scope cannot exist, and a client that never finishes its request is disconnected.
 */
import { connect } from 'node:net';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { rowsOf } from '../../src/db/rows.js';
import { assertDeclaredScope } from '../../src/modules/auth/auth.js';
import { newWorkspace } from '../helpers/factories.js';
import { newReport } from '../helpers/report-factories.js';
import {
  ADMIN_TOKEN,
  buildPeerApp,
  buildTestApp,
  expectProblem,
  newUser,
  testConfig,
  type TestContext,
  type TestUser,
} from '../helpers/test-app.js';

let t: TestContext;
let user: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  user = await newUser(t);
});
afterAll(() => t.close());

const DAY_MS = 86_400_000;

async function mint(by: string, userId: string, body: object) {
  return t.post(`/api/v1/users/${userId}/tokens`, body, by);
}

async function createdBy(tokenId: string): Promise<string | null> {
  const rows = rowsOf<{ created_by_token_id: string | null }>(
    await t.database.db.execute(sql`select created_by_token_id from api_tokens where id = ${tokenId}`),
  );
  return rows[0]?.created_by_token_id ?? null;
}

describe('tokens a token makes for its own user', () => {
  it('never carry a scope the calling token lacks (403), and record which token made them', async () => {
    const writeOnly = await mint(user.token, user.id, { scopes: ['write'], expiresInDays: 1 });
    expect(writeOnly.status).toBe(201);
    const stronger = await mint(writeOnly.body.token, user.id, { scopes: ['read', 'write'] });
    expect(expectProblem(stronger, 403).detail).toMatch(/"read"/);
    const same = await mint(writeOnly.body.token, user.id, { scopes: ['write'] });
    expect(same.status).toBe(201);
    expect(await createdBy(same.body.id)).toBe(writeOnly.body.id);
  });

  it('expire no later than the calling token, whatever they ask for', async () => {
    t.clock.set('2026-11-20T10:00:00.000Z');
    try {
      const parent = await mint(user.token, user.id, { scopes: ['read', 'write'], expiresInDays: 2 });
      const parentExpiry = parent.body.expiresAt;
      expect(parentExpiry).toBe(new Date(Date.parse('2026-11-20T10:00:00.000Z') + 2 * DAY_MS).toISOString());
      const forever = await mint(parent.body.token, user.id, { scopes: ['read'] });
      expect(forever.status).toBe(201);
      expect(forever.body.expiresAt).toBe(parentExpiry);
      const longer = await mint(parent.body.token, user.id, { scopes: ['read'], expiresInDays: 30 });
      expect(longer.body.expiresAt).toBe(parentExpiry);
      const shorter = await mint(parent.body.token, user.id, { scopes: ['read'], expiresInDays: 1 });
      expect(shorter.body.expiresAt).toBe(new Date(Date.parse('2026-11-20T10:00:00.000Z') + DAY_MS).toISOString());
      // And they really stop working then.
      t.clock.set(new Date(Date.parse(parentExpiry) + 1));
      expectProblem(await t.get('/api/v1/me', forever.body.token), 401);
    } finally {
      t.clock.reset();
    }
  });

  it('an instance admin making a token for someone else is not bound by its own token', async () => {
    const me = await t.get('/api/v1/me', ADMIN_TOKEN);
    const limited = await mint(ADMIN_TOKEN, me.body.id, { scopes: ['write'], expiresInDays: 1 });
    const forOther = await mint(limited.body.token, user.id, { scopes: ['read', 'write'] });
    expect(forOther.status).toBe(201);
    expect(forOther.body).toMatchObject({ scopes: ['read', 'write'], expiresAt: null });
    expect(await createdBy(forOther.body.id)).toBeNull();
  });
});

describe('revoking a token', () => {
  it('revokes the tokens it made, and theirs, at once; siblings and the parent stay', async () => {
    const root = await mint(user.token, user.id, { scopes: ['read', 'write'] });
    const child = await mint(root.body.token, user.id, { scopes: ['read', 'write'] });
    const grandchild = await mint(child.body.token, user.id, { scopes: ['read'] });
    const sibling = await mint(root.body.token, user.id, { scopes: ['read'] });
    expect((await t.del(`/api/v1/me/tokens/${child.body.id}`, user.token)).status).toBe(204);
    expectProblem(await t.get('/api/v1/me', child.body.token), 401);
    expectProblem(await t.get('/api/v1/me', grandchild.body.token), 401);
    expect((await t.get('/api/v1/me', sibling.body.token)).status).toBe(200);
    expect((await t.get('/api/v1/me', root.body.token)).status).toBe(200);
    const listed = (await t.get('/api/v1/me/tokens', user.token)).body.map((k: { id: string }) => k.id);
    expect(listed).not.toContain(grandchild.body.id);
    // A second revoke of the same token is a 404, as before.
    expectProblem(await t.del(`/api/v1/me/tokens/${child.body.id}`, user.token), 404);
  });
});

describe('responses that carry a secret', () => {
  it('are sent with Cache-Control: no-store (token creation, share mint, list and revoke)', async () => {
    const token = await mint(user.token, user.id, { scopes: ['read'] });
    expect(token.headers['cache-control']).toBe('no-store');
    const owner = await newUser(t);
    const ws = await newWorkspace(t, owner);
    const report = await newReport(t, owner, [ws.id]);
    const share = await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token);
    expect(share.status).toBe(201);
    expect(share.headers['cache-control']).toBe('no-store');
    expect((await t.get(`/api/v1/reports/${report.id}/shares`, owner.token)).headers['cache-control']).toBe('no-store');
    expect((await t.post(`/api/v1/report-shares/${share.body.id}/revoke`, {}, owner.token)).headers['cache-control']).toBe('no-store');
    // A response without a secret may be cached by the client as HTTP allows.
    expect((await t.get('/api/v1/me', owner.token)).headers['cache-control']).toBeUndefined();
  });

  it('are every operation marked secret, and each answers no-store (tokens, share links, password links, sign-in)', async () => {
    const owner = await newUser(t);
    const member = await newUser(t);
    const ws = await newWorkspace(t, owner);
    const report = await newReport(t, owner, [ws.id]);
    const sent = await t.post(`/api/v1/reports/${report.id}/send`, { sendToSelf: true }, owner.token);
    expect(sent.status).toBe(201);
    const inboxId = ((await t.get('/api/v1/inbox', owner.token)).body as { id: string; reportId: string }[]).find(
      (m) => m.reportId === report.id,
    )!.id;
    const share = await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token);
    const linkSecret = async () => new URL((await t.post(`/api/v1/users/${member.id}/password-link`)).body.url as string).hash.slice(1);
    const password = 'a password of some length';
    const calls: Record<string, () => Promise<{ status: number; headers: Record<string, unknown> }>> = {
      'POST /api/v1/users/{id}/tokens': () => t.post(`/api/v1/users/${owner.id}/tokens`, { scopes: ['read'] }, owner.token),
      'POST /api/v1/reports/{id}/shares': () => t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token),
      'GET /api/v1/reports/{id}/shares': () => t.get(`/api/v1/reports/${report.id}/shares`, owner.token),
      'POST /api/v1/inbox/{id}/shares': () => t.post(`/api/v1/inbox/${inboxId}/shares`, {}, owner.token),
      'GET /api/v1/inbox/{id}/shares': () => t.get(`/api/v1/inbox/${inboxId}/shares`, owner.token),
      'POST /api/v1/report-shares/{id}/revoke': () => t.post(`/api/v1/report-shares/${share.body.id}/revoke`, {}, owner.token),
      'POST /api/v1/users/{id}/password-link': () => t.post(`/api/v1/users/${member.id}/password-link`),
      'POST /api/v1/password-links/redeem': async () =>
        t.request('POST', '/api/v1/password-links/redeem', { token: null, body: { token: await linkSecret(), password } }),
      'POST /api/v1/sessions': () => t.request('POST', '/api/v1/sessions', { token: null, body: { email: member.email, password } }),
      'GET /api/v1/admin/outbox': () => t.get('/api/v1/admin/outbox'),
      'POST /api/v1/workspaces/{id}/webhooks': () =>
        t.post(
          `/api/v1/workspaces/${ws.id}/webhooks`,
          { url: 'https://hooks.example.com/chronicle', events: ['report.sent'] },
          owner.token,
        ),
    };
    // The operations that declare Cache-Control are exactly the routes marked `secret` (app.ts).
    const document = t.app.swagger() as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>;
    };
    const marked = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) =>
          Object.entries(op.responses).some(([status, r]) => status.startsWith('2') && r.headers && 'Cache-Control' in r.headers),
        )
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    // Share pages, their downloads and mail's unsubscribe pages send no-store too (test/api/viewer.test.ts,
    // share-downloads.test.ts, mail.test.ts); the public logo declares how long it may be cached (test/api/branding.test.ts).
    const pages = [' /share/', ' /branding/', ' /mail/'];
    expect(marked.filter((key) => !pages.some((page) => key.includes(page))).sort()).toEqual(Object.keys(calls).sort());
    for (const [key, call] of Object.entries(calls)) {
      const res = await call();
      expect(res.status, key).toBeLessThan(300);
      expect(res.headers['cache-control'], key).toBe('no-store');
    }
  });
});

describe('routes without a declared scope', () => {
  it('stop start-up instead of serving without authentication', async () => {
    const app = Fastify();
    app.addHook('onRoute', assertDeclaredScope);
    expect(() => app.get('/api/v1/unscoped', async () => 'open')).toThrow(/GET \/api\/v1\/unscoped declares no scope/);
    await app.close();
  });

  it('every route of Chronicle declares one (each has an OpenAPI security requirement)', async () => {
    const document = (await t.get('/openapi.json', null)).body as { paths: Record<string, Record<string, { security?: unknown }>> };
    const operations = Object.values(document.paths).flatMap((ops) => Object.values(ops));
    expect(operations.length).toBeGreaterThan(40);
    for (const operation of operations) expect(operation.security).toBeDefined();
  });
});

describe('BOOTSTRAP_ADMIN_TOKEN removed from the environment', () => {
  it('a start without it revokes the token an earlier start made from it, and the tokens that token made', async () => {
    const me = await t.get('/api/v1/me', ADMIN_TOKEN);
    const derived = await mint(ADMIN_TOKEN, me.body.id, { scopes: ['read'] });
    const peer = await buildPeerApp(t, { bootstrapAdminToken: null });
    try {
      expectProblem(await peer.get('/api/v1/me', ADMIN_TOKEN), 401);
      expectProblem(await peer.get('/api/v1/me', derived.body.token), 401);
      // Tokens the admin made for other users are theirs, not the bootstrap token's.
      expect((await peer.get('/api/v1/me', user.token)).status).toBe(200);
    } finally {
      await peer.close();
    }
    // Setting it again brings the configured value back.
    const again = await buildPeerApp(t);
    try {
      expect((await again.get('/api/v1/me', ADMIN_TOKEN)).status).toBe(200);
    } finally {
      await again.close();
    }
  });
});

describe('request timeouts', () => {
  it('disconnects a client that never finishes its body', async () => {
    const app = await buildApp({ config: testConfig({ requestTimeoutMs: 1_000 }), database: t.database, logger: false });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      if (typeof address !== 'object' || !address) throw new Error('no address');
      const socket = connect(address.port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      const closed = new Promise<void>((resolve) =>
        socket.on('close', () => {
          resolve();
        }),
      );
      socket.write(
        `POST /api/v1/workspaces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`,
      );
      // Waits for the server to end the connection; a server without a timeout never would (the test's own timeout fails it).
      await closed;
      expect(received).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await app.close();
    }
  });
});
