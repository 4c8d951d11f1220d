/**
 * The embedded database keeps everything in DATA_DIR across restarts, and the first start without
 * BOOTSTRAP_ADMIN_TOKEN creates the admin and hands out its token and a set-password link for the
 * web app exactly once.
 * (PGlite only: this is about the embedded engine's files.)
 */
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../helpers/test-app.js';
import { dataDirFromImage } from '../helpers/pglite-image.js';

const dataDir = dataDirFromImage('migrated', 'chronicle-restart-');
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(bootstrapAdminToken: string | null) {
  return buildApp({ config: testConfig({ dataDir, bootstrapAdminToken, shareKey: null }), logger: false });
}

describe('restart on the embedded database', () => {
  it('keeps users, workspaces, projects, entries and templates, and prints the first token and password link once', async () => {
    const first = await start(null);
    const token = first.generatedAdminToken;
    expect(token).toMatch(/^chr_/);
    // The link signs the admin in to the web app: a password is set with it, once.
    const link = first.adminPasswordLink;
    expect(link?.url).toMatch(/^http:\/\/chronicle\.test\/app\/set-password#[A-Za-z0-9_-]{40,}$/);
    const redeem = () =>
      first.inject({
        method: 'POST',
        url: '/api/v1/password-links/redeem',
        payload: { token: link?.url.split('#')[1], password: 'the admin password, long enough' },
      });
    const signedIn = await redeem();
    expect(signedIn.statusCode).toBe(201);
    expect(JSON.parse(signedIn.body).user).toMatchObject({ email: 'admin@localhost', instanceAdmin: true });
    expect((await redeem()).statusCode).toBe(404);
    const auth = { authorization: `Bearer ${token}` };
    const call = async (app: typeof first, method: string, url: string, payload?: unknown) => {
      const res = await app.inject({ method: method as 'GET', url, headers: auth, ...(payload ? { payload: payload } : {}) });
      return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
    };
    const user = await call(first, 'POST', '/api/v1/users', { name: 'Kept', email: 'kept@example.com' });
    const ws = await call(first, 'POST', '/api/v1/workspaces', { name: 'Kept WS' });
    const project = await call(first, 'POST', `/api/v1/workspaces/${ws.body.id}/projects`, { name: 'Kept P' });
    await call(first, 'PUT', `/api/v1/workspaces/${ws.body.id}/members/${user.body.id}`, { role: 'member' });
    const entry = await call(first, 'POST', '/api/v1/time-entries', {
      workspaceId: ws.body.id,
      projectId: project.body.id,
      start: '2026-11-02T09:00:00.000Z',
      minutes: 90,
      description: 'kept',
    });
    const template = await call(first, 'POST', '/api/v1/templates', { name: 'Kept T', body: '{{ report.name }}' });
    expect([user.status, ws.status, project.status, entry.status, template.status]).toEqual([201, 201, 201, 201, 201]);
    await first.close();

    const second = await start(null);
    expect(second.generatedAdminToken).toBeNull();
    expect(second.adminPasswordLink).toBeNull();
    expect((await call(second, 'GET', `/api/v1/users/${user.body.id}`)).body.name).toBe('Kept');
    expect((await call(second, 'GET', `/api/v1/workspaces/${ws.body.id}`)).body.name).toBe('Kept WS');
    const projects = await call(second, 'GET', `/api/v1/workspaces/${ws.body.id}/projects`);
    expect(projects.body.map((p: { id: string }) => p.id)).toEqual([project.body.id]);
    const entries = await call(second, 'GET', `/api/v1/time-entries?workspaceId=${ws.body.id}`);
    expect(entries.body.map((e: { id: string }) => e.id)).toEqual([entry.body.id]);
    expect((await call(second, 'GET', `/api/v1/templates/${template.body.id}`)).body.body).toBe('{{ report.name }}');
    await second.close();

    expect(statSync(join(dataDir, 'share-key')).mode & 0o777).toBe(0o600);
  });

  it('makes a configured bootstrap token valid, and a new value replaces the old one', async () => {
    const a = 'a'.repeat(40);
    const b = 'b'.repeat(40);
    const first = await start(a);
    const me = async (app: typeof first, token: string) =>
      (await app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } })).statusCode;
    expect(await me(first, a)).toBe(200);
    await first.close();
    const second = await start(b);
    expect(await me(second, b)).toBe(200);
    expect(await me(second, a)).toBe(401);
    await second.close();
  });
});
