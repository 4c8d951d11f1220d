import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

let t: TestContext;
let user: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  user = await newUser(t);
});
afterAll(() => t.close());

describe('unknown query parameters', () => {
  it('are refused on a route without query parameters (GET /me?unread=true)', async () => {
    const res = await t.get('/api/v1/me?unread=true', user.token);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.detail).toContain('unread');
    expect(res.body.errors).toEqual([{ path: '/query/unread', message: 'is not a known parameter' }]);
  });

  it('are refused on the inbox, whose only parameters are limit and offset (GET /inbox?unread=true)', async () => {
    const res = await t.get('/api/v1/inbox?unread=true', user.token);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.stringify(res.body.errors)).toContain('unread');
  });

  it('are refused on writes too, and nothing is created', async () => {
    const res = await t.post('/api/v1/workspaces?dryRun=1', { name: 'Q' }, user.token);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: '/query/dryRun', message: 'is not a known parameter' }]);
    const list = await t.get('/api/v1/workspaces', user.token);
    expect(list.body.map((w: { name: string }) => w.name)).not.toContain('Q');
  });

  it('are refused on a route with query parameters, naming the parameter', async () => {
    const res = await t.get('/api/v1/reports?unread=true', user.token);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.stringify(res.body.errors)).toContain('unread');
  });

  it('an empty query string is no parameter at all', async () => {
    expect((await t.get('/api/v1/inbox?', user.token)).status).toBe(200);
    expect((await t.get('/api/v1/me', user.token)).status).toBe(200);
  });
});
