import { describe, expect, it } from 'vitest';
import { connectionFailureReason, isDatabaseUnavailable } from '../../src/db/errors.js';

/** An error as pg raises it, wrapped the way Drizzle wraps a failed query. */
const wrapped = (inner: { code?: string; message?: string }) =>
  Object.assign(new Error('Failed query'), { cause: Object.assign(new Error(inner.message ?? ''), inner) });

describe('connectionFailureReason', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }, 'connection refused'],
    [{ code: 'ENOTFOUND' }, 'host not found'],
    [{ code: 'ETIMEDOUT' }, 'timed out'],
    [{ code: '28P01', message: 'password authentication failed for user "x"' }, 'authentication failed: password authentication failed'],
    [{ code: '3D000', message: 'database "nope" does not exist' }, 'no such database: database "nope" does not exist'],
    [{ code: '57P03', message: 'the database system is starting up' }, 'starting up'],
    [{ message: 'The server does not support SSL connections' }, 'TLS failed'],
    [{ code: 'ERR_TLS_CERT_ALTNAME_INVALID', message: 'Hostname/IP does not match certificate' }, 'TLS failed'],
  ])('names %j', (error, reason) => {
    expect(connectionFailureReason(wrapped(error))).toContain(reason);
  });

  it('is null for an error that is not about the connection', () => {
    expect(connectionFailureReason(wrapped({ code: '23505', message: 'duplicate key' }))).toBeNull();
    expect(connectionFailureReason(new Error('boom'))).toBeNull();
  });

  it('agrees with isDatabaseUnavailable on plain connection loss', () => {
    const lost = wrapped({ message: 'Connection terminated unexpectedly' });
    expect(isDatabaseUnavailable(lost)).toBe(true);
    expect(connectionFailureReason(lost)).toBe('the connection failed');
  });
});
