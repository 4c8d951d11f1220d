/**
 * Password attempts under attack (docs/decisions.md "A sign-in lockout nobody else can aim",
 * docs/operations.md "Resource limits"): the sign-in throttle counts per client and account with a
 * ceiling per account that slows guessing without locking the owner out; IPv6 clients count by
 * their /64; set-password links are looked up and throttled before anything is hashed; and scrypt
 * runs in bounded slots of its own.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  THROTTLE_ACCOUNT_CEILING,
  THROTTLE_ADDRESS_LIMIT,
  THROTTLE_PAIR_LIMIT,
  THROTTLE_PAIR_LIMIT_PAST_CEILING,
} from '../../src/modules/auth/session-policy.js';
import { CLIENT_IN_FLIGHT, CLIENT_RETRY_AFTER_SECONDS } from '../../src/lib/client-gate.js';
import { PASSWORD_HASH_QUEUE } from '../../src/lib/password-slots.js';
import { newWorkspace } from '../helpers/factories.js';
import { newReport } from '../helpers/report-factories.js';
import { buildTestApp, expectProblem, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

const PASSWORD = 'correct horse battery';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  t.clock.reset();
});

async function linkToken(user: { id: string }): Promise<string> {
  const res = await t.post(`/api/v1/users/${user.id}/password-link`);
  expect(res.status).toBe(201);
  return new URL(res.body.url).hash.slice(1);
}

function redeem(token: string, password = PASSWORD, remoteAddress = '127.0.0.1') {
  return t.app.inject({ method: 'POST', url: '/api/v1/password-links/redeem', remoteAddress, payload: { token, password } });
}

function signIn(email: string, password: string, remoteAddress: string) {
  return t.app.inject({ method: 'POST', url: '/api/v1/sessions', remoteAddress, payload: { email, password } });
}

async function userWithPassword(): Promise<TestUser> {
  const user = await newUser(t);
  expect((await redeem(await linkToken(user))).statusCode).toBe(201);
  return user;
}

/** Holds every scrypt slot and fills the queue; returns the function that lets them all go. */
async function holdPasswordSlots(waiting = PASSWORD_HASH_QUEUE): Promise<() => Promise<void>> {
  const slots = t.app.chronicle.passwordSlots;
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held = [slots.run(() => gate), ...Array.from({ length: waiting }, () => slots.run(() => Promise.resolve()))];
  expect(slots.stats()).toEqual({ inUse: 1, waiting });
  return async () => {
    release();
    await Promise.all(held);
  };
}

describe('sign-in throttle per client and account', () => {
  it('refuses the guessing address (429) but lets the owner at another address sign in', async () => {
    t.clock.set('2026-11-10T10:00:00.000Z');
    const user = await userWithPassword();
    for (let i = 0; i < THROTTLE_PAIR_LIMIT; i++) expect((await signIn(user.email, `wrong ${i}`, '198.51.100.1')).statusCode).toBe(401);
    const refused = await signIn(user.email, PASSWORD, '198.51.100.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('900');
    expect((await signIn(user.email, PASSWORD, '198.51.100.2')).statusCode).toBe(201);
    // The same e-mail in another case is the same account, so it is the same count.
    expect((await signIn(user.email.toUpperCase(), PASSWORD, '198.51.100.1')).statusCode).toBe(429);
  });

  it(`past the ceiling of ${THROTTLE_ACCOUNT_CEILING}, gives each address ${THROTTLE_PAIR_LIMIT_PAST_CEILING} checks: the owner still gets in`, async () => {
    t.clock.set('2026-11-10T11:00:00.000Z');
    const user = await userWithPassword();
    const attackers = THROTTLE_ACCOUNT_CEILING / THROTTLE_PAIR_LIMIT;
    for (let a = 0; a < attackers; a++) {
      for (let i = 0; i < THROTTLE_PAIR_LIMIT; i++) {
        expect((await signIn(user.email, `wrong ${a} ${i}`, `203.0.113.${a}`)).statusCode).toBe(401);
      }
    }
    // An address that never failed gets its checks: the owner, with one typo, at a fresh address...
    expect((await signIn(user.email, 'a typo', '192.0.2.200')).statusCode).toBe(401);
    expect((await signIn(user.email, PASSWORD, '192.0.2.200')).statusCode).toBe(201);
    // ...but an attacker with a fresh address gets only as many, and one that already failed none.
    for (let i = 0; i < THROTTLE_PAIR_LIMIT_PAST_CEILING; i++) {
      expect((await signIn(user.email, `fresh ${i}`, '192.0.2.201')).statusCode).toBe(401);
    }
    expect((await signIn(user.email, 'fresh again', '192.0.2.201')).statusCode).toBe(429);
  });

  it('does not let refused attempts push the account past its ceiling', async () => {
    t.clock.set('2026-11-10T12:00:00.000Z');
    const user = await userWithPassword();
    for (let i = 0; i < THROTTLE_PAIR_LIMIT; i++) expect((await signIn(user.email, `wrong ${i}`, '198.51.100.7')).statusCode).toBe(401);
    for (let i = 0; i < THROTTLE_ACCOUNT_CEILING; i++) expect((await signIn(user.email, `more ${i}`, '198.51.100.7')).statusCode).toBe(429);
    // Below the ceiling, another client keeps its full allowance.
    for (let i = 0; i < THROTTLE_PAIR_LIMIT; i++) expect((await signIn(user.email, `other ${i}`, '198.51.100.8')).statusCode).toBe(401);
  });

  it('counts an IPv6 client by its /64', async () => {
    t.clock.set('2026-11-10T13:00:00.000Z');
    const user = await userWithPassword();
    for (let i = 0; i < THROTTLE_PAIR_LIMIT; i++) {
      expect((await signIn(user.email, `wrong ${i}`, `2001:db8:1:2::${(i + 1).toString(16)}`)).statusCode).toBe(401);
    }
    expect((await signIn(user.email, PASSWORD, '2001:db8:1:2:ffff:ffff:ffff:ffff')).statusCode).toBe(429);
    expect((await signIn(user.email, PASSWORD, '2001:db8:1:3::1')).statusCode).toBe(201);
  });

  it('keys the throttle and the lookup on one normal form of the e-mail address', async () => {
    t.clock.set('2026-11-10T14:00:00.000Z');
    const user = await userWithPassword();
    const [local, domain] = user.email.split('@') as [string, string];
    // "İ" is not "i" in either place: no sign-in, and no count against the real account.
    const dotted = `${local.replace('u', 'İ').replace('s', 'İ')}@${domain}`;
    expect((await signIn(dotted, PASSWORD, '198.51.100.20')).statusCode).toBe(401);
    for (let i = 0; i < THROTTLE_PAIR_LIMIT; i++) {
      expect((await signIn(`  ${user.email.toUpperCase()} `, `wrong ${i}`, '198.51.100.21')).statusCode).toBe(401);
    }
    expect((await signIn(user.email, PASSWORD, '198.51.100.21')).statusCode).toBe(429);
    expect((await signIn(` ${user.email} `, PASSWORD, '198.51.100.20')).statusCode).toBe(201);
  });
});

describe('set-password link redemption', () => {
  it('answers an unknown link 404 without hashing, even while every scrypt slot is taken', async () => {
    const user = await newUser(t);
    const token = await linkToken(user);
    const release = await holdPasswordSlots();
    try {
      expectProblem(
        await t.request('POST', '/api/v1/password-links/redeem', { token: null, body: { token: 'x'.repeat(43), password: PASSWORD } }),
        404,
      );
      // A known link needs a hash: past the queue, 503 with Retry-After, and the link stays usable.
      const busy = await t.request('POST', '/api/v1/password-links/redeem', { token: null, body: { token, password: PASSWORD } });
      expectProblem(busy, 503);
      expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await release();
    }
    expect((await redeem(token)).statusCode).toBe(201);
  });

  it('lets exactly one of two redemptions win when both passed the lookup before either hashed', async () => {
    const user = await newUser(t);
    const token = await linkToken(user);
    const release = await holdPasswordSlots(0);
    const slots = t.app.chronicle.passwordSlots;
    const both = [redeem(token, 'first password!'), redeem(token, 'second password')];
    await expect.poll(() => slots.stats().waiting, { timeout: 60_000, interval: 5 }).toBe(2);
    await release();
    const statuses = (await Promise.all(both)).map((res) => res.statusCode);
    expect(statuses.sort()).toEqual([201, 404]);
  });

  it(`throttles a client address after ${THROTTLE_ADDRESS_LIMIT} attempts, before the lookup`, async () => {
    t.clock.set('2026-11-11T10:00:00.000Z');
    const user = await newUser(t);
    const token = await linkToken(user);
    for (let i = 0; i < THROTTLE_ADDRESS_LIMIT; i++) {
      expect((await redeem(`unknown-${String(i).padStart(35, '0')}`, PASSWORD, '203.0.113.50')).statusCode).toBe(404);
    }
    const refused = await redeem(token, PASSWORD, '203.0.113.50');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('900');
    // Refused again for the rest of the window without a statement: a flood costs no database work.
    const seen: string[] = [];
    const stop = t.database.observeQueries((sql) => seen.push(sql));
    try {
      t.clock.set('2026-11-11T10:10:00.000Z');
      const again = await redeem(token, PASSWORD, '203.0.113.50');
      expect(again.statusCode).toBe(429);
      expect(again.headers['retry-after']).toBe('300');
    } finally {
      stop();
    }
    expect(seen).toEqual([]);
    expect((await redeem(token, PASSWORD, '203.0.113.51')).statusCode).toBe(201);
  });
});

describe('scrypt slots', () => {
  it('answer a sign-in 503 with Retry-After past the queue, and leave passcode unlocks alone', async () => {
    const owner = await newUser(t);
    const report = await newReport(t, owner, [(await newWorkspace(t, owner)).id]);
    const share = await t.post(`/api/v1/reports/${report.id}/shares`, { passcode: 'open sesame' }, owner.token);
    expect(share.status).toBe(201);
    const release = await holdPasswordSlots();
    try {
      const busy = await signIn(owner.email, PASSWORD, '198.51.100.30');
      expect(busy.statusCode).toBe(503);
      expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);
      const unlocked = await t.app.inject({
        method: 'POST',
        url: `/share/${share.body.token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'passcode=open%20sesame',
      });
      expect(unlocked.statusCode).toBe(200);
    } finally {
      await release();
    }
  });
});

describe('requests of one client at once', () => {
  /** Takes every admission of a client, as that many requests still running would. */
  function holdClient(address: string): () => void {
    const releases = Array.from({ length: CLIENT_IN_FLIGHT }, () => t.app.chronicle.clientGate.admit(address));
    expect(releases.every((release) => release !== null)).toBe(true);
    return () => {
      for (const release of releases) release?.();
    };
  }

  it(`answers a sign-in, a redemption and a passcode unlock 429 past ${CLIENT_IN_FLIGHT} running, and counts no attempt for them`, async () => {
    const owner = await userWithPassword();
    const report = await newReport(t, owner, [(await newWorkspace(t, owner)).id]);
    const share = await t.post(`/api/v1/reports/${report.id}/shares`, { passcode: 'open sesame' }, owner.token);
    const unlock = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: `/share/${share.body.token}`,
        remoteAddress,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'passcode=open%20sesame',
      });
    const release = holdClient('198.51.100.40');
    try {
      for (let i = 0; i < THROTTLE_PAIR_LIMIT + 5; i++) {
        const refused = await signIn(owner.email, 'wrong password!', '198.51.100.40');
        expect(refused.statusCode).toBe(429);
        expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(refused.json().detail).toMatch(/wait for an answer/);
      }
      const redeemed = await redeem('x'.repeat(43), PASSWORD, '198.51.100.40');
      expect(redeemed.statusCode).toBe(429);
      expect(redeemed.headers['retry-after']).toBe(String(CLIENT_RETRY_AFTER_SECONDS));
      const page = await unlock('198.51.100.40');
      expect(page.statusCode).toBe(429);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      // Another client, even in the same IPv4 /24, is admitted meanwhile.
      expect((await unlock('198.51.100.41')).statusCode).toBe(200);
      expect((await signIn(owner.email, PASSWORD, '198.51.100.41')).statusCode).toBe(201);
    } finally {
      release();
    }
    expect(t.app.chronicle.clientGate.stats()).toEqual({ clients: 0, requests: 0 });
    // None of the refused attempts was counted: the client still has its whole allowance.
    expect((await signIn(owner.email, PASSWORD, '198.51.100.40')).statusCode).toBe(201);
    expect((await unlock('198.51.100.40')).statusCode).toBe(200);
  });

  it('counts an IPv6 client by its /64 here too', async () => {
    const owner = await userWithPassword();
    const release = holdClient('2001:db8:7:8::1');
    try {
      expect((await signIn(owner.email, PASSWORD, '2001:db8:7:8:ffff::2')).statusCode).toBe(429);
      expect((await signIn(owner.email, PASSWORD, '2001:db8:7:9::1')).statusCode).toBe(201);
    } finally {
      release();
    }
  });
});
