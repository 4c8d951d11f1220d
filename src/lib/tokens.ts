import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random capability or bearer secret: `bytes` of CSPRNG output as base64url (16 bytes -> 22 chars). */
export function generateSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** SHA-256 of a high-entropy secret, hex. Lookups go by this hash, never by plaintext. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time string comparison (lengths are compared first; they are not secret). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
