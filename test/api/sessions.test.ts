/**
 * Passwords, set-password links, sessions and their CSRF rule, over HTTP (docs/web.md "Signing in").
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  expectProblem,
  newUser,
  readOnlyToken,
  type Response,
  type TestContext,
  type TestUser,
} from '../helpers/test-app.js';

const ORIGIN = 'http://chronicle.test';
const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  t.clock.reset();
});

/** The Set-Cookie header of a response, as one string. */
function setCookie(res: Response): string {
  const header = res.headers['set-cookie'];
  return Array.isArray(header) ? header.join('\n') : (header ?? '');
}

/** The `name=value` pair a browser would send back. */
function cookieOf(res: Response): string {
  const match = /^(chronicle_session=[^;]+)/m.exec(setCookie(res));
  if (!match?.[1]) throw new Error(`no session cookie in ${setCookie(res)}`);
  return match[1];
}

/** A request carrying a session cookie (no bearer token), with an Origin header unless null. */
function withCookie(method: string, url: string, cookie: string, body?: unknown, origin: string | null = ORIGIN) {
  return t.request(method, url, { token: null, body, headers: { cookie, ...(origin ? { origin } : {}) } });
}

async function linkFor(user: { id: string }): Promise<{ url: string; token: string; expiresAt: string }> {
  const res = await t.post(`/api/v1/users/${user.id}/password-link`);
  expect(res.status).toBe(201);
  return { ...res.body, token: new URL(res.body.url).hash.slice(1) };
}

/** A user with a password, signed in: their bearer token and a session cookie. */
async function signedInUser(): Promise<TestUser & { cookie: string }> {
  const user = await newUser(t);
  const { token } = await linkFor(user);
  const res = await t.request('POST', '/api/v1/password-links/redeem', { token: null, body: { token, password: PASSWORD } });
  expect(res.status).toBe(201);
  return { ...user, cookie: cookieOf(res) };
}

const signIn = (email: string, password: string, headers: Record<string, string> = {}) =>
  t.request('POST', '/api/v1/sessions', { token: null, body: { email, password }, headers });

describe('set-password links', () => {
  it('gives an instance admin a one-time URL of the web app that expires in 7 days', async () => {
    t.clock.set('2026-11-01T10:00:00.000Z');
    const user = await newUser(t);
    const link = await linkFor(user);
    expect(link.url).toMatch(/^http:\/\/chronicle\.test\/app\/set-password#[A-Za-z0-9_-]{43}$/);
    expect(link.expiresAt).toBe('2026-11-08T10:00:00.000Z');
  });

  it('hides other users from non-admins (404), refuses oneself (403), needs write (403) and a known user (404)', async () => {
    const user = await newUser(t);
    const other = await newUser(t);
    expectProblem(await t.post(`/api/v1/users/${other.id}/password-link`, undefined, user.token), 404);
    expectProblem(await t.post(`/api/v1/users/${user.id}/password-link`, undefined, user.token), 403);
    const reader = await readOnlyToken(t, user);
    expectProblem(await t.post(`/api/v1/users/${user.id}/password-link`, undefined, reader), 403);
    expectProblem(await t.post('/api/v1/users/no-such-user/password-link'), 404);
  });

  it('lets an instance admin mint a link for themself only with a session or a full, unexpiring token', async () => {
    const admin = await newUser(t, { instanceAdmin: true });
    const token = async (body: object) => {
      const res = await t.post(`/api/v1/users/${admin.id}/tokens`, body, admin.token);
      expect(res.status).toBe(201);
      return res.body.token as string;
    };
    const writeOnly = await token({ scopes: ['write'] });
    const expiring = await token({ scopes: ['read', 'write'], expiresInDays: 30 });
    for (const narrow of [writeOnly, expiring]) {
      const refused = expectProblem(await t.post(`/api/v1/users/${admin.id}/password-link`, undefined, narrow), 403);
      expect(refused.detail).toMatch(/session or a token with the read and write scopes and no expiry/);
    }
    expectProblem(await t.post(`/api/v1/users/${admin.id}/password-link`, undefined, await readOnlyToken(t, admin)), 403);
    // A narrow token still mints links for other users: that is what an instance admin is for.
    const other = await newUser(t);
    expect((await t.post(`/api/v1/users/${other.id}/password-link`, undefined, writeOnly)).status).toBe(201);
    expect((await t.post(`/api/v1/users/${admin.id}/password-link`, undefined, admin.token)).status).toBe(201);
    const { token: secret } = await linkFor(admin);
    const session = await t.request('POST', '/api/v1/password-links/redeem', { token: null, body: { token: secret, password: PASSWORD } });
    expect(session.status).toBe(201);
    const viaSession = await withCookie('POST', `/api/v1/users/${admin.id}/password-link`, cookieOf(session));
    expect(viaSession.status).toBe(201);
  });

  it('sets the password, signs the user in with a session cookie, and works once', async () => {
    const user = await newUser(t);
    const { token } = await linkFor(user);
    const res = await t.request('POST', '/api/v1/password-links/redeem', { token: null, body: { token, password: PASSWORD } });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ id: user.id, email: user.email });
    expect(res.body.session).toMatchObject({ current: true, userAgent: 'lightMyRequest' });
    const cookie = setCookie(res);
    expect(cookie).toMatch(/^chronicle_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=1209600; HttpOnly; SameSite=Lax$/);
    expect((await withCookie('GET', '/api/v1/me', cookieOf(res))).body.id).toBe(user.id);
    const again = await t.request('POST', '/api/v1/password-links/redeem', { token: null, body: { token, password: PASSWORD } });
    expect(expectProblem(again, 404).detail).toMatch(/unknown, already used or expired/);
    expect((await signIn(user.email, PASSWORD)).status).toBe(201);
  });

  it('refuses a link after 7 days, a replaced link, an unknown one, and a short password', async () => {
    const user = await newUser(t);
    t.clock.set('2026-11-01T10:00:00.000Z');
    const old = await linkFor(user);
    t.clock.advance(7 * DAY);
    const redeem = (token: string, password = PASSWORD) =>
      t.request('POST', '/api/v1/password-links/redeem', { token: null, body: { token, password } });
    expectProblem(await redeem(old.token), 404);
    t.clock.set('2026-11-01T10:00:00.000Z');
    const replaced = await linkFor(user);
    const current = await linkFor(user);
    expectProblem(await redeem(replaced.token), 404);
    expectProblem(await redeem('x'.repeat(43)), 404);
    const short = expectProblem(await redeem(current.token, 'elevenchars'), 400);
    expect(short.errors).toEqual([{ path: '/password', message: expect.stringMatching(/12/) }]);
    expectProblem(await t.request('POST', '/api/v1/password-links/redeem', { token: null, body: { token: current.token } }), 400);
    expect((await redeem(current.token, 'twelve chars')).status).toBe(201);
  });

  it('lets exactly one of two concurrent uses of a link win', async () => {
    const user = await newUser(t);
    const { token } = await linkFor(user);
    const results = await Promise.all(
      ['first password!', 'second password'].map((password) =>
        t.request('POST', '/api/v1/password-links/redeem', { token: null, body: { token, password } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 404]);
    const winner = results.findIndex((r) => r.status === 201);
    expect((await signIn(user.email, ['first password!', 'second password'][winner]!)).status).toBe(201);
  });

  it('ends the user’s existing sessions', async () => {
    const user = await signedInUser();
    const { token } = await linkFor(user);
    expect((await t.request('POST', '/api/v1/password-links/redeem', { token: null, body: { token, password: PASSWORD } })).status).toBe(
      201,
    );
    expectProblem(await withCookie('GET', '/api/v1/me', user.cookie), 401);
  });
});

describe('sign in', () => {
  it('starts a session for the right email (any case) and password', async () => {
    const user = await signedInUser();
    const res = await signIn(user.email.toUpperCase(), PASSWORD, { 'user-agent': 'Test browser' });
    expect(res.status).toBe(201);
    expect(res.body.user.id).toBe(user.id);
    expect(res.body.session).toMatchObject({ current: true, userAgent: 'Test browser' });
    expect((await withCookie('GET', '/api/v1/me', cookieOf(res))).body.id).toBe(user.id);
  });

  it('answers 401 alike for a wrong password, an unknown email and a user without a password', async () => {
    const user = await signedInUser();
    const noPassword = await newUser(t);
    const answers = await Promise.all([
      signIn(user.email, 'wrong password!'),
      signIn('nobody@example.com', PASSWORD),
      signIn(noPassword.email, PASSWORD),
    ]);
    for (const res of answers) {
      expect(expectProblem(res, 401).detail).toBe('The email or the password is wrong.');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('validates the body', async () => {
    expectProblem(await signIn('', PASSWORD), 400);
    expectProblem(await t.request('POST', '/api/v1/sessions', { token: null, body: { email: 'a@b.c', password: PASSWORD, x: 1 } }), 400);
    expectProblem(await signIn('a@b.c', 'p'.repeat(257)), 400);
  });

  it('refuses a sign-in posted from another origin (login CSRF) but takes one without Origin', async () => {
    const user = await signedInUser();
    expectProblem(await signIn(user.email, PASSWORD, { origin: 'https://evil.example' }), 403);
    expect((await signIn(user.email, PASSWORD, { origin: ORIGIN })).status).toBe(201);
    expect((await signIn(user.email, PASSWORD)).status).toBe(201);
  });

  it('throttles a client on an account after 10 attempts in 15 minutes, even with the right password, with Retry-After', async () => {
    t.clock.set('2026-11-01T10:00:00.000Z');
    const user = await signedInUser();
    for (let i = 0; i < 10; i++) expectProblem(await signIn(user.email, `wrong password ${i}`), 401);
    t.clock.set('2026-11-01T10:05:00.000Z');
    const refused = await signIn(user.email, PASSWORD);
    expectProblem(refused, 429);
    expect(refused.headers['retry-after']).toBe('600');
    t.clock.set('2026-11-01T10:15:00.000Z');
    expect((await signIn(user.email, PASSWORD)).status).toBe(201);
    // A success starts the account afresh.
    for (let i = 0; i < 10; i++) expectProblem(await signIn(user.email, `wrong password ${i}`), 401);
    expect((await signIn(user.email, PASSWORD)).status).toBe(429);
  });

  // How many of a burst run at once depends on the machine's speed; that a client has at most
  // CLIENT_IN_FLIGHT running is proven with held admissions in auth-throttle.test.ts.
  it('counts concurrent attempts exactly', async () => {
    t.clock.set('2026-11-02T10:00:00.000Z');
    const user = await signedInUser();
    const burst = await Promise.all(Array.from({ length: 14 }, (_, i) => signIn(user.email, `wrong password ${i}`)));
    const checked = burst.filter((r) => r.status === 401).length;
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(10);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(14 - checked);
    // The rest of the allowance, one at a time: exactly 10 are checked in all, then 429.
    let more = 0;
    for (let i = 0; i < 20; i++) {
      const res = await signIn(user.email, `wrong password ${i}`);
      if (res.status === 429) break;
      expect(res.status).toBe(401);
      more += 1;
    }
    expect(checked + more).toBe(10);
  });

  it('throttles a client address after 100 attempts whatever the accounts', async () => {
    t.clock.set('2026-11-03T10:00:00.000Z');
    const user = await signedInUser();
    const from = (remoteAddress: string, email: string, password: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/sessions', remoteAddress, payload: { email, password } });
    for (let i = 0; i < 100; i++) expect((await from('203.0.113.9', `nobody${i}@example.com`, PASSWORD)).statusCode).toBe(401);
    expect((await from('203.0.113.9', user.email, PASSWORD)).statusCode).toBe(429);
    expect((await from('203.0.113.10', user.email, PASSWORD)).statusCode).toBe(201);
  });
});

describe('a session', () => {
  it('acts with read and write scope, and bearer tokens keep working beside it', async () => {
    const user = await signedInUser();
    const created = await withCookie('POST', '/api/v1/workspaces', user.cookie, { name: 'By session' });
    expect(created.status).toBe(201);
    expect((await withCookie('GET', `/api/v1/workspaces/${created.body.id}`, user.cookie)).status).toBe(200);
    expect((await t.get('/api/v1/me', user.token)).body.id).toBe(user.id);
  });

  it('needs a same-origin Origin header on every unsafe method (CSRF)', async () => {
    const user = await signedInUser();
    const ws = (await t.post('/api/v1/workspaces', { name: 'W' }, user.token)).body;
    const cases: [string, string, unknown][] = [
      ['POST', '/api/v1/workspaces', { name: 'X' }],
      ['PATCH', `/api/v1/workspaces/${ws.id}`, { name: 'Y' }],
      ['PATCH', '/api/v1/me', { name: 'Z' }],
      ['PUT', '/api/v1/me/password', { currentPassword: PASSWORD, newPassword: 'another password' }],
      ['DELETE', `/api/v1/workspaces/${ws.id}/members/${user.id}`, undefined],
      ['DELETE', '/api/v1/me/sessions/current', undefined],
    ];
    for (const [method, url, body] of cases) {
      for (const origin of [null, 'https://evil.example', 'http://chronicle.test:8080', 'null']) {
        const res = await withCookie(method, url, user.cookie, body, origin);
        expect(expectProblem(res, 403).detail, `${method} ${url} from ${origin}`).toMatch(/must come from http:\/\/chronicle\.test/);
      }
    }
    // Nothing changed, and safe methods need no Origin.
    expect((await withCookie('GET', `/api/v1/workspaces/${ws.id}`, user.cookie, undefined, null)).body.name).toBe('W');
    expect((await withCookie('GET', '/api/v1/me', user.cookie, undefined, 'https://evil.example')).status).toBe(200);
    // A bearer request needs no Origin, whatever cookie rides along.
    const bearer = await t.request('PATCH', `/api/v1/workspaces/${ws.id}`, {
      token: user.token,
      body: { name: 'By token' },
      headers: { cookie: user.cookie, origin: 'https://evil.example' },
    });
    expect(bearer.status).toBe(200);
  });

  it('is refused with 401 for an unknown, malformed or foreign-named cookie', async () => {
    for (const cookie of [`chronicle_session=${'a'.repeat(43)}`, 'chronicle_session=short', `__Host-chronicle_session=${'a'.repeat(43)}`]) {
      const res = await withCookie('GET', '/api/v1/me', cookie);
      expectProblem(res, 401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="api"');
    }
  });

  it('ends after 24 idle hours; a request moves the idle limit', async () => {
    t.clock.set('2026-11-05T10:00:00.000Z');
    const user = await signedInUser();
    t.clock.advance(23 * 3_600_000);
    expect((await withCookie('GET', '/api/v1/me', user.cookie)).status).toBe(200);
    t.clock.advance(23 * 3_600_000);
    expect((await withCookie('GET', '/api/v1/me', user.cookie)).status).toBe(200);
    t.clock.advance(24 * 3_600_000);
    expect(expectProblem(await withCookie('GET', '/api/v1/me', user.cookie), 401).detail).toMatch(/session has ended/);
  });

  it('ends 14 days after sign-in however active', async () => {
    t.clock.set('2026-11-05T10:00:00.000Z');
    const user = await signedInUser();
    for (let hours = 20; hours < 14 * 24; hours += 20) {
      t.clock.set(new Date(Date.parse('2026-11-05T10:00:00.000Z') + hours * 3_600_000));
      expect((await withCookie('GET', '/api/v1/me', user.cookie)).status).toBe(200);
    }
    t.clock.set('2026-11-19T10:00:00.000Z');
    expectProblem(await withCookie('GET', '/api/v1/me', user.cookie), 401);
  });

  it('sign out ends the session and clears the cookie; a bearer request has no session to end', async () => {
    const user = await signedInUser();
    const res = await withCookie('DELETE', '/api/v1/me/sessions/current', user.cookie);
    expect(res.status).toBe(204);
    expect(setCookie(res)).toBe('chronicle_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
    expectProblem(await withCookie('GET', '/api/v1/me', user.cookie), 401);
    expectProblem(await t.del('/api/v1/me/sessions/current', user.token), 404);
  });

  it('ends with its user’s account', async () => {
    const user = await signedInUser();
    expect((await t.del(`/api/v1/users/${user.id}`)).status).toBe(204);
    expectProblem(await withCookie('GET', '/api/v1/me', user.cookie), 401);
  });
});

describe('my sessions', () => {
  it('lists my live sessions newest first, marks the current one, and ends one', async () => {
    t.clock.set('2026-11-06T10:00:00.000Z');
    const user = await signedInUser();
    t.clock.advance(1000);
    const second = cookieOf(await signIn(user.email, PASSWORD, { 'user-agent': 'Phone' }));
    const list = await withCookie('GET', '/api/v1/me/sessions', second);
    expect(list.body).toHaveLength(2);
    expect(list.body[0]).toMatchObject({ userAgent: 'Phone', current: true, expiresAt: '2026-11-07T10:00:01.000Z' });
    expect(list.body[1]).toMatchObject({ current: false });
    expect((await t.get('/api/v1/me/sessions', user.token)).body.every((s: { current: boolean }) => !s.current)).toBe(true);

    const ended = await withCookie('DELETE', `/api/v1/me/sessions/${list.body[1].id}`, second);
    expect(ended.status).toBe(204);
    expect(ended.headers['set-cookie']).toBeUndefined();
    expectProblem(await withCookie('GET', '/api/v1/me', user.cookie), 401);
    expect((await withCookie('GET', '/api/v1/me/sessions', second)).body).toHaveLength(1);
    // Ending the current session by id also clears the cookie.
    const self = await withCookie('DELETE', `/api/v1/me/sessions/${list.body[0].id}`, second);
    expect(setCookie(self)).toMatch(/Max-Age=0/);
  });

  it('hides other users’ sessions (404)', async () => {
    const user = await signedInUser();
    const other = await signedInUser();
    const theirs = (await withCookie('GET', '/api/v1/me/sessions', other.cookie)).body[0].id;
    expectProblem(await t.del(`/api/v1/me/sessions/${theirs}`, user.token), 404);
    expect((await withCookie('GET', '/api/v1/me', other.cookie)).status).toBe(200);
  });

  it('drops sessions past their idle limit from the list', async () => {
    t.clock.set('2026-11-07T10:00:00.000Z');
    const user = await signedInUser();
    t.clock.advance(25 * 3_600_000);
    expect((await t.get('/api/v1/me/sessions', user.token)).body).toEqual([]);
  });
});

describe('change password', () => {
  it('needs the current password, ends my other sessions and keeps this one', async () => {
    const user = await signedInUser();
    const other = cookieOf(await signIn(user.email, PASSWORD));
    const wrong = await withCookie('PUT', '/api/v1/me/password', user.cookie, {
      currentPassword: 'not it at all',
      newPassword: 'a new password',
    });
    expect(expectProblem(wrong, 400).errors).toEqual([{ path: '/currentPassword', message: 'is wrong' }]);
    const short = await withCookie('PUT', '/api/v1/me/password', user.cookie, { currentPassword: PASSWORD, newPassword: 'short' });
    expect(expectProblem(short, 400).errors?.[0]?.path).toBe('/newPassword');

    const res = await withCookie('PUT', '/api/v1/me/password', user.cookie, { currentPassword: PASSWORD, newPassword: 'a new password' });
    expect(res.status).toBe(204);
    expect((await withCookie('GET', '/api/v1/me', user.cookie)).status).toBe(200);
    expectProblem(await withCookie('GET', '/api/v1/me', other), 401);
    expectProblem(await signIn(user.email, PASSWORD), 401);
    expect((await signIn(user.email, 'a new password')).status).toBe(201);
  });

  it('refuses a user without a password, and throttles wrong current passwords', async () => {
    t.clock.set('2026-11-08T10:00:00.000Z');
    const noPassword = await newUser(t);
    expectProblem(await t.put('/api/v1/me/password', { currentPassword: PASSWORD, newPassword: 'a new password' }, noPassword.token), 400);
    const user = await signedInUser();
    for (let i = 0; i < 10; i++) {
      expectProblem(await t.put('/api/v1/me/password', { currentPassword: `wrong ${i}`, newPassword: 'a new password' }, user.token), 400);
    }
    const refused = await t.put('/api/v1/me/password', { currentPassword: PASSWORD, newPassword: 'a new password' }, user.token);
    expectProblem(refused, 429);
    expect(refused.headers['retry-after']).toBe('900');
  });
});

describe('behind https', () => {
  let https: TestContext;
  beforeAll(async () => {
    https = await buildTestApp({ config: { publicBaseUrl: 'https://reports.example.com' } });
  });
  afterAll(() => https.close());

  it('uses a __Host- cookie with Secure, and checks Origin against the https origin', async () => {
    const created = await https.post('/api/v1/users', { name: 'H', email: 'h@example.com' });
    const link = await https.post(`/api/v1/users/${created.body.id}/password-link`);
    expect(link.body.url).toMatch(/^https:\/\/reports\.example\.com\/app\/set-password#/);
    const token = new URL(link.body.url).hash.slice(1);
    const res = await https.request('POST', '/api/v1/password-links/redeem', { token: null, body: { token, password: PASSWORD } });
    const header = String(res.headers['set-cookie']);
    expect(header).toMatch(/^__Host-chronicle_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=1209600; HttpOnly; SameSite=Lax; Secure$/);
    const cookie = header.split(';')[0]!;
    expect((await https.request('GET', '/api/v1/me', { token: null, headers: { cookie } })).status).toBe(200);
    // The plain-http name is not read here.
    const plain = cookie.replace('__Host-', '');
    expect((await https.request('GET', '/api/v1/me', { token: null, headers: { cookie: plain } })).status).toBe(401);
    const post = (origin: string) =>
      https.request('POST', '/api/v1/workspaces', { token: null, body: { name: 'W' }, headers: { cookie, origin } });
    expectProblem(await post('http://reports.example.com'), 403);
    expect((await post('https://reports.example.com')).status).toBe(201);
  });
});
