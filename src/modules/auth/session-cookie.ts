/**
 * The session cookie (docs/api.md "Passwords and sessions"). Behind https it is `__Host-chronicle_session`
 * with `Secure`, which browsers only accept from a secure origin, for the whole host and no
 * Domain. When PUBLIC_BASE_URL is plain http (a local install), browsers would drop a `__Host-`
 * or `Secure` cookie, so the name is `chronicle_session` without `Secure`; everything else is the same.
 */
import type { Config } from '../../config.js';

export interface CookieSettings {
  readonly name: string;
  readonly secure: boolean;
  /** The one origin allowed to send unsafe requests with the cookie (CSRF). */
  readonly origin: string;
}

export function cookieSettings(config: Config): CookieSettings {
  const url = new URL(config.publicBaseUrl);
  const secure = url.protocol === 'https:';
  return { name: secure ? '__Host-chronicle_session' : 'chronicle_session', secure, origin: url.origin };
}

const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** The session secret from a Cookie header, or null (also for a malformed value). */
export function readSessionCookie(header: string | undefined, settings: CookieSettings): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== settings.name) continue;
    const value = part.slice(eq + 1).trim();
    return SECRET.test(value) ? value : null;
  }
  return null;
}

/** Set-Cookie for a new session that the browser keeps until `maxAgeSeconds`. */
export function sessionCookie(settings: CookieSettings, secret: string, maxAgeSeconds: number): string {
  return [
    `${settings.name}=${secret}`,
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(settings.secure ? ['Secure'] : []),
  ].join('; ');
}

/** Set-Cookie that removes the session cookie. */
export function clearedSessionCookie(settings: CookieSettings): string {
  return [`${settings.name}=`, 'Path=/', 'Max-Age=0', 'HttpOnly', 'SameSite=Lax', ...(settings.secure ? ['Secure'] : [])].join('; ');
}
