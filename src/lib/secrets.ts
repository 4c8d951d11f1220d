import { createCipheriv, createDecipheriv, randomBytes, timingSafeEqual } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hashThreads } from './hash-threads.js';
import { generateSecret } from './tokens.js';

const CIPHER = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BLOB_VERSION = 'v1';

/** OWASP's 2023 figure for PBKDF2-HMAC-SHA256. Stored hashes record their own count, so raising it later is safe. */
export const PASSCODE_ITERATIONS = 600_000;
const PASSCODE_PREFIX = 'pbkdf2-sha256';
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** A stored value asking for more work than this is treated as corrupt rather than run. */
const MAX_ITERATIONS = 10_000_000;

/** Share tokens are 16 random bytes as base64url (docs/api.md "Share links"). */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;

const SHARE_KEY_FILE = 'share-key';
const SHARE_KEY_ERROR = 'must be 32 bytes, base64-encoded';

/**
 * Node's base64url decoder skips characters it does not know and ignores stray low
 * bits, so two different strings can decode to the same bytes. Accepting only the
 * canonical form makes every edit to a stored blob or hash visible.
 */
function decodeCanonicalBase64url(text: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : null;
}

function assertKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new Error(`encryption key ${SHARE_KEY_ERROR}`);
}

/**
 * Encrypts with AES-256-GCM under a fresh random 12-byte IV. The result,
 * `v1.<iv>.<tag>.<ciphertext>` (base64url parts), names its format so the
 * scheme can change without guessing at old rows.
 */
export function encryptSecret(key: Buffer, plaintext: string): string {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [BLOB_VERSION, ...[iv, tag, ciphertext].map((part) => part.toString('base64url'))].join('.');
}

/** Reverses {@link encryptSecret}. Throws when the blob is malformed, was altered, or was sealed under another key. */
export function decryptSecret(key: Buffer, blob: string): string {
  assertKey(key);
  const parts = blob.split('.');
  if (parts.length !== 4 || parts[0] !== BLOB_VERSION) throw new Error('unsupported encrypted value');
  const [iv, tag, ciphertext] = parts.slice(1).map(decodeCanonicalBase64url);
  if (!iv || iv.length !== IV_BYTES || !tag || tag.length !== TAG_BYTES || !ciphertext) {
    throw new Error('malformed encrypted value');
  }
  const decipher = createDecipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  // final() throws when the tag does not match: tampering or the wrong key.
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
}

/**
 * Share passcodes are 4-128 characters (docs/api.md "Limits"), counted as code points of the NFC
 * form, since that form is what gets hashed: a rule on the raw input would let mint and viewer
 * disagree about one passcode typed two ways.
 */
export const PASSCODE_MIN_CHARS = 4;
export const PASSCODE_MAX_CHARS = 128;
/**
 * The longest canonical decomposition of one character is 4 code points, so a passcode of at most
 * 128 characters in NFC is never longer than this however it was typed. Anything longer cannot
 * be a passcode and is refused before it is normalised or hashed.
 */
export const PASSCODE_MAX_INPUT = 4 * PASSCODE_MAX_CHARS;

/**
 * The same passcode typed on two keyboards can arrive as different code point
 * sequences (precomposed vs combining accents); NFC makes them hash alike.
 */
function normalisePasscode(passcode: string): string {
  return passcode.normalize('NFC');
}

/** Characters of the passcode as it is hashed (code points of its NFC form). */
export function passcodeLength(passcode: string): number {
  return codePoints(normalisePasscode(passcode));
}

/** Code points of a string (what a person counts as characters, more nearly than UTF-16 units). */
export function codePoints(text: string): number {
  return Array.from(text).length;
}

function passcodeBytes(passcode: string): Buffer {
  return Buffer.from(normalisePasscode(passcode), 'utf8');
}

/**
 * Hashes a share passcode with PBKDF2-HMAC-SHA256 and a random 16-byte salt, as
 * `pbkdf2-sha256$<iterations>$<salt>$<hash>`. Runs on a hashing thread below the event loop's
 * priority (hash-threads.ts), so a slow hash neither stalls nor slows other requests.
 */
export async function hashPasscode(passcode: string, iterations: number = PASSCODE_ITERATIONS): Promise<string> {
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > MAX_ITERATIONS) {
    throw new RangeError(`iterations must be an integer between 1 and ${MAX_ITERATIONS}`);
  }
  const salt = randomBytes(SALT_BYTES);
  const hash = await hashThreads.pbkdf2(passcodeBytes(passcode), salt, iterations, HASH_BYTES);
  return [PASSCODE_PREFIX, String(iterations), salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/**
 * Checks a passcode against a value from {@link hashPasscode}, using the
 * parameters recorded in it. A malformed stored value never matches.
 */
export async function verifyPasscode(passcode: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 4 || parts[0] !== PASSCODE_PREFIX) return false;
  const [, iterationsText = '', saltText = '', hashText = ''] = parts;
  if (!/^[1-9][0-9]{0,7}$/.test(iterationsText)) return false;
  const iterations = Number(iterationsText);
  const salt = decodeCanonicalBase64url(saltText);
  const expected = decodeCanonicalBase64url(hashText);
  if (iterations > MAX_ITERATIONS || !salt?.length || !expected) return false;
  if (expected.length < 16 || expected.length > 64) return false;
  const actual = await hashThreads.pbkdf2(passcodeBytes(passcode), salt, iterations, expected.length);
  return timingSafeEqual(actual, expected);
}

/** Parses a share encryption key given as base64 or base64url; anything but exactly 32 bytes is refused. */
export function parseShareKey(value: string): Buffer {
  const text = value.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) throw new Error(SHARE_KEY_ERROR);
  // Node's 'base64' decoder also accepts the url-safe alphabet.
  const key = Buffer.from(text, 'base64');
  if (key.length !== KEY_BYTES) throw new Error(SHARE_KEY_ERROR);
  return key;
}

function isErrnoException(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

async function readShareKey(path: string): Promise<Buffer> {
  const text = await readFile(path, 'utf8');
  try {
    return parseShareKey(text);
  } catch {
    throw new Error(`${path}: share key ${SHARE_KEY_ERROR}`);
  }
}

/**
 * Returns the share encryption key kept in `<dataDir>/share-key`, creating it on
 * first use. The key is written in full to a private temporary file and then
 * hard-linked into place: the link either appears complete or fails with EEXIST,
 * so concurrent starters never read a half-written file and all agree on one key.
 */
export async function loadOrCreateShareKey(dataDir: string): Promise<Buffer> {
  const path = join(dataDir, SHARE_KEY_FILE);
  try {
    return await readShareKey(path);
  } catch (error) {
    if (!isErrnoException(error, 'ENOENT')) throw error;
  }

  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${generateSecret(6)}.tmp`;
  await writeFile(temp, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx', flush: true });
  try {
    await link(temp, path);
  } catch (error) {
    if (!isErrnoException(error, 'EEXIST')) throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  return readShareKey(path);
}

/** A fresh capability token for a public share link: 16 random bytes, 22 base64url characters. */
export function generateShareToken(): string {
  return generateSecret(16);
}
