import { pbkdf2Sync, scryptSync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createHashThreads, hashThreadCount } from '../../src/lib/hash-threads.js';
import { WORKER_NICE } from '../../src/lib/thread-priority.js';

const threads = createHashThreads(2);
afterAll(() => threads.close());

const bytes = (text: string) => new TextEncoder().encode(text);
const COST = { N: 1024, r: 8, p: 1, maxmem: 32 * 1024 * 1024 };

describe('hashing threads', () => {
  it('compute what node:crypto computes on this thread', async () => {
    const salt = bytes('sixteen byte slt');
    expect(await threads.pbkdf2(bytes('correct horse'), salt, 1_000, 32)).toEqual(
      pbkdf2Sync(bytes('correct horse'), salt, 1_000, 32, 'sha256'),
    );
    expect(await threads.scrypt('pässword', salt, 32, COST)).toEqual(scryptSync('pässword', salt, 32, COST));
  });

  it('run many jobs on at most their size of threads, each answered with its own key', async () => {
    const secrets = Array.from({ length: 9 }, (_, i) => `secret ${i}`);
    const salt = bytes('salt');
    const keys = await Promise.all(secrets.map((secret) => threads.pbkdf2(bytes(secret), salt, 2_000, 32)));
    expect(keys).toEqual(secrets.map((secret) => pbkdf2Sync(bytes(secret), salt, 2_000, 32, 'sha256')));
    expect(threads.threadIds().length).toBeLessThanOrEqual(2);
  });

  it("pass node:crypto's refusal through with its code, and go on hashing", async () => {
    const refused = await threads.scrypt('x', bytes('salt'), 32, { ...COST, N: 1000 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Error);
    expect(refused).toMatchObject({ code: 'ERR_CRYPTO_INVALID_SCRYPT_PARAMS' });
    expect(await threads.pbkdf2(bytes('a'), bytes('b'), 1, 16)).toEqual(pbkdf2Sync(bytes('a'), bytes('b'), 1, 16, 'sha256'));
  });

  it.runIf(existsSync('/proc/thread-self'))(`run at nice ${WORKER_NICE}, below the event loop`, async () => {
    await threads.pbkdf2(bytes('a'), bytes('b'), 1, 16);
    // Field 19 of a thread's stat is its nice value; the fields before it hold no spaces after the name's ")".
    const niceOf = (tid: number) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ')[16]);
    const ids = threads.threadIds();
    expect(ids.length).toBeGreaterThan(0);
    for (const tid of ids) expect(niceOf(tid)).toBe(WORKER_NICE);
    expect(niceOf(process.pid)).toBe(0);
  });

  it('have a thread per core, up to the hashes the slots let run at once (four passcodes and a password)', () => {
    expect([0, 1, 2, 4, 5, 64].map(hashThreadCount)).toEqual([1, 1, 2, 4, 5, 5]);
  });

  it('end a thread that has been idle, and start one again for the next job', async () => {
    const own = createHashThreads(1, 0);
    try {
      await own.pbkdf2(bytes('a'), bytes('b'), 1, 16);
      expect(own.threadIds()).toHaveLength(1);
      await expect.poll(() => own.threadIds()).toEqual([]);
      expect(await own.pbkdf2(bytes('a'), bytes('b'), 1, 16)).toEqual(pbkdf2Sync(bytes('a'), bytes('b'), 1, 16, 'sha256'));
    } finally {
      await own.close();
    }
  });

  it('fail the jobs running and waiting when closed', async () => {
    const own = createHashThreads(1);
    // The expectations hold the promises before close() refuses them (no unhandled rejection).
    const running = expect(own.pbkdf2(bytes('a'), bytes('b'), 1, 32)).rejects.toThrow('the hashing threads were closed');
    const waiting = expect(own.pbkdf2(bytes('c'), bytes('d'), 1, 32)).rejects.toThrow('the hashing threads were closed');
    await own.close();
    await running;
    await waiting;
  });

  it('start again after being closed', async () => {
    const own = createHashThreads(1);
    await own.pbkdf2(bytes('a'), bytes('b'), 1, 16);
    await own.close();
    expect(own.threadIds()).toEqual([]);
    expect(await own.pbkdf2(bytes('a'), bytes('b'), 1, 16)).toEqual(pbkdf2Sync(bytes('a'), bytes('b'), 1, 16, 'sha256'));
    await own.close();
  });
});
