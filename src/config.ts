/**
 * Configuration from the environment (docs/api.md "Configuration and start-up"), validated once at start-up.
 * A bad value stops start-up with one line naming the variable.
 */
import { parseShareKey } from './lib/secrets.js';

export interface Config {
  /** PostgreSQL connection string; null selects the embedded PGlite database. */
  readonly databaseUrl: string | null;
  /** Where PGlite keeps its files; null keeps it in memory (tests only). */
  readonly dataDir: string | null;
  readonly host: string;
  readonly port: number;
  readonly publicBaseUrl: string;
  readonly bootstrapAdminToken: string | null;
  readonly logLevel: string;
  /** AES-256-GCM key for share tokens at rest; null means "generate once into DATA_DIR". */
  readonly shareKey: Buffer | null;
  /** Most time entries one report render may take (RENDER_MAX_ENTRIES). */
  readonly renderMaxEntries: number;
  /** Most bytes of entry descriptions and tags one report render may read (RENDER_MAX_BYTES). */
  readonly renderMaxBytes: number;
  /** Time entries one user may have in one workspace (ENTRY_QUOTA_PER_USER). */
  readonly entryQuotaPerUser: number;
  /** A render's time limit before its allowance per entry, in ms (RENDER_TIME_LIMIT_MS). */
  readonly renderTimeLimitMs: number;
  /** PBKDF2 iterations for new share passcodes (PASSCODE_PBKDF2_ITERATIONS); tests pass a low count. */
  readonly passcodeIterations: number;
  /** Browser origins allowed to call the API across origins (CORS_ORIGINS); empty allows none. */
  readonly corsOrigins: readonly string[];
  /** Bearer token GET /metrics requires (METRICS_TOKEN); null leaves /metrics open. */
  readonly metricsToken: string | null;
  /** Request units per minute per user, all their tokens and sessions together (API_RATE_LIMIT); 0 turns the limit off. */
  readonly apiRateLimit: number;
  /** Renders one user may have running at once (RENDER_USER_CONCURRENCY). */
  readonly renderUserConcurrency: number;
  /** Renders one user may have waiting beyond those; more is a 429 (RENDER_USER_QUEUE). */
  readonly renderUserQueue: number;
  /** Renders waiting in the whole process; more is a 503 (RENDER_QUEUE_MAX). */
  readonly renderQueueMax: number;
  /** Most comments one content version may hold; more is a 409 (DISCUSSION_MAX_COMMENTS). */
  readonly discussionMaxComments: number;
  /** PostgreSQL statement_timeout of every connection, in ms (DATABASE_STATEMENT_TIMEOUT_MS); 0 is off. */
  readonly statementTimeoutMs: number;
  /** Time a client has to send a whole request, headers and body, in ms (REQUEST_TIMEOUT_MS). */
  readonly requestTimeoutMs: number;
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (TRUST_PROXY): false (none,
   * the default) or a comma-separated list of the proxies' addresses and CIDR ranges.
   */
  readonly trustProxy: false | string;
  /** log2 of scrypt's cost N for new passwords (PASSWORD_SCRYPT_LOG_N); tests pass a low value. */
  readonly passwordScryptLogN: number;
  /**
   * Event-loop delay above which new requests are refused with 503 (OVERLOAD_EVENT_LOOP_DELAY_MS);
   * 0 turns the check off.
   */
  readonly overloadEventLoopDelayMs: number;
  /** How long a rate-limit refusal (429) is held before it is answered, in ms (REFUSAL_DELAY_MS); 0 answers at once. */
  readonly refusalDelayMs: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
  }
}

/**
 * The render bounds' defaults: six renders at these bounds at once fit a 2-core server with 2 GB
 * (measured in docs/decisions.md "Render bounds").
 */
export const DEFAULT_RENDER_MAX_ENTRIES = 20_000;
export const DEFAULT_RENDER_MAX_BYTES = 4 * 1024 * 1024;
/** Time entries one user may keep in one workspace: decades of a busy day's entries. */
export const DEFAULT_ENTRY_QUOTA_PER_USER = 100_000;

const BEARER_TOKEN_CHARS = /^[A-Za-z0-9._~+/=-]+$/;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parseUrl(variable: string, value: string, protocols: string[]): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(variable, 'is not a valid URL');
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(variable, `must use one of ${protocols.join(' ')} (got ${url.protocol})`);
  }
  return value;
}

/** An integer variable within [min, max], or its default when unset. */
function integerSetting(read: (name: string) => string | undefined, name: string, fallback: number, min: number, max: number): number {
  const text = read(name);
  if (text === undefined) return fallback;
  const value = /^\d{1,10}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max)) throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${text}")`);
  return value;
}

/**
 * Reads and validates the environment; throws ConfigError naming the first bad variable.
 * `purpose: 'migrate'` skips what only a serving process needs (the share key).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, purpose: 'serve' | 'migrate' = 'serve'): Config {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

  const databaseUrl = read('DATABASE_URL');
  if (databaseUrl !== undefined) parseUrl('DATABASE_URL', databaseUrl, ['postgres:', 'postgresql:']);

  const host = read('HOST') ?? '127.0.0.1';
  const portText = read('PORT') ?? '3000';
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError('PORT', `must be an integer from 0 to 65535 (got "${portText}")`);
  }

  const publicBaseUrl = read('PUBLIC_BASE_URL') ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  parseUrl('PUBLIC_BASE_URL', publicBaseUrl, ['http:', 'https:']);

  const bootstrapAdminToken = read('BOOTSTRAP_ADMIN_TOKEN');
  if (bootstrapAdminToken !== undefined && (bootstrapAdminToken.length < 32 || bootstrapAdminToken.length > 256)) {
    throw new ConfigError('BOOTSTRAP_ADMIN_TOKEN', `must be 32 to 256 characters (got ${bootstrapAdminToken.length})`);
  }
  // It must also be sendable as a bearer token (RFC 6750 token68 characters).
  if (bootstrapAdminToken !== undefined && !BEARER_TOKEN_CHARS.test(bootstrapAdminToken)) {
    throw new ConfigError('BOOTSTRAP_ADMIN_TOKEN', 'may contain only letters, digits and - . _ ~ + / =');
  }

  const logLevel = read('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }

  const shareKeyText = read('SHARE_KEY');
  let shareKey: Buffer | null = null;
  if (shareKeyText !== undefined) {
    try {
      shareKey = parseShareKey(shareKeyText);
    } catch (error) {
      throw new ConfigError('SHARE_KEY', (error as Error).message);
    }
  } else if (databaseUrl !== undefined && purpose === 'serve') {
    // Every process behind a load balancer must decrypt the same tokens, so no key may be invented here.
    throw new ConfigError('SHARE_KEY', 'is required with DATABASE_URL (32 random bytes, base64: openssl rand -base64 32)');
  }

  const renderMaxEntries = integerSetting(read, 'RENDER_MAX_ENTRIES', DEFAULT_RENDER_MAX_ENTRIES, 1, 1_000_000);
  const renderMaxBytes = integerSetting(read, 'RENDER_MAX_BYTES', DEFAULT_RENDER_MAX_BYTES, 1_024, 2_000_000_000);
  const entryQuotaPerUser = integerSetting(read, 'ENTRY_QUOTA_PER_USER', DEFAULT_ENTRY_QUOTA_PER_USER, 1, 100_000_000);
  const renderTimeLimitMs = integerSetting(read, 'RENDER_TIME_LIMIT_MS', 2_000, 100, 600_000);

  const passcodeIterations = integerSetting(read, 'PASSCODE_PBKDF2_ITERATIONS', 600_000, 100_000, 10_000_000);
  const corsOrigins = parseOrigins(read('CORS_ORIGINS'));

  const metricsToken = read('METRICS_TOKEN');
  if (metricsToken !== undefined && (metricsToken.length < 16 || metricsToken.length > 256 || !BEARER_TOKEN_CHARS.test(metricsToken))) {
    throw new ConfigError('METRICS_TOKEN', 'must be 16 to 256 characters of letters, digits and - . _ ~ + / =');
  }

  const apiRateLimit = integerSetting(read, 'API_RATE_LIMIT', 1_200, 0, 1_000_000);
  const renderUserConcurrency = integerSetting(read, 'RENDER_USER_CONCURRENCY', 2, 1, 64);
  const renderUserQueue = integerSetting(read, 'RENDER_USER_QUEUE', 4, 0, 1_000);
  const renderQueueMax = integerSetting(read, 'RENDER_QUEUE_MAX', 32, 0, 10_000);
  const discussionMaxComments = integerSetting(read, 'DISCUSSION_MAX_COMMENTS', 5_000, 1, 1_000_000);
  const statementTimeoutMs = integerSetting(read, 'DATABASE_STATEMENT_TIMEOUT_MS', 30_000, 0, 3_600_000);
  const requestTimeoutMs = integerSetting(read, 'REQUEST_TIMEOUT_MS', 30_000, 1_000, 3_600_000);

  const trustProxyText = read('TRUST_PROXY');
  let trustProxy: false | string = false;
  if (trustProxyText !== undefined) {
    if (!/^[0-9A-Fa-f.:/]+(\s*,\s*[0-9A-Fa-f.:/]+)*$/.test(trustProxyText)) {
      throw new ConfigError('TRUST_PROXY', `must be a comma-separated list of proxy addresses and CIDR ranges (got "${trustProxyText}")`);
    }
    trustProxy = trustProxyText;
  }
  const passwordScryptLogN = integerSetting(read, 'PASSWORD_SCRYPT_LOG_N', 16, 14, 20);
  const overloadEventLoopDelayMs = integerSetting(read, 'OVERLOAD_EVENT_LOOP_DELAY_MS', 1_000, 0, 60_000);
  if (overloadEventLoopDelayMs > 0 && overloadEventLoopDelayMs < 50) {
    throw new ConfigError('OVERLOAD_EVENT_LOOP_DELAY_MS', `must be 0 (off) or from 50 to 60000 (got "${overloadEventLoopDelayMs}")`);
  }
  const refusalDelayMs = integerSetting(read, 'REFUSAL_DELAY_MS', 1_000, 0, 10_000);

  return Object.freeze({
    databaseUrl: databaseUrl ?? null,
    dataDir: read('DATA_DIR') ?? './data',
    host,
    port,
    publicBaseUrl: publicBaseUrl.replace(/\/+$/, ''),
    bootstrapAdminToken: bootstrapAdminToken ?? null,
    logLevel,
    shareKey,
    renderMaxEntries,
    renderMaxBytes,
    entryQuotaPerUser,
    renderTimeLimitMs,
    passcodeIterations,
    corsOrigins,
    metricsToken: metricsToken ?? null,
    apiRateLimit,
    renderUserConcurrency,
    renderUserQueue,
    renderQueueMax,
    discussionMaxComments,
    statementTimeoutMs,
    requestTimeoutMs,
    trustProxy,
    passwordScryptLogN,
    overloadEventLoopDelayMs,
    refusalDelayMs,
  });
}

/** CORS_ORIGINS: comma-separated origins such as `https://app.example.com` (scheme, host, port; no path). */
function parseOrigins(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value.split(',').map((item) => {
    const text = item.trim();
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new ConfigError('CORS_ORIGINS', `must list origins such as https://app.example.com (got "${text}")`);
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== text.replace(/\/$/, '')) {
      throw new ConfigError(
        'CORS_ORIGINS',
        `must list origins: scheme, host and port only, such as https://app.example.com (got "${text}")`,
      );
    }
    return url.origin;
  });
}

/**
 * Lines worth one warning at start-up: settings that are valid but will surprise. Share URLs point
 * at PUBLIC_BASE_URL, which defaults to the listening address: with HOST=0.0.0.0 that is no address
 * a reader can open.
 */
export function startupWarnings(config: Config, env: NodeJS.ProcessEnv = process.env): string[] {
  const warnings: string[] = [];
  const wildcard = config.host === '0.0.0.0' || config.host === '::' || config.host === '[::]';
  if (wildcard && !env.PUBLIC_BASE_URL?.trim()) {
    warnings.push(
      `HOST is ${config.host} and PUBLIC_BASE_URL is not set: share URLs will point at ${config.publicBaseUrl}. Set PUBLIC_BASE_URL to the address readers open.`,
    );
  }
  return warnings;
}
