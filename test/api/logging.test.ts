/** What reaches the log: one line per request, never a share token, never SQL parameters. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loggedUrl, redactUrl, serializeError } from '../../src/http/logging.js';

describe('redactUrl', () => {
  it.each([
    ['/share/AbCdEfGhIjKlMnOpQrStUv', '/share/[redacted]'],
    ['/share/AbCdEfGhIjKlMnOpQrStUv?x=1', '/share/[redacted]'],
    ['/SHARE/AbCdEfGhIjKlMnOpQrStUv', '/share/[redacted]'],
    ['//share//AbCdEfGhIjKlMnOpQrStUv', '/share/[redacted]'],
    ['/%73hare/AbCdEfGhIjKlMnOpQrStUv', '/[redacted]'],
    ['/%53HARE/AbCdEfGhIjKlMnOpQrStUv', '/[redacted]'],
    ['/api/v1/reports/abc/shares', '/api/v1/reports/abc/shares'],
    ['/api/v1/report-shares/abc/revoke', '/api/v1/report-shares/abc/revoke'],
    ['/api/v1/me?q=%ZZ', '/api/v1/me?q=%ZZ'],
  ])('%s -> %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
    expect(redactUrl(url)).not.toContain('AbCdEf');
  });

  it('logs the route pattern for the viewer', () => {
    const request = { routeOptions: { url: '/share/:token' }, url: '/%73hare/AbCdEfGhIjKlMnOpQrStUv' } as never;
    expect(loggedUrl(request)).toBe('/share/:token');
  });
});

describe('serializeError', () => {
  it('drops query parameters, details and the data in a wrapped database error', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "shares_token_hash_unique"'), {
      code: '23505',
      detail: 'Key (token_hash)=(deadbeef) already exists.',
      constraint: 'shares_token_hash_unique',
    });
    const error = Object.assign(
      new Error('Failed query: insert into "shares" values ($1, $2)\nparams: deadbeef,pbkdf2-sha256$600000$salt$hash'),
      {
        query: 'insert into "shares" values ($1, $2)',
        params: ['deadbeef', 'pbkdf2-sha256$600000$salt$hash'],
        cause,
      },
    );
    const text = JSON.stringify(serializeError(error));
    expect(text).not.toContain('deadbeef');
    expect(text).not.toContain('pbkdf2');
    expect(text).toContain('23505');
    expect(text).toContain('shares_token_hash_unique');
  });
});

describe('the app log', () => {
  it('writes no secret for an encoded share path or a failing query', async () => {
    const { buildApp } = await import('../../src/app.js');
    const { testConfig } = await import('../helpers/test-app.js');
    const { resetDatabase, testDatabase } = await import('../helpers/test-database.js');
    const database = await testDatabase();
    await resetDatabase(database);
    let log = '';
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        log += String(chunk);
        callback();
      },
    });
    const { default: pino } = await import('pino');
    const { loggerOptions } = await import('../../src/http/logging.js');
    const logger = pino(loggerOptions('info') as object, stream);
    const logged = await buildApp({ config: testConfig({ logLevel: 'info' }), database, loggerInstance: logger });
    try {
      for (const url of [
        '/share/AbCdEfGhIjKlMnOpQrStUv',
        '/%73hare/AbCdEfGhIjKlMnOpQrStUv',
        '/SHARE/AbCdEfGhIjKlMnOpQrStUv',
        '/share/%ZZAbCdEfGhIjKlMnOpQrStUv',
      ]) {
        await logged.inject({ method: 'GET', url });
      }
      expect(log).toContain('"msg":"request"');
      expect(log).not.toContain('AbCdEf');
    } finally {
      await logged.close();
    }
  });
});
