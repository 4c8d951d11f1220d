/**
 * One-click unsubscribe links (delivery.md §3, RFC 8058). A link names what it turns off (one
 * event of one user, a user's digest, or the mail of one outside address, through the link a
 * schedule minted for it) and carries an HMAC of exactly that under a key derived from the share
 * key, so it cannot be altered to reach anyone else's mail and needs no row of its own. It does
 * not expire: an old mail's link keeps working. A UUID travels as its 16 bytes (a token of 43
 * characters), any other id as its UTF-8, so a link fits the router's 100-character path segments.
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
/** Version, kind, detail and the id's form. */
const HEADER_BYTES = 4;
/** The longest id a token carries: 100 base64url characters hold 75 bytes. */
const MAX_ID_BYTES = 75 - HEADER_BYTES - MAC_BYTES;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ID_FORMS = { uuid: 0, text: 1 } as const;

/** Each share key's signing key, derived once: every mail and every unsubscribe link needs it. */
const derived = new WeakMap<Buffer, Buffer>();

/** The signing key: the share key through HKDF, so a mail link never uses the key itself. */
export function unsubscribeKey(shareKey: Buffer): Buffer {
  let key = derived.get(shareKey);
  if (!key) derived.set(shareKey, (key = Buffer.from(hkdfSync('sha256', shareKey, Buffer.alloc(0), 'chronicle mail unsubscribe v1', 32))));
  return key;
}

/** An id as the token carries it: its form and its bytes. */
function idBytes(id: string): { form: number; bytes: Buffer } {
  if (UUID.test(id)) return { form: ID_FORMS.uuid, bytes: Buffer.from(id.replace(/-/g, ''), 'hex') };
  return { form: ID_FORMS.text, bytes: Buffer.from(id, 'utf8') };
}

function idOf(form: number | undefined, bytes: Buffer): string | null {
  if (form === ID_FORMS.text) return bytes.length > 0 ? bytes.toString('utf8') : null;
  if (form !== ID_FORMS.uuid || bytes.length !== 16) return null;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function payloadOf(target: Unsubscribe): Buffer | null {
  const { form, bytes } = idBytes(target.kind === 'address' ? target.shareId : target.userId);
  if (bytes.length > MAX_ID_BYTES) return null;
  const detail = target.kind === 'event' ? MAIL_EVENTS.indexOf(target.event) : 0;
  return Buffer.concat([Buffer.from([VERSION, KINDS.indexOf(target.kind), detail, form]), bytes]);
}

function mac(key: Buffer, payload: Buffer): Buffer {
  return createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES);
}

/** The token of an unsubscribe link (base64url of the payload and its MAC), or null for an id too long to carry. */
export function unsubscribeToken(key: Buffer, target: Unsubscribe): string | null {
  const payload = payloadOf(target);
  return payload ? Buffer.concat([payload, mac(key, payload)]).toString('base64url') : null;
}

/** What a token turns off, or null for anything not signed by this installation. */
export function readUnsubscribeToken(key: Buffer, token: string): Unsubscribe | null {
  if (token.length > 100 || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length <= HEADER_BYTES + MAC_BYTES || bytes.toString('base64url') !== token) return null;
  const payload = bytes.subarray(0, bytes.length - MAC_BYTES);
  if (!timingSafeEqual(bytes.subarray(bytes.length - MAC_BYTES), mac(key, payload))) return null;
  const [version, kind, detail, form] = payload;
  const id = idOf(form, payload.subarray(HEADER_BYTES));
  if (version !== VERSION || id === null) return null;
  if (KINDS[kind ?? -1] === 'event') {
    const event = MAIL_EVENTS[detail ?? -1];
    return event ? { kind: 'event', userId: id, event } : null;
  }
  if (KINDS[kind ?? -1] === 'digest') return { kind: 'digest', userId: id };
  if (KINDS[kind ?? -1] === 'address') return { kind: 'address', shareId: id };
  return null;
}
