/**
 * The one form of an e-mail address that lookups and the sign-in throttle key agree on
 * (docs/decisions.md "Passwords and sessions", one e-mail normalisation): surrounding white space dropped and ASCII
 * letters lowered, nothing else. Stored addresses are ASCII (the `email` format admits nothing
 * else), so Unicode case mapping could only make two different inputs meet on one account, and
 * JavaScript and PostgreSQL map some letters differently (`İ`): no Unicode case mapping here or in
 * the matching SQL (users.repository.ts `emailMatches`).
 */
export function normalizeEmail(email: string): string {
  return email.trim().replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}
