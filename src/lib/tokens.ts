import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random capability or bearer secret: `bytes` of CSPRNG output as base64url (16 bytes -> 22 chars). */
export function generateSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * SHA-256 of a high-entropy secret, hex. Lookups go by this hash, never by plaintext. Every signed-in
 * request and every share view hashes one: `crypto.hash` does it in one call, without the `Hash`
 * object `createHash` makes, about 0.8 µs against 2.3 for a token (docs/performance.md "One-shot
 * hashes on every request (3 December 2026)").
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
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
  return timingSafeEqual(hash('sha256', given, 'buffer'), hash('sha256', expected, 'buffer'));
}
