/**
 * Password hashing with scrypt (memory-hard, in node:crypto). The stored string carries its own
 * parameters (`scrypt$<logN>$<r>$<p>$<salt>$<key>`), so a later change of cost still verifies
 * older hashes. Comparisons are constant-time.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashThreads } from './hash-threads.js';

const KEY_LENGTH = 32;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

/** On a hashing thread below the event loop's priority (hash-threads.ts). */
function scrypt(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  // scrypt needs 128 * N * r bytes; leave headroom over Node's 32 MiB default.
  return hashThreads.scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 });
}

/** A new hash of `password` at cost 2^logN. */
export async function hashPassword(password: string, logN: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, logN, BLOCK_SIZE, PARALLELISM);
  return ['scrypt', logN, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const STORED = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Whether `password` matches `stored`; a malformed stored value never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = STORED.exec(stored);
  if (!match) return false;
  const [, logN, r, p, salt, key] = match as unknown as [string, string, string, string, string, string];
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), Number(logN), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Spends the time of one verification without a stored hash, so a sign-in for an unknown email
 * or a user without a password takes as long as a wrong password.
 */
export async function burnPasswordCheck(password: string, logN: number): Promise<void> {
  await scrypt(password, Buffer.alloc(16), logN, BLOCK_SIZE, PARALLELISM);
}
