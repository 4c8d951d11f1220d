/** How long sessions, set-password links and failed sign-ins count (docs/api.md "Passwords and sessions"). */

/** A session unused for this long has ended. */
export const SESSION_IDLE_MS = 24 * 3_600_000;
/** A session ends this long after sign-in, however active. */
export const SESSION_MAX_MS = 14 * 86_400_000;
/** lastSeenAt is written at most once per this interval, so the idle limit has this precision. */
export const SESSION_TOUCH_MS = 60_000;

/** A set-password link works once, within this time. */
export const PASSWORD_LINK_MS = 7 * 86_400_000;

/**
 * Password attempts count in windows of this length (docs/decisions.md "Passwords and sessions",
 * a sign-in lockout nobody else can aim). A client is its address, an IPv6 address by its /64 (client-block.ts).
 */
export const THROTTLE_WINDOW_MS = 15 * 60_000;
/** Attempts one client may make on one account... */
export const THROTTLE_PAIR_LIMIT = 10;
/** ...and on all accounts together (set-password links included). */
export const THROTTLE_ADDRESS_LIMIT = 100;
/**
 * Past this many attempts on one account from all clients together (the ceiling), each client may
 * make only THROTTLE_PAIR_LIMIT_PAST_CEILING on it: the owner still gets in (and may mistype once),
 * and guessing from many addresses costs an address per guess or two.
 */
export const THROTTLE_ACCOUNT_CEILING = 50;
export const THROTTLE_PAIR_LIMIT_PAST_CEILING = 2;
