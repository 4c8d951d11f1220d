/** How long sessions, set-password links and failed sign-ins count (docs/web.md "Sessions"). */

/** A session unused for this long has ended. */
export const SESSION_IDLE_MS = 24 * 3_600_000;
/** A session ends this long after sign-in, however active. */
export const SESSION_MAX_MS = 14 * 86_400_000;
/** lastSeenAt is written at most once per this interval, so the idle limit has this precision. */
export const SESSION_TOUCH_MS = 60_000;

/** A set-password link works once, within this time. */
export const PASSWORD_LINK_MS = 7 * 86_400_000;

/** Failed password checks count in windows of this length... */
export const THROTTLE_WINDOW_MS = 15 * 60_000;
/** ...and at most this many attempts per account, and per client address, are let through. */
export const THROTTLE_ACCOUNT_LIMIT = 10;
export const THROTTLE_ADDRESS_LIMIT = 100;
