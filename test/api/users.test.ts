import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, expectProblem, newUser, type TestContext } from '../helpers/test-app.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('bootstrap admin', () => {
  it('makes BOOTSTRAP_ADMIN_TOKEN a read+write token of the Administrator', async () => {
    const me = await t.get('/api/v1/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      name: 'Administrator',
      email: 'admin@localhost',
      instanceAdmin: true,
      timezone: 'UTC',
      locale: 'en',
      imageUrl: null,
    });
    expect(me.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});

describe('POST /api/v1/users', () => {
  it('creates a user with defaults', async () => {
    const res = await t.post('/api/v1/users', { name: 'Ada', email: 'ada@example.com' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Ada',
      email: 'ada@example.com',
      timezone: 'UTC',
      locale: 'en',
      imageUrl: null,
      instanceAdmin: false,
    });
    const back = await t.get(`/api/v1/users/${res.body.id}`);
    expect(back.body).toEqual(res.body);
  });

  it('refuses a duplicate email case-insensitively with 409', async () => {
    await t.post('/api/v1/users', { name: 'Bob', email: 'bob@example.com' });
    const res = await t.post('/api/v1/users', { name: 'Bob 2', email: 'BOB@Example.com' });
    expectProblem(res, 409);
  });

  it.each([
    [{ email: 'x@example.com' }, '/name', 'missing name'],
    [{ name: '', email: 'x@example.com' }, '/name', 'empty name'],
    [{ name: 'x'.repeat(101), email: 'x@example.com' }, '/name', 'name too long'],
    [{ name: 42, email: 'x@example.com' }, '/name', 'wrong type'],
    [{ name: 'X', email: 'not-an-email' }, '/email', 'bad email'],
    [{ name: 'X', email: 'x@example.com', timezone: 'Mars/Olympus' }, '/timezone', 'unknown timezone'],
    [{ name: 'X', email: 'x@example.com', locale: 'xx' }, '/locale', 'well formed but unsupported locale'],
    [{ name: 'X', email: 'x@example.com', locale: 'und' }, '/locale', 'undetermined locale'],
    [{ name: 'X', email: 'x@example.com', locale: 'en_US' }, '/locale', 'malformed locale'],
    [{ name: 'X', email: 'x@example.com', locale: 'i-klingon' }, '/locale', 'grandfathered tag'],
    [{ name: 'X', email: 'x@example.com', locale: '' }, '/locale', 'empty locale'],
    [{ name: 'X', email: 'x@example.com', locale: `en-${'a'.repeat(33)}` }, '/locale', 'locale too long'],
    [{ name: 'X', email: 'x@example.com', locale: ['en'] }, '/locale', 'locale of the wrong type'],
    [{ name: 'X', email: 'x@example.com', imageUrl: 'http://example.com/a.png' }, '/imageUrl', 'http image url'],
    [{ name: 'X', email: 'x@example.com', imageUrl: 'javascript:alert(1)' }, '/imageUrl', 'javascript url'],
    [{ name: 'X', email: 'x@example.com', imageUrl: 'https://' }, '/imageUrl', 'https url without a host'],
    [{ name: 'X', email: 'x@example.com', instanceAdmin: 'yes' }, '/instanceAdmin', 'wrong boolean type'],
    [{ name: 'X', email: 'x@example.com', extra: 1 }, '/extra', 'unknown property'],
  ])('400 for %j (%s: %s)', async (body, path, _label) => {
    const problem = expectProblem(await t.post('/api/v1/users', body), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
  });

  it('stores a time zone in its canonical spelling', async () => {
    const res = await t.post('/api/v1/users', { name: 'Case', email: 'case@example.com', timezone: 'europe/paris' });
    expect(res.status).toBe(201);
    expect(res.body.timezone).toBe('Europe/Paris');
    const patched = await t.patch(`/api/v1/users/${res.body.id}`, { timezone: 'america/los_angeles' });
    expect(patched.body.timezone).toBe('America/Los_Angeles');
  });

  it('stores a locale in its canonical form', async () => {
    const res = await t.post('/api/v1/users', { name: 'Loc', email: 'loc@example.com', locale: 'de-de' });
    expect(res.status).toBe(201);
    expect(res.body.locale).toBe('de-DE');
    expect((await t.get(`/api/v1/users/${res.body.id}`)).body.locale).toBe('de-DE');
    const patched = await t.patch(`/api/v1/users/${res.body.id}`, { locale: 'ZH-hant-tw' });
    expect(patched.status).toBe(200);
    expect(patched.body.locale).toBe('zh-Hant-TW');
    const listed = await t.get('/api/v1/users');
    expect(listed.body.find((u: { id: string }) => u.id === res.body.id)).toMatchObject({ locale: 'zh-Hant-TW' });
    // A patch without locale keeps it; a refused one changes nothing.
    expect((await t.patch(`/api/v1/users/${res.body.id}`, { name: 'Loc 2' })).body.locale).toBe('zh-Hant-TW');
    const problem = expectProblem(await t.patch(`/api/v1/users/${res.body.id}`, { locale: 'tlh' }), 400);
    expect(problem.errors?.map((e) => e.path)).toEqual(['/locale']);
    expect((await t.get(`/api/v1/users/${res.body.id}`)).body).toMatchObject({ name: 'Loc 2', locale: 'zh-Hant-TW' });
  });

  it('accepts a locale of exactly 35 characters', async () => {
    const long = 'en-US-u-ca-gregory-nu-latn-x-abcdef';
    expect(long).toHaveLength(35);
    const res = await t.post('/api/v1/users', { name: 'Long', email: 'long-locale@example.com', locale: long });
    expect(res.status).toBe(201);
    expect(res.body.locale).toBe(long);
  });

  it('accepts an https image URL and a real timezone', async () => {
    const res = await t.post('/api/v1/users', {
      name: 'Tz',
      email: 'tz@example.com',
      timezone: 'Pacific/Kiritimati',
      imageUrl: 'https://example.com/a.png',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ timezone: 'Pacific/Kiritimati', imageUrl: 'https://example.com/a.png' });
  });

  it('is for instance admins only (403)', async () => {
    const user = await newUser(t);
    expectProblem(await t.post('/api/v1/users', { name: 'X', email: 'y@example.com' }, user.token), 403);
    expectProblem(await t.get('/api/v1/users', user.token), 403);
  });
});

describe('GET /api/v1/users', () => {
  it('lists every user to an instance admin, newest first, then id desc', async () => {
    const made: Record<string, string> = {};
    const create = async (name: string) => {
      const res = await t.post('/api/v1/users', { name, email: `${name.toLowerCase()}-list@example.com` });
      expect(res.status).toBe(201);
      made[name] = res.body.id;
    };
    try {
      t.clock.set('2026-05-02T00:00:00.000Z');
      await create('Alpha');
      t.clock.set('2026-05-01T00:00:00.000Z');
      await create('Bravo');
      t.clock.set('2026-05-03T00:00:00.000Z');
      await create('Charlie');
      // Same instant as Charlie, created after: the greater id comes first.
      await create('Delta');
    } finally {
      t.clock.reset();
    }
    expect(made.Delta! > made.Charlie!).toBe(true);

    const res = await t.get('/api/v1/users');
    expect(res.status).toBe(200);
    const list: { id: string; createdAt: string }[] = res.body;
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [list[i - 1]!, list[i]!];
      expect(a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id), `${a.id} before ${b.id}`).toBe(true);
    }
    const ids = Object.values(made);
    expect(list.map((u) => u.id).filter((id) => ids.includes(id))).toEqual([made.Delta, made.Charlie, made.Alpha, made.Bravo]);
  });
});

describe('GET/PATCH/DELETE /api/v1/users/:id', () => {
  it('lets a user read only themself; others are hidden with 404', async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    expect((await t.get(`/api/v1/users/${a.id}`, a.token)).status).toBe(200);
    expectProblem(await t.get(`/api/v1/users/${b.id}`, a.token), 404);
    expectProblem(await t.get('/api/v1/users/does-not-exist'), 404);
  });

  it('lets an admin patch any field, validated', async () => {
    const a = await newUser(t);
    const res = await t.patch(`/api/v1/users/${a.id}`, { name: 'Renamed', timezone: 'Europe/Berlin', imageUrl: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', timezone: 'Europe/Berlin', imageUrl: null });
    expectProblem(await t.patch(`/api/v1/users/${a.id}`, { timezone: 'Nowhere/Land' }), 400);
    expectProblem(await t.patch(`/api/v1/users/${a.id}`, { bogus: true }), 400);
  });

  it('refuses patch and delete by non-admins: 403 on self, 404 on others', async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    expectProblem(await t.patch(`/api/v1/users/${a.id}`, { name: 'Me' }, a.token), 403);
    expectProblem(await t.patch(`/api/v1/users/${b.id}`, { name: 'You' }, a.token), 404);
    expectProblem(await t.del(`/api/v1/users/${b.id}`, a.token), 404);
  });

  it('deletes an account: its tokens stop working at once', async () => {
    const a = await newUser(t);
    expect((await t.del(`/api/v1/users/${a.id}`)).status).toBe(204);
    expectProblem(await t.get('/api/v1/me', a.token), 401);
    expectProblem(await t.get(`/api/v1/users/${a.id}`), 404);
  });

  it('refuses to delete or demote the last instance admin', async () => {
    const me = await t.get('/api/v1/me');
    expectProblem(await t.del(`/api/v1/users/${me.body.id}`), 409);
    expectProblem(await t.patch(`/api/v1/users/${me.body.id}`, { instanceAdmin: false }), 409);
  });
});

describe('/api/v1/me', () => {
  it('reads and patches the caller', async () => {
    const a = await newUser(t, { name: 'Me Myself' });
    const res = await t.patch('/api/v1/me', { name: 'New Name', timezone: 'Asia/Tokyo' }, a.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.id, name: 'New Name', timezone: 'Asia/Tokyo', locale: 'en' });
    expectProblem(await t.patch('/api/v1/me', { email: 'new@example.com' }, a.token), 400);
    expectProblem(await t.patch('/api/v1/me', { timezone: 'local' }, a.token), 400);
  });

  it("sets the caller's locale in its canonical form and refuses an unknown one", async () => {
    const a = await newUser(t, { name: 'Locale Me' });
    expect((await t.get('/api/v1/me', a.token)).body.locale).toBe('en');
    const res = await t.patch('/api/v1/me', { locale: 'fr-ca' }, a.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.id, locale: 'fr-CA', timezone: 'UTC' });
    expect((await t.get('/api/v1/me', a.token)).body.locale).toBe('fr-CA');
    for (const locale of ['xx', 'en_GB', '', 'x'.repeat(36)]) {
      const problem = expectProblem(await t.patch('/api/v1/me', { locale }, a.token), 400);
      expect(problem.errors?.map((e) => e.path)).toEqual(['/locale']);
    }
    expect((await t.get('/api/v1/me', a.token)).body.locale).toBe('fr-CA');
  });
});

describe('tokens', () => {
  it('creates a token returned once, listed without the secret', async () => {
    const a = await newUser(t);
    const res = await t.post(`/api/v1/users/${a.id}/tokens`, { name: 'ci', scopes: ['read'], expiresInDays: 30 }, a.token);
    expect(res.status).toBe(201);
    expect(res.body.token.length).toBeGreaterThanOrEqual(32);
    expect(res.body).toMatchObject({ name: 'ci', scopes: ['read'] });
    expect(Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt)).toBe(30 * 86_400_000);
    const list = await t.get('/api/v1/me/tokens', a.token);
    expect(list.status).toBe(200);
    expect(list.body.map((x: { id: string }) => x.id)).toContain(res.body.id);
    expect(JSON.stringify(list.body)).not.toContain(res.body.token);
  });

  it('validates the token body', async () => {
    const a = await newUser(t);
    for (const body of [
      { scopes: [] },
      { scopes: ['admin'] },
      { scopes: ['read', 'read'] },
      { scopes: ['read'], expiresInDays: 0 },
      { scopes: ['read'], expiresInDays: 366 },
      { scopes: ['read'], name: 'x'.repeat(101) },
      {},
    ]) {
      expectProblem(await t.post(`/api/v1/users/${a.id}/tokens`, body, a.token), 400);
    }
  });

  it('lets only admins mint for others', async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    expectProblem(await t.post(`/api/v1/users/${b.id}/tokens`, { scopes: ['read'] }, a.token), 404);
    expect((await t.post(`/api/v1/users/${b.id}/tokens`, { scopes: ['read'] })).status).toBe(201);
  });

  it('401s missing, malformed, unknown, expired and revoked tokens with WWW-Authenticate', async () => {
    const a = await newUser(t);
    const short = await t.post(`/api/v1/users/${a.id}/tokens`, { scopes: ['read'], expiresInDays: 1 }, a.token);
    const revoked = await t.post(`/api/v1/users/${a.id}/tokens`, { scopes: ['read', 'write'] }, a.token);
    expect((await t.del(`/api/v1/me/tokens/${revoked.body.id}`, a.token)).status).toBe(204);
    t.clock.advance(86_400_000 + 1000);
    try {
      for (const res of [
        await t.get('/api/v1/me', null),
        await t.request('GET', '/api/v1/me', { token: null, headers: { authorization: 'Basic abc' } }),
        await t.request('GET', '/api/v1/me', { token: null, headers: { authorization: 'Bearer' } }),
        await t.get('/api/v1/me', 'chr_unknown'),
        await t.get('/api/v1/me', short.body.token),
        await t.get('/api/v1/me', revoked.body.token),
      ]) {
        expectProblem(res, 401);
        expect(res.headers['www-authenticate']).toBe('Bearer realm="api"');
      }
    } finally {
      t.clock.reset();
    }
  });

  it('403s a token without the scope, naming the scope', async () => {
    const a = await newUser(t);
    const readOnly = await t.post(`/api/v1/users/${a.id}/tokens`, { scopes: ['read'] }, a.token);
    const writeOnly = await t.post(`/api/v1/users/${a.id}/tokens`, { scopes: ['write'] }, a.token);
    const res = await t.patch('/api/v1/me', { name: 'x' }, readOnly.body.token);
    expectProblem(res, 403);
    expect(res.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="write"');
    const res2 = await t.get('/api/v1/me', writeOnly.body.token);
    expectProblem(res2, 403);
    expect(res2.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="read"');
  });

  it("revoking someone else's token is 404 and leaves it working", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    const bt = await t.post(`/api/v1/users/${b.id}/tokens`, { scopes: ['read'] }, b.token);
    expectProblem(await t.del(`/api/v1/me/tokens/${bt.body.id}`, a.token), 404);
    expect((await t.get('/api/v1/me', bt.body.token)).status).toBe(200);
  });
});
