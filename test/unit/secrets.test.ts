import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PASSCODE_ITERATIONS,
  SHARE_TOKEN_PATTERN,
  decryptSecret,
  encryptSecret,
  generateShareToken,
  hashPasscode,
  loadOrCreateShareKey,
  parseShareKey,
  verifyPasscode,
} from '../../src/lib/secrets.js';

/** Enough work to exercise the code path without slowing the suite; production uses PASSCODE_ITERATIONS. */
const FAST = 1_000;

const BLOB = /^v1\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]*)$/;

/** Changes one character of a base64url string to another valid one. */
function flipChar(text: string, index: number): string {
  const char = text[index];
  return `${text.slice(0, index)}${char === 'A' ? 'B' : 'A'}${text.slice(index + 1)}`;
}

describe('encryptSecret / decryptSecret', () => {
  const key = randomBytes(32);

  it.each(['', 'a', 'tok_0123456789abcdefghij', 'ünïcødé ✓ 🔐', 'x'.repeat(10_000)])('round-trips %j', (plaintext) => {
    const blob = encryptSecret(key, plaintext);
    expect(blob).toMatch(BLOB);
    expect(decryptSecret(key, blob)).toBe(plaintext);
  });

  it('uses a fresh IV each time', () => {
    const a = encryptSecret(key, 'same');
    const b = encryptSecret(key, 'same');
    expect(a).not.toBe(b);
    expect(BLOB.exec(a)?.[1]).not.toBe(BLOB.exec(b)?.[1]);
  });

  it.each([
    ['iv', 1],
    ['tag', 2],
    ['ciphertext', 3],
  ] as const)('detects tampering with the %s', (_part, index) => {
    const parts = encryptSecret(key, 'the capability token').split('.');
    parts[index] = flipChar(parts[index]!, 0);
    expect(() => decryptSecret(key, parts.join('.'))).toThrow();
  });

  it('refuses a non-canonical encoding that decodes to the same bytes', () => {
    const [version, iv, tag, ciphertext] = encryptSecret(key, 'abc').split('.') as [string, string, string, string];
    // 16 tag bytes fill 22 characters with 4 bits to spare; flipping the lowest spare bit keeps the bytes.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const altered = `${tag.slice(0, -1)}${alphabet[alphabet.indexOf(tag.at(-1)!) ^ 1]}`;
    expect(Buffer.from(altered, 'base64url').equals(Buffer.from(tag, 'base64url'))).toBe(true);
    expect(() => decryptSecret(key, [version, iv, altered, ciphertext].join('.'))).toThrow('malformed');
    expect(() => decryptSecret(key, [version, iv, `${tag}=`, ciphertext].join('.'))).toThrow('malformed');
  });

  it('fails with the wrong key', () => {
    const blob = encryptSecret(key, 'secret');
    expect(() => decryptSecret(randomBytes(32), blob)).toThrow();
  });

  const iv = 'A'.repeat(16);
  const tag = 'A'.repeat(22);
  it.each(['', 'v1', 'v1.a.b', `v2.${iv}.${tag}.AAAA`, `v1.AAAA.${tag}.AAAA`, `v1.${iv}.AAAA.AAAA`, `v1.${iv}.${tag}.AAAA.x`])(
    'rejects the malformed blob %j',
    (blob) => {
      expect(() => decryptSecret(key, blob)).toThrow();
    },
  );

  it('requires a 32-byte key', () => {
    expect(() => encryptSecret(randomBytes(16), 'x')).toThrow('32 bytes');
    expect(() => decryptSecret(randomBytes(16), encryptSecret(key, 'x'))).toThrow('32 bytes');
  });
});

describe('hashPasscode / verifyPasscode', () => {
  it('records algorithm, iterations, salt and hash', async () => {
    const stored = await hashPasscode('open sesame', FAST);
    const match = /^pbkdf2-sha256\$(\d+)\$([A-Za-z0-9_-]{22})\$([A-Za-z0-9_-]{43})$/.exec(stored);
    expect(match?.[1]).toBe(String(FAST));
  });

  it('derives exactly PBKDF2-HMAC-SHA256 with the recorded parameters', async () => {
    const stored = await hashPasscode('open sesame', 1234);
    const [, iterations, salt, hash] = stored.split('$');
    const expected = pbkdf2Sync('open sesame', Buffer.from(salt!, 'base64url'), Number(iterations), 32, 'sha256');
    expect(iterations).toBe('1234');
    expect(hash).toBe(expected.toString('base64url'));
  });

  it('salts every hash', async () => {
    expect(await hashPasscode('same', FAST)).not.toBe(await hashPasscode('same', FAST));
  });

  it('verifies the right passcode and rejects others', async () => {
    const stored = await hashPasscode('correct horse', FAST);
    expect(await verifyPasscode('correct horse', stored)).toBe(true);
    expect(await verifyPasscode('correct hors', stored)).toBe(false);
    expect(await verifyPasscode('Correct horse', stored)).toBe(false);
    expect(await verifyPasscode('', stored)).toBe(false);
  });

  it('honours the iteration count recorded in the stored value', async () => {
    const low = await hashPasscode('pass', 1);
    const high = await hashPasscode('pass', 5000);
    expect(await verifyPasscode('pass', low)).toBe(true);
    expect(await verifyPasscode('pass', high)).toBe(true);
    // Same salt and hash under a different count must not verify.
    expect(await verifyPasscode('pass', low.replace('$1$', '$2$'))).toBe(false);
  });

  it('treats composed and decomposed accents as the same passcode', async () => {
    const stored = await hashPasscode('caf\u00e9', FAST);
    expect(await verifyPasscode('cafe\u0301', stored)).toBe(true);
  });

  it('uses at least 600000 iterations by default', async () => {
    expect(PASSCODE_ITERATIONS).toBeGreaterThanOrEqual(600_000);
    const stored = await hashPasscode('default strength');
    expect(Number(stored.split('$')[1])).toBeGreaterThanOrEqual(600_000);
    expect(await verifyPasscode('default strength', stored)).toBe(true);
  });

  it.each([0, -1, 1.5, Number.NaN, 20_000_000])('refuses %d iterations', async (iterations) => {
    await expect(hashPasscode('x', iterations)).rejects.toThrow(RangeError);
  });

  it('returns false for malformed stored values', async () => {
    const good = await hashPasscode('pass', FAST);
    const [, , salt, hash] = good.split('$');
    const malformed = [
      '',
      'pass',
      '$$$',
      'pbkdf2-sha256',
      `pbkdf2-sha1$${FAST}$${salt}$${hash}`,
      `pbkdf2-sha256$${FAST}$${salt}`,
      `pbkdf2-sha256$${FAST}$${salt}$${hash}$extra`,
      `pbkdf2-sha256$abc$${salt}$${hash}`,
      `pbkdf2-sha256$0$${salt}$${hash}`,
      `pbkdf2-sha256$-5$${salt}$${hash}`,
      `pbkdf2-sha256$0100$${salt}$${hash}`,
      `pbkdf2-sha256$99999999$${salt}$${hash}`,
      `pbkdf2-sha256$${FAST}$$${hash}`,
      `pbkdf2-sha256$${FAST}$${salt}$`,
      `pbkdf2-sha256$${FAST}$${salt}$${hash!.slice(0, 10)}`,
      `pbkdf2-sha256$${FAST}$${salt}$${hash}==`,
      `pbkdf2-sha256$${FAST}$${salt}$${hash!.replace(/.$/, '+')}`,
    ];
    for (const stored of malformed) {
      expect(await verifyPasscode('pass', stored), stored).toBe(false);
    }
  });
});

describe('parseShareKey', () => {
  const bytes = randomBytes(32);

  it.each([
    ['base64', bytes.toString('base64')],
    ['base64url', bytes.toString('base64url')],
    ['base64 with surrounding whitespace', `  ${bytes.toString('base64')}\n`],
  ])('accepts %s', (_label, text) => {
    expect(parseShareKey(text).equals(bytes)).toBe(true);
  });

  it.each([
    ['31 bytes', randomBytes(31).toString('base64')],
    ['33 bytes', randomBytes(33).toString('base64')],
    ['empty', ''],
    ['hex', bytes.toString('hex')],
    ['not base64', '!'.repeat(44)],
  ])('refuses %s', (_label, text) => {
    expect(() => parseShareKey(text)).toThrow(new Error('must be 32 bytes, base64-encoded'));
  });
});

describe('loadOrCreateShareKey', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'chronicle-share-key-'));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('creates the data directory and a private key file once', async () => {
    const dataDir = join(root, 'nested', 'data');
    const first = await loadOrCreateShareKey(dataDir);
    expect(first).toHaveLength(32);

    const file = join(dataDir, 'share-key');
    expect(parseShareKey(await readFile(file, 'utf8')).equals(first)).toBe(true);
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);

    const second = await loadOrCreateShareKey(dataDir);
    expect(second.equals(first)).toBe(true);
    expect(await readdir(dataDir)).toEqual(['share-key']);
  });

  it('gives concurrent callers the same key', async () => {
    const keys = await Promise.all(Array.from({ length: 5 }, () => loadOrCreateShareKey(root)));
    for (const key of keys) expect(key.equals(keys[0]!)).toBe(true);
    expect(await readdir(root)).toEqual(['share-key']);
  });

  it('keeps an existing key', async () => {
    const existing = randomBytes(32);
    await writeFile(join(root, 'share-key'), `${existing.toString('base64')}\n`, { mode: 0o600 });
    expect((await loadOrCreateShareKey(root)).equals(existing)).toBe(true);
  });

  it('refuses a corrupt key file rather than replacing it', async () => {
    const file = join(root, 'share-key');
    await writeFile(file, 'not a key\n', { mode: 0o600 });
    await expect(loadOrCreateShareKey(root)).rejects.toThrow(`${file}: share key must be 32 bytes, base64-encoded`);
    expect(await readFile(file, 'utf8')).toBe('not a key\n');
  });
});

describe('generateShareToken', () => {
  it('makes 22-character base64url tokens that match SHARE_TOKEN_PATTERN', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => generateShareToken()));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) {
      expect(token).toHaveLength(22);
      expect(token).toMatch(SHARE_TOKEN_PATTERN);
    }
  });

  it.each(['', 'a'.repeat(21), 'a'.repeat(23), `${'a'.repeat(21)}+`, `${'a'.repeat(21)}/`, `${'a'.repeat(21)}=`])(
    'SHARE_TOKEN_PATTERN rejects %j',
    (candidate) => {
      expect(SHARE_TOKEN_PATTERN.test(candidate)).toBe(false);
    },
  );
});
