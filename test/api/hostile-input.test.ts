/** Hostile input anywhere gets a clear 400 problem, never a 500, and changes nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, expectProblem, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { newWorkspace } from '../helpers/factories.js';
import { newReport } from '../helpers/report-factories.js';

let t: TestContext;
let user: TestUser;
let ws: { id: string };
beforeAll(async () => {
  t = await buildTestApp();
  user = await newUser(t);
  ws = await newWorkspace(t, user);
});
afterAll(() => t.close());

describe('text that PostgreSQL cannot store', () => {
  it('answers U+0000 in any text field with 400', async () => {
    const report = await newReport(t, user, [ws.id]);
    const attempts = [
      () => t.post('/api/v1/users', { name: 'a\u0000b', email: 'nul@example.com' }),
      () => t.patch('/api/v1/me', { name: 'a\u0000b' }, user.token),
      () => t.post('/api/v1/workspaces', { name: 'a\u0000b' }, user.token),
      () => t.post(`/api/v1/workspaces/${ws.id}/projects`, { name: 'a\u0000b' }, user.token),
      () => t.post('/api/v1/reports', { name: 'a\u0000b', templateId: report.templateId, filters: report.filters }, user.token),
      () => t.post('/api/v1/reports', { name: 'n', note: 'a\u0000b', templateId: report.templateId, filters: report.filters }, user.token),
      () => t.post(`/api/v1/reports/${report.id}/send`, { sendToSelf: true, message: 'a\u0000b' }, user.token),
      () => t.get('/api/v1/reports', user.token, { templateId: 'a\u0000b' }),
      () => t.get('/api/v1/reports/a\u0000b', user.token),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect([400, 404]).toContain(res.status);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    expect((await t.get('/api/v1/reports', user.token)).body).toHaveLength(1);
  });

  it('answers numbers beyond what the database holds with 400', async () => {
    expectProblem(await t.get('/api/v1/reports', user.token, { offset: '100000000000000000000' }), 400);
    expectProblem(await t.get('/api/v1/reports', user.token, { limit: '1e400' }), 400);
  });

  it('answers deeply nested and oversized JSON with 400 or 413', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const res = await t.request('POST', '/api/v1/workspaces', {
      token: user.token,
      raw: `{"name":${deep}}`,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(res, 400);
    const proto = await t.request('POST', '/api/v1/workspaces', {
      token: user.token,
      raw: '{"name":"x","__proto__":{"admin":true}}',
      headers: { 'content-type': 'application/json' },
    });
    expect([400]).toContain(proto.status);
  });
});

describe('bodies on routes that take none', () => {
  it('refuses a body with properties, accepts none and {}', async () => {
    const owner = await newUser(t);
    const member = await newUser(t);
    const w = await newWorkspace(t, owner);
    await t.put(`/api/v1/workspaces/${w.id}/members/${member.id}`, { role: 'member' }, owner.token);
    const project = await t.post(`/api/v1/workspaces/${w.id}/projects`, { name: 'P' }, owner.token);
    const url = `/api/v1/projects/${project.body.id}/members/${member.id}`;
    const problem = expectProblem(await t.put(url, { x: 1 }, owner.token), 400);
    expect(problem.errors).toEqual([{ path: '', message: 'must be empty' }]);
    expectProblem(await t.put(url, [1], owner.token), 400);
    expect((await t.put(url, {}, owner.token)).status).toBe(204);
    expect((await t.put(url, undefined, owner.token)).status).toBe(204);
    expectProblem(await t.request('DELETE', url, { token: owner.token, body: { y: true } }), 400);
    expect((await t.del(url, owner.token)).status).toBe(204);
  });
});
