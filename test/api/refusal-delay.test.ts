/**
 * REFUSAL_DELAY_MS (docs/operations.md "Rate limit"): a rate-limit refusal is held before it is
 * answered, so a client that ignores Retry-After gets few refusals a second; nobody else waits
 * behind it. The wait is injected: the test releases it, no timing is measured.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sleep } from '../../src/lib/refusal-delay.js';
import { newWorkspace } from '../helpers/factories.js';
import { newReport } from '../helpers/report-factories.js';
import { buildPeerApp, buildTestApp, expectProblem, newUser, type Response, type TestContext } from '../helpers/test-app.js';

const LIMIT = 30;
let hours = 0;
/** Moves the clock to an hour of its own, so that each setup step has a whole budget. */
function freshHour(): void {
  hours += 1;
  t.clock.set(new Date(Date.parse('2026-10-01T00:00:00.000Z') + hours * 3_600_000));
}
const pending: { ms: number; release: () => void }[] = [];
const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    pending.push({ ms, release: resolve });
    signal.addEventListener(
      'abort',
      () => {
        resolve();
      },
      { once: true },
    );
  });

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ config: { apiRateLimit: LIMIT, refusalDelayMs: 1_000 }, refusalSleep: sleep });
});
afterAll(() => t.close());

/** Polls (never sleeps) until `n` refusals are held. */
async function heldCount(n: number): Promise<void> {
  while (t.app.chronicle.refusalDelay.stats().held !== n) await new Promise((resolve) => setImmediate(resolve));
}

async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('REFUSAL_DELAY_MS', () => {
  it('holds a 429 for the delay while other requests, and the share page, are answered', async () => {
    freshHour();
    const owner = await newUser(t);
    freshHour();
    const workspace = await newWorkspace(t, owner);
    freshHour();
    const report = await newReport(t, owner, [workspace.id]);
    freshHour();
    const share = await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token);
    expect(share.status).toBe(201);
    freshHour();
    const caller = await newUser(t);

    freshHour();
    t.clock.advance(15_000);
    for (let i = 0; i < LIMIT; i++) expect((await t.get('/api/v1/me', caller.token)).status).toBe(200);
    const refused: Promise<Response> = t.get('/api/v1/me', caller.token);
    await heldCount(1);
    expect(pending.at(-1)!.ms).toBe(1_000);
    expect(await isSettled(refused)).toBe(false);

    // Meanwhile the page and another user are answered at once.
    expect((await t.request('GET', `/share/${share.body.token}`, { token: null })).status).toBe(200);
    expect((await t.get('/api/v1/me', owner.token)).status).toBe(200);
    const metrics = await t.request('GET', '/metrics', { token: null });
    expect(metrics.text).toMatch(/^chronicle_refusals_held 1$/m);
    expect(await isSettled(refused)).toBe(false);

    pending.at(-1)!.release();
    const res = await refused;
    expect(expectProblem(res, 429).detail).toMatch(/request units/);
    expect(res.headers['retry-after']).toBe('45');
    expect(t.app.chronicle.refusalDelay.stats()).toEqual({ held: 0 });
  });

  it('holds a passcode page refused for too many wrong attempts', async () => {
    freshHour();
    const owner = await newUser(t);
    freshHour();
    const workspace = await newWorkspace(t, owner);
    freshHour();
    const report = await newReport(t, owner, [workspace.id]);
    freshHour();
    const share = await t.post(`/api/v1/reports/${report.id}/shares`, { passcode: 'the-right-one' }, owner.token);
    const submit = (passcode: string) =>
      t.request('POST', `/share/${share.body.token}`, {
        token: null,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        raw: `passcode=${passcode}`,
      });
    for (let i = 0; i < 10; i++) expect((await submit(`wrong-${i}`)).status).toBe(401);
    const refused = submit('wrong-again');
    await heldCount(1);
    expect(await isSettled(refused)).toBe(false);
    pending.at(-1)!.release();
    const res = await refused;
    expect(res.status).toBe(429);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });

  it('answers a held refusal at once when the app closes', async () => {
    // Another process on the same database, with the real timer: closing it must not wait 10 s.
    const peer = await buildPeerApp(t, { apiRateLimit: LIMIT, refusalDelayMs: 10_000 });
    let closed = false;
    try {
      freshHour();
      const caller = await newUser(t);
      freshHour();
      for (let i = 0; i < LIMIT; i++) expect((await peer.get('/api/v1/me', caller.token)).status).toBe(200);
      const refused = peer.get('/api/v1/me', caller.token);
      while (peer.app.chronicle.refusalDelay.stats().held !== 1) await new Promise((resolve) => setImmediate(resolve));
      await peer.close();
      closed = true;
      expect((await refused).status).toBe(429);
    } finally {
      if (!closed) await peer.close();
    }
  });
});
