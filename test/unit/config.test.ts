import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, configFrom, loadConfig, SETTINGS, startupWarnings, type Config } from '../../src/config.js';

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
      SCHEDULE_TICK_SECONDS: '60',
      JOB_POLL_SECONDS: '0.5',
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
      scheduleTickSeconds: 60,
      jobPollSeconds: 0.5,
    });
    expect(config.shareKey?.length).toBe(32);
  });

  it('reads a decimal number, up to its maximum, and says which numbers it takes', () => {
    expect(loadConfig({ JOB_POLL_SECONDS: '600' }).jobPollSeconds).toBe(600);
    expect(loadConfig({ JOB_POLL_SECONDS: '2.25' }).jobPollSeconds).toBe(2.25);
    expect(() => loadConfig({ JOB_POLL_SECONDS: 'soon' })).toThrow('JOB_POLL_SECONDS must be a number from 0.5 to 600 (got "soon")');
  });

  it('reads METRICS_TOKEN, unset by default', () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: 'scrape-secret-0123456789' }).metricsToken).toBe('scrape-secret-0123456789');
  });

  it('turns the overload check off with OVERLOAD_EVENT_LOOP_DELAY_MS=0', () => {
    expect(loadConfig({ OVERLOAD_EVENT_LOOP_DELAY_MS: '0' }).overloadEventLoopDelayMs).toBe(0);
  });

  it('takes a PostgreSQL URL naming a Unix socket directory (docs/deployment.md)', () => {
    const url = 'postgresql://chronicle@localhost/chronicle?host=/var/run/postgresql';
    expect(loadConfig({ DATABASE_URL: url, SHARE_KEY: KEY }).databaseUrl).toBe(url);
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
    [{ JOB_POLL_SECONDS: '0.4' }, 'JOB_POLL_SECONDS'],
    [{ JOB_POLL_SECONDS: '601' }, 'JOB_POLL_SECONDS'],
    [{ JOB_POLL_SECONDS: '1e2' }, 'JOB_POLL_SECONDS'],
    [{ JOB_POLL_SECONDS: '.5' }, 'JOB_POLL_SECONDS'],
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

function refusal(build: () => Config): ConfigError {
  try {
    build();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('configFrom', () => {
  it('gives what loadConfig gives for the same settings, unset ones at their defaults', () => {
    expect(configFrom({})).toEqual(loadConfig({}));
    const env = { HOST: '::1', PORT: '8080', TRUST_PROXY: '10.0.0.0/8', CORS_ORIGINS: 'https://app.example.com/' };
    const typed = { host: '::1', port: 8080, trustProxy: '10.0.0.0/8', corsOrigins: ['https://app.example.com/'] };
    expect(configFrom(typed)).toEqual(loadConfig(env));
    expect(configFrom(typed).publicBaseUrl).toBe('http://[::1]:8080');
    expect(Object.isFrozen(configFrom({}))).toBe(true);
  });

  it('normalises as loadConfig does', () => {
    const config = configFrom({ publicBaseUrl: 'https://reports.example.com//', corsOrigins: ['http://localhost:5173/'] });
    expect(config.publicBaseUrl).toBe('https://reports.example.com');
    expect(config.corsOrigins).toEqual(['http://localhost:5173']);
  });

  it.each([
    [{ port: 70_000 }, 'PORT'],
    [{ port: 1.5 }, 'PORT'],
    [{ renderMaxEntries: 0 }, 'RENDER_MAX_ENTRIES'],
    [{ passcodeIterations: 1_000 }, 'PASSCODE_PBKDF2_ITERATIONS'],
    [{ passwordScryptLogN: 10 }, 'PASSWORD_SCRYPT_LOG_N'],
    [{ overloadEventLoopDelayMs: 10 }, 'OVERLOAD_EVENT_LOOP_DELAY_MS'],
    [{ metricsToken: 'short' }, 'METRICS_TOKEN'],
    [{ bootstrapAdminToken: 'x'.repeat(31) + '#' }, 'BOOTSTRAP_ADMIN_TOKEN'],
    [{ publicBaseUrl: 'ftp://x' }, 'PUBLIC_BASE_URL'],
    [{ corsOrigins: ['https://app.example.com/path'] }, 'CORS_ORIGINS'],
    [{ trustProxy: 'anything' }, 'TRUST_PROXY'],
    [{ shareKey: Buffer.alloc(16) }, 'SHARE_KEY'],
    [{ databaseUrl: 'postgres://x@y/z' }, 'SHARE_KEY'],
    [{ logLevel: 'loud' as Config['logLevel'] }, 'LOG_LEVEL'],
  ])('refuses %j naming %s, as start-up would', (values, variable) => {
    const error = refusal(() => configFrom(values));
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(new RegExp(`^Invalid configuration: ${variable} \\S`));
  });

  it('keeps a secret out of the message', () => {
    expect(refusal(() => configFrom({ metricsToken: 'short-secret' })).message).not.toContain('short-secret');
    expect(refusal(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db/x' })).message).not.toContain('hunter2');
  });
});

/**
 * The README's configuration table, row by row: the variables a row names (one, or a few sharing
 * the row), its meaning, and its defaults (one per variable, in the same order).
 */
function readmeRows(): { variables: string[]; meaning: string; defaults: string[] }[] {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## Configuration'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| variable |')));
  return table
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [variables = '', meaning = '', defaults = ''] = line.slice(2, -2).split(' | ');
      const names = [...variables.matchAll(/`([A-Z0-9_]+)`/g)].map((match) => match[1] ?? '');
      return { variables: names, meaning, defaults: names.length > 1 ? defaults.split(', ') : [defaults] };
    });
}

/** How the README's default column starts for a setting: its default value, or "unset". */
function documentedDefault(value: unknown): string {
  const unset = value === undefined || value === null || value === false || (Array.isArray(value) && value.length === 0);
  return unset ? 'unset' : `\`${value as string | number}\``;
}

describe('the README configuration table', () => {
  const rows = readmeRows();
  const documented = new Map(rows.flatMap((row) => row.variables.map((variable, index) => [variable, { row, index }] as const)));

  it('lists every variable of the schema once, and nothing else', () => {
    const variables = rows.flatMap((row) => row.variables);
    expect(new Set(variables).size).toBe(variables.length);
    expect([...variables].sort()).toEqual(SETTINGS.map(([, schema]) => schema.env).sort());
  });

  it.each(SETTINGS.map(([, schema]) => [schema.env, schema] as const))('shows %s with its default and description', (variable, schema) => {
    const entry = documented.get(variable);
    expect(entry, `${variable} is not in the README's table`).toBeDefined();
    const { row, index } = entry!;
    expect(row.defaults).toHaveLength(row.variables.length);
    expect(row.defaults[index]?.startsWith(documentedDefault(schema.default)), `default of ${variable}: ${row.defaults[index]}`).toBe(true);
    expect(row.meaning).toBe(schema.description);
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
