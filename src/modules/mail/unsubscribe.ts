/**
 * One-click unsubscribe links (delivery.md §3, RFC 8058). A link names what it turns off (one
 * event of one user, a user's digest, or the mail of one outside address, through the link a
 * schedule minted for it) and carries an HMAC of exactly that under a key derived from the share
 * key, so it cannot be altered to reach anyone else's mail and needs no row of its own. It does
 * not expire: an old mail's link keeps working. The token is 42 characters: the ids travel as
 * their 16 bytes, so a link fits the router's 100-character path segments.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export const MAIL_EVENTS = ['inbox', 'discussion', 'scheduleProblems'] as const;
export type MailEvent = (typeof MAIL_EVENTS)[number];

/** What a link turns off: one event of a user, every event a daily digest gathers, or one outside address's mail of a report. */
export type Unsubscribe =
  { kind: 'event'; userId: string; event: MailEvent } | { kind: 'digest'; userId: string } | { kind: 'address'; shareId: string };

const VERSION = 1;
const KINDS = ['event', 'digest', 'address'] as const;
const MAC_BYTES = 12;
/** Version, kind and detail bytes, a 16-byte id, the MAC: 31 bytes, 42 base64url characters. */
const TOKEN_LENGTH = 42;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The signing key: the share key through HKDF, so a mail link never uses the key itself. */
export function unsubscribeKey(shareKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', shareKey, Buffer.alloc(0), 'chronicle mail unsubscribe v1', 32));
}

function idBytes(id: string): Buffer {
  if (!UUID.test(id)) throw new Error('unsubscribe links name ids of the UUID form');
  return Buffer.from(id.replace(/-/g, ''), 'hex');
}

function idOf(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function payloadOf(target: Unsubscribe): Buffer {
  const id = target.kind === 'address' ? target.shareId : target.userId;
  const detail = target.kind === 'event' ? MAIL_EVENTS.indexOf(target.event) : 0;
  return Buffer.concat([Buffer.from([VERSION, KINDS.indexOf(target.kind), detail]), idBytes(id)]);
}

function mac(key: Buffer, payload: Buffer): Buffer {
  return createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES);
}

/** The token of an unsubscribe link: base64url of the payload and its MAC. */
export function unsubscribeToken(key: Buffer, target: Unsubscribe): string {
  const payload = payloadOf(target);
  return Buffer.concat([payload, mac(key, payload)]).toString('base64url');
}

/** What a token turns off, or null for anything not signed by this installation. */
export function readUnsubscribeToken(key: Buffer, token: string): Unsubscribe | null {
  if (token.length !== TOKEN_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  const payload = bytes.subarray(0, bytes.length - MAC_BYTES);
  const given = bytes.subarray(bytes.length - MAC_BYTES);
  if (payload.length !== 19 || !timingSafeEqual(given, mac(key, payload))) return null;
  const [version, kind, detail] = payload;
  const id = idOf(payload.subarray(3));
  if (version !== VERSION) return null;
  if (KINDS[kind ?? -1] === 'event') {
    const event = MAIL_EVENTS[detail ?? -1];
    return event ? { kind: 'event', userId: id, event } : null;
  }
  if (KINDS[kind ?? -1] === 'digest') return { kind: 'digest', userId: id };
  if (KINDS[kind ?? -1] === 'address') return { kind: 'address', shareId: id };
  return null;
}
