/** Recognising database failures, whichever driver raised them and however Drizzle wrapped them. */

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
]);

function* causes(error: unknown): Generator<Record<string, unknown>> {
  let current = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    yield current as Record<string, unknown>;
    current = (current as { cause?: unknown }).cause;
  }
}

/**
 * Why a connection to PostgreSQL failed, in a few words an operator can act on, or null when the
 * error is not a connection failure. Start-up prints it on each retry.
 */
export function connectionFailureReason(error: unknown): string | null {
  for (const e of causes(error)) {
    const code = typeof e.code === 'string' ? e.code : '';
    const message = typeof e.message === 'string' ? e.message : '';
    if (code === 'ECONNREFUSED') return 'connection refused: is PostgreSQL running at that host and port?';
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found: check the host name in DATABASE_URL';
    if (code === 'ETIMEDOUT' || /timeout exceeded when trying to connect/i.test(message)) return 'connection timed out';
    if (code === '28P01' || code === '28000') return `authentication failed: ${message}`;
    if (code === '3D000') return `no such database: ${message}`;
    if (code === '57P03' || /the database system is starting up/i.test(message)) return 'PostgreSQL is starting up';
    if (code === '53300') return 'too many connections';
    if (/not currently accepting connections/i.test(message)) return 'the database is not accepting connections';
    if (/SSL|TLS|certificate/i.test(message) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL')) return `TLS failed: ${message}`;
  }
  return isDatabaseUnavailable(error) ? 'the connection failed' : null;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of causes(error)) {
    if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
    if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (
      /Connection terminated|timeout exceeded when trying to connect|Cannot use a pool after calling end|PGlite is closed|not currently accepting connections|the database system is (starting up|shutting down|in recovery mode)/i.test(
        message,
      )
    )
      return true;
  }
  return false;
}

/** The SQLSTATE of a PostgreSQL error (e.g. '23505'), looking through Drizzle's wrapper. */
export function pgErrorCode(error: unknown): string | undefined {
  for (const e of causes(error)) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

export function pgConstraint(error: unknown): string | undefined {
  for (const e of causes(error)) {
    if (typeof e.constraint === 'string') return e.constraint;
  }
  return undefined;
}
