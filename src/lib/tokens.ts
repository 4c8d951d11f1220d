import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random capability or bearer secret: `bytes` of CSPRNG output as base64url (16 bytes -> 22 chars). */
export function generateSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** SHA-256 of a high-entropy secret, hex. Lookups go by this hash, never by plaintext. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A new API token: `chr_` and 32 random bytes (256 bits) as base64url. Only its hash is stored. */
export function newApiToken(): string {
  return `chr_${generateSecret(32)}`;
}

/**
 * Whether two secrets are equal, in time that does not depend on where they differ: both are
 * hashed first, so even their lengths stay hidden.
 */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(createHash('sha256').update(given, 'utf8').digest(), createHash('sha256').update(expected, 'utf8').digest());
}
