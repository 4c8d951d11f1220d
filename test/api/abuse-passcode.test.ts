/**
 * Passcode links under attack (docs/operations.md "Passcode attempts"): wrong passcodes count per
 * client (an address, an IPv6 /64) and link (10 per 15 minutes) under a higher ceiling per link
 * (100), past which each client may try twice, on every process; and PBKDF2 work keeps slots for
 * readers unlocking a link, so a burst of passcode mints never makes them wait.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasscodeSlots } from '../../src/lib/passcode-slots.js';
import { PASSCODE_LIMITS } from '../../src/modules/shares/viewer.service.js';
import { HEAVY_RATE_COST } from '../../src/modules/auth/auth.js';
import { newWorkspace } from '../helpers/factories.js';
import { newReport, type TestReport } from '../helpers/report-factories.js';
import { buildPeerApp, buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

let t: TestContext;
let owner: TestUser;
let report: TestReport;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await newUser(t);
  report = await newReport(t, owner, [(await newWorkspace(t, owner)).id]);
});
afterAll(() => t.close());

async function mintLink(passcode: string): Promise<string> {
  const res = await t.post(`/api/v1/reports/${report.id}/shares`, { passcode }, owner.token);
  expect(res.status).toBe(201);
  return res.body.token;
}

/** POST /share/:token from one client address, on `on` (default: t). */
async function unlock(token: string, passcode: string, address: string, on: TestContext = t): Promise<number> {
  const res = await on.app.inject({
    method: 'POST',
    url: `/share/${token}`,
    remoteAddress: address,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `passcode=${encodeURIComponent(passcode)}`,
  });
  return res.statusCode;
}

const address = (i: number) => `198.51.100.${i}`;

describe('passcode attempts per client address and link', () => {
  it(`locks out the guessing address after ${PASSCODE_LIMITS.perClient}, never the reader at another address`, async () => {
    const token = await mintLink('the-right-one');
    for (let i = 0; i < PASSCODE_LIMITS.perClient; i++) expect(await unlock(token, `wrong-${i}`, address(1))).toBe(401);
    // The attacker keeps going: refused without a check, and without using up the link's ceiling.
    for (let i = 0; i < 40; i++) expect(await unlock(token, 'the-right-one', address(1))).toBe(429);
    expect(await unlock(token, 'the-right-one', address(2))).toBe(200);
    expect(await unlock(token, 'wrong', address(3))).toBe(401);
  });

  it(`past ${PASSCODE_LIMITS.perLink} wrong passcodes on one link (the ceiling), gives each address ${PASSCODE_LIMITS.perClientPastCeiling} tries, so the reader still opens it`, async () => {
    const token = await mintLink('ceiling-code');
    const addresses = PASSCODE_LIMITS.perLink / PASSCODE_LIMITS.perClient;
    for (let a = 0; a < addresses; a++) {
      for (let i = 0; i < PASSCODE_LIMITS.perClient; i++) expect(await unlock(token, `wrong-${a}-${i}`, address(10 + a))).toBe(401);
    }
    // Ten addresses no longer lock the link for everyone: the right reader, with a typo, gets in...
    expect(await unlock(token, 'a typo', address(99))).toBe(401);
    expect(await unlock(token, 'ceiling-code', address(99))).toBe(200);
    // ...while a fresh guessing address gets its two tries and no more, and the old ones none.
    for (let i = 0; i < PASSCODE_LIMITS.perClientPastCeiling; i++) expect(await unlock(token, `fresh-${i}`, address(98))).toBe(401);
    expect(await unlock(token, 'ceiling-code', address(98))).toBe(429);
    expect(await unlock(token, 'ceiling-code', address(10))).toBe(429);
    t.clock.set(new Date(Date.now() + PASSCODE_LIMITS.windowMs + 1_000));
    try {
      expect(await unlock(token, 'ceiling-code', address(98))).toBe(200);
    } finally {
      t.clock.reset();
    }
  });

  it('counts an IPv6 client by its /64 (an IPv4-mapped address as the IPv4 address)', async () => {
    const token = await mintLink('six-code');
    for (let i = 0; i < PASSCODE_LIMITS.perClient; i++) expect(await unlock(token, `wrong-${i}`, `2001:db8:7:7::${i + 1}`)).toBe(401);
    expect(await unlock(token, 'six-code', '2001:db8:7:7:ffff::1')).toBe(429);
    expect(await unlock(token, 'six-code', '2001:db8:7:8::1')).toBe(200);
    for (let i = 0; i < PASSCODE_LIMITS.perClient; i++) expect(await unlock(token, `wrong-${i}`, address(150))).toBe(401);
    expect(await unlock(token, 'six-code', `::ffff:${address(150)}`)).toBe(429);
  });

  it(`checks at most ${PASSCODE_LIMITS.perLink}, then ${PASSCODE_LIMITS.perClientPastCeiling} per address, of a concurrent burst from 30 addresses over two processes`, async () => {
    const token = await mintLink('burst-code');
    const peer = await buildPeerApp(t);
    try {
      const statuses = await Promise.all(
        Array.from({ length: 150 }, (_, i) => unlock(token, `guess-${i}`, address(100 + (i % 30)), i % 2 ? peer : t)),
      );
      // Which attempts land past the ceiling depends on their order; each address's first two
      // are checked wherever they land, the rest only below the ceiling.
      const checked = statuses.filter((s) => s === 401).length;
      expect(checked).toBeGreaterThanOrEqual(PASSCODE_LIMITS.perLink);
      expect(checked).toBeLessThanOrEqual(PASSCODE_LIMITS.perLink + 30 * PASSCODE_LIMITS.perClientPastCeiling);
      expect(statuses.filter((s) => s === 429)).toHaveLength(150 - checked);
    } finally {
      await peer.close();
    }
  });
});

describe('a locked-out address, remembered', () => {
  /** The statements `run` makes the database execute. */
  async function statementsOf(run: () => Promise<void>): Promise<string[]> {
    const seen: string[] = [];
    const stop = t.database.observeQueries((sql) => seen.push(sql));
    try {
      await run();
    } finally {
      stop();
    }
    return seen;
  }

  it('is refused without a statement until its window ends, on each process that saw the refusal, and then books again', async () => {
    const token = await mintLink('remembered-code');
    for (let i = 0; i < PASSCODE_LIMITS.perClient; i++) expect(await unlock(token, `wrong-${i}`, address(40))).toBe(401);
    // The first refusal is the database's; the next ones are known here.
    expect(
      await statementsOf(async () => {
        expect(await unlock(token, 'remembered-code', address(40))).toBe(429);
      }),
    ).not.toEqual([]);
    expect(
      await statementsOf(async () => {
        for (let i = 0; i < 20; i++) expect(await unlock(token, 'remembered-code', address(40))).toBe(429);
      }),
    ).toEqual([]);
    // Another address on the same link still goes to the database, and opens it.
    expect(await unlock(token, 'remembered-code', address(41))).toBe(200);

    // Another process has not seen the refusal: it asks the database once, then knows it too.
    const peer = await buildPeerApp(t);
    try {
      expect(
        await statementsOf(async () => {
          expect(await unlock(token, 'remembered-code', address(40), peer)).toBe(429);
        }),
      ).not.toEqual([]);
      expect(
        await statementsOf(async () => {
          for (let i = 0; i < 5; i++) expect(await unlock(token, 'remembered-code', address(40), peer)).toBe(429);
        }),
      ).toEqual([]);
    } finally {
      await peer.close();
    }

    // The window ends: the address's next attempt is booked again, and the right passcode opens.
    t.clock.advance(PASSCODE_LIMITS.windowMs);
    try {
      expect(await unlock(token, 'remembered-code', address(40))).toBe(200);
    } finally {
      t.clock.reset();
    }
  });
});

describe('PBKDF2 slots', () => {
  it('lets a reader unlock while every slot a mint may take is held, and the mint waits', async () => {
    const token = await mintLink('unlock-me');
    const slots = t.app.chronicle.passcodeSlots;
    const releases: (() => void)[] = [];
    const held = [0, 1].map(() => slots.run('mint', () => new Promise<void>((resolve) => releases.push(resolve))));
    expect(slots.stats()).toEqual({ inUse: 2, waitingUnlocks: 0, waitingMints: 0 });
    const mint = t.post(`/api/v1/reports/${report.id}/shares`, { passcode: 'waits-its-turn' }, owner.token);
    await expect.poll(() => slots.stats().waitingMints, { timeout: 60_000, interval: 5 }).toBe(1);
    expect(await unlock(token, 'unlock-me', address(200))).toBe(200);
    expect(slots.stats().waitingMints).toBe(1);
    releases.forEach((release) => {
      release();
    });
    await Promise.all(held);
    expect((await mint).status).toBe(201);
  });

  it('starts waiting unlocks before waiting mints', async () => {
    const slots = new PasscodeSlots(2, 1);
    const order: string[] = [];
    const releases: (() => void)[] = [];
    const hold = (work: 'mint' | 'unlock', name: string) =>
      slots.run(work, () => {
        order.push(name);
        return new Promise<void>((resolve) => releases.push(resolve));
      });
    const all = [hold('mint', 'm1'), hold('unlock', 'u1'), hold('mint', 'm2'), hold('unlock', 'u2')];
    expect(order).toEqual(['m1', 'u1']);
    releases.shift()?.();
    await expect.poll(() => order.length, { timeout: 60_000, interval: 5 }).toBe(3);
    expect(order[2]).toBe('u2');
    while (releases.length) releases.shift()?.();
    await expect.poll(() => order.length, { timeout: 60_000, interval: 5 }).toBe(4);
    while (releases.length) releases.shift()?.();
    await Promise.all(all);
  });

  it(`counts a share mint as ${HEAVY_RATE_COST} request units against API_RATE_LIMIT`, async () => {
    const limited = await buildPeerApp(t, { apiRateLimit: 100 });
    try {
      t.clock.set('2026-11-22T08:00:00.000Z');
      const res = await limited.post(`/api/v1/reports/${report.id}/shares`, { passcode: 'counted' }, owner.token);
      expect(res.status).toBe(201);
      expect(res.headers['ratelimit-remaining']).toBe(String(100 - HEAVY_RATE_COST));
    } finally {
      t.clock.reset();
      await limited.close();
    }
  });
});
