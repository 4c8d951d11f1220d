import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, startupWarnings } from '../../src/config.js';

const KEY = Buffer.alloc(32, 1).toString('base64');

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      databaseUrl: null,
      dataDir: './data',
      host: '127.0.0.1',
      port: 3000,
      publicBaseUrl: 'http://127.0.0.1:3000',
      bootstrapAdminToken: null,
      logLevel: 'info',
      shareKey: null,
      renderMaxEntries: 20_000,
      renderMaxBytes: 4 * 1024 * 1024,
      entryQuotaPerUser: 100_000,
      renderTimeLimitMs: 2_000,
      passcodeIterations: 600_000,
      corsOrigins: [],
      passwordScryptLogN: 16,
      overloadEventLoopDelayMs: 1_000,
      refusalDelayMs: 1_000,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db:5432/chronicle',
      DATA_DIR: '/var/lib/chronicle',
      HOST: '0.0.0.0',
      PORT: '8080',
      PUBLIC_BASE_URL: 'https://reports.example.com/',
      BOOTSTRAP_ADMIN_TOKEN: 'b'.repeat(32),
      LOG_LEVEL: 'debug',
      SHARE_KEY: KEY,
      RENDER_MAX_ENTRIES: '50000',
      RENDER_MAX_BYTES: '8388608',
      ENTRY_QUOTA_PER_USER: '5000',
      PASSCODE_PBKDF2_ITERATIONS: '1000000',
      CORS_ORIGINS: 'https://app.example.com, http://localhost:5173/',
      PASSWORD_SCRYPT_LOG_N: '17',
      OVERLOAD_EVENT_LOOP_DELAY_MS: '250',
      REFUSAL_DELAY_MS: '0',
    });
    expect(config).toMatchObject({
      databaseUrl: 'postgres://u@db:5432/chronicle',
      port: 8080,
      publicBaseUrl: 'https://reports.example.com',
      logLevel: 'debug',
      renderMaxEntries: 50_000,
      renderMaxBytes: 8_388_608,
      entryQuotaPerUser: 5_000,
      passcodeIterations: 1_000_000,
      corsOrigins: ['https://app.example.com', 'http://localhost:5173'],
      passwordScryptLogN: 17,
      overloadEventLoopDelayMs: 250,
      refusalDelayMs: 0,
    });
    expect(config.shareKey?.length).toBe(32);
  });

  it('reads METRICS_TOKEN, unset by default', () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: 'scrape-secret-0123456789' }).metricsToken).toBe('scrape-secret-0123456789');
  });

  it('turns the overload check off with OVERLOAD_EVENT_LOOP_DELAY_MS=0', () => {
    expect(loadConfig({ OVERLOAD_EVENT_LOOP_DELAY_MS: '0' }).overloadEventLoopDelayMs).toBe(0);
  });

  it('does not need the share key just to migrate', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://x@y/z' }, 'migrate').databaseUrl).toBe('postgres://x@y/z');
  });

  it.each([
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: 'abc' }, 'PORT'],
    [{ PASSWORD_SCRYPT_LOG_N: '12' }, 'PASSWORD_SCRYPT_LOG_N'],
    [{ PASSWORD_SCRYPT_LOG_N: '21' }, 'PASSWORD_SCRYPT_LOG_N'],
    [{ PORT: '-1' }, 'PORT'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'mysql://x@y/z', SHARE_KEY: KEY }, 'DATABASE_URL'],
    [{ BOOTSTRAP_ADMIN_TOKEN: 'short' }, 'BOOTSTRAP_ADMIN_TOKEN'],
    [{ BOOTSTRAP_ADMIN_TOKEN: 'x'.repeat(257) }, 'BOOTSTRAP_ADMIN_TOKEN'],
    [{ BOOTSTRAP_ADMIN_TOKEN: 'pass phrase with spaces is 32 chars long!' }, 'BOOTSTRAP_ADMIN_TOKEN'],
    [{ BOOTSTRAP_ADMIN_TOKEN: 'x'.repeat(31) + '#' }, 'BOOTSTRAP_ADMIN_TOKEN'],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, 'PUBLIC_BASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ SHARE_KEY: 'too-short' }, 'SHARE_KEY'],
    [{ DATABASE_URL: 'postgres://x@y/z' }, 'SHARE_KEY'],
    [{ RENDER_MAX_ENTRIES: '0' }, 'RENDER_MAX_ENTRIES'],
    [{ RENDER_MAX_ENTRIES: '1e5' }, 'RENDER_MAX_ENTRIES'],
    [{ RENDER_MAX_BYTES: '1023' }, 'RENDER_MAX_BYTES'],
    [{ RENDER_MAX_BYTES: '16MiB' }, 'RENDER_MAX_BYTES'],
    [{ ENTRY_QUOTA_PER_USER: '0' }, 'ENTRY_QUOTA_PER_USER'],
    [{ ENTRY_QUOTA_PER_USER: '-5' }, 'ENTRY_QUOTA_PER_USER'],
    [{ RENDER_TIME_LIMIT_MS: '50' }, 'RENDER_TIME_LIMIT_MS'],
    [{ PASSCODE_PBKDF2_ITERATIONS: '99999' }, 'PASSCODE_PBKDF2_ITERATIONS'],
    [{ CORS_ORIGINS: '*' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://app.example.com/path' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'ftp://files.example.com' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://a.example.com,,https://b.example.com' }, 'CORS_ORIGINS'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
    [{ OVERLOAD_EVENT_LOOP_DELAY_MS: '10' }, 'OVERLOAD_EVENT_LOOP_DELAY_MS'],
    [{ OVERLOAD_EVENT_LOOP_DELAY_MS: '60001' }, 'OVERLOAD_EVENT_LOOP_DELAY_MS'],
    [{ OVERLOAD_EVENT_LOOP_DELAY_MS: '-1' }, 'OVERLOAD_EVENT_LOOP_DELAY_MS'],
    [{ REFUSAL_DELAY_MS: '10001' }, 'REFUSAL_DELAY_MS'],
    [{ REFUSAL_DELAY_MS: '-1' }, 'REFUSAL_DELAY_MS'],
    [{ METRICS_TOKEN: 'has spaces in it, 16+ chars' }, 'METRICS_TOKEN'],
  ])('refuses %j naming %s in one line', (env, variable) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as ConfigError).message).toContain(variable);
    expect((error as ConfigError).message).not.toContain('\n');
  });
});

describe('startupWarnings', () => {
  it('warns once when share URLs would point at a wildcard address', () => {
    const env = { HOST: '0.0.0.0' };
    const warnings = startupWarnings(loadConfig(env), env);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('PUBLIC_BASE_URL');
    expect(warnings[0]).toContain('http://0.0.0.0:3000');
  });

  it('stays quiet with PUBLIC_BASE_URL set, or on a specific address', () => {
    const env = { HOST: '0.0.0.0', PUBLIC_BASE_URL: 'https://reports.example.com' };
    expect(startupWarnings(loadConfig(env), env)).toEqual([]);
    expect(startupWarnings(loadConfig({}), {})).toEqual([]);
  });
});
