/**
 * Configuration from the environment (docs/api.md "Configuration and start-up"), validated once at
 * start-up. One TypeBox schema gives every setting its variable, type, default, bounds and the
 * description the README's table shows (docs/decisions.md "Configuration from one schema").
 * A bad value stops start-up with one line naming the variable.
 */
import Type, { type Static, type TSchema, type TSchemaOptions } from 'typebox';
import Value from 'typebox/value';
import { parseShareKey } from './lib/secrets.js';

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
  }
}

// Named checks: the rules TypeBox's keywords cannot say, each with the reason a refusal gives.

/** Why `text` is not a URL with one of `protocols`, or null; never the URL itself (it may hold a password). */
function urlProblem(text: string, protocols: readonly string[]): string | null {
  if (!URL.canParse(text)) return 'is not a valid URL';
  const { protocol } = new URL(text);
  return protocols.includes(protocol) ? null : `must use one of ${protocols.join(' ')} (got ${protocol})`;
}

const Url = (protocols: readonly string[], options: TSchemaOptions = {}) =>
  Type.Refine(
    Type.String(options),
    (text) => urlProblem(text, protocols) === null,
    (text) => urlProblem(text, protocols) ?? '',
  );

/** Why `text` is not an origin (scheme, host and port, no path), or null. */
function originProblem(text: string): string | null {
  if (!URL.canParse(text)) return `must list origins such as https://app.example.com (got "${text}")`;
  const url = new URL(text);
  const origin = (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text.replace(/\/$/, '');
  return origin ? null : `must list origins: scheme, host and port only, such as https://app.example.com (got "${text}")`;
}

const Origin = Type.Refine(
  Type.String(),
  (text) => originProblem(text) === null,
  (text) => originProblem(text) ?? '',
);

/** RFC 6750 token68 characters: a token must be sendable as a bearer token. */
const BEARER_TOKEN_CHARS = /^[A-Za-z0-9._~+/=-]+$/;

const BearerToken = (minLength: number, maxLength: number) =>
  Type.Refine(
    Type.String({ minLength, maxLength }),
    (text) => BEARER_TOKEN_CHARS.test(text),
    () => 'may contain only letters, digits and - . _ ~ + / =',
  );

const ProxyList = Type.Refine(
  Type.String(),
  (text) => /^[0-9A-Fa-f.:/]+(\s*,\s*[0-9A-Fa-f.:/]+)*$/.test(text),
  (text) => `must be a comma-separated list of proxy addresses and CIDR ranges (got "${text}")`,
);

/** AES-256-GCM key; the environment gives it in base64 (`contentEncoding`). */
const ShareKey = Type.Refine(
  Type.Unsafe<Buffer>({ contentEncoding: 'base64' }),
  (key) => Buffer.isBuffer(key) && key.length === 32,
  () => 'must be 32 bytes, base64-encoded',
);

/**
 * Every setting, as the Config field it becomes, in the order start-up checks them. Each carries
 * `env` (its variable), `default`, its bounds as TypeBox keywords, and `description` (the README's
 * "meaning" column word for word; test/unit/config.test.ts holds the two together). `secret` keeps
 * a refused value out of the error message. No default, or `null`, `false` or `[]`, is "unset" in
 * the README.
 */
export const ConfigSchema = Type.Object({
  /** null selects the embedded PGlite database. */
  databaseUrl: Type.Union([Url(['postgres:', 'postgresql:']), Type.Null()], {
    env: 'DATABASE_URL',
    default: null,
    secret: true,
    description: 'PostgreSQL connection string (`postgres://…`)',
  }),
  /** null keeps PGlite in memory: tests only, no variable gives it. */
  dataDir: Type.Union([Type.String(), Type.Null()], {
    env: 'DATA_DIR',
    default: './data',
    description: 'where the embedded database (and its share key) lives',
  }),
  host: Type.String({ env: 'HOST', default: '127.0.0.1', description: 'listen address' }),
  port: Type.Integer({ env: 'PORT', default: 3000, minimum: 0, maximum: 65_535, description: 'listen address' }),
  /** Unset: the listening address (defaultPublicBaseUrl). Stored without a trailing slash. */
  publicBaseUrl: Url(['http:', 'https:'], { env: 'PUBLIC_BASE_URL', description: 'origin used to build share URLs' }),
  bootstrapAdminToken: Type.Union([BearerToken(32, 256), Type.Null()], {
    env: 'BOOTSTRAP_ADMIN_TOKEN',
    default: null,
    secret: true,
    description: 'a fixed admin token, 32-256 characters',
  }),
  logLevel: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    env: 'LOG_LEVEL',
    default: 'info',
    description: 'pino level (`fatal` … `trace`, `silent`)',
  }),
  /** null: generated once into DATA_DIR (embedded database only; see requireShareKey). */
  shareKey: Type.Union([ShareKey, Type.Null()], {
    env: 'SHARE_KEY',
    default: null,
    secret: true,
    description: '32 random bytes, base64 (`openssl rand -base64 32`): encrypts share tokens at rest',
  }),
  /** Six renders at the render bounds at once fit a 2-core server with 2 GB (docs/decisions.md "Render bounds"). */
  renderMaxEntries: Type.Integer({
    env: 'RENDER_MAX_ENTRIES',
    default: 20_000,
    minimum: 1,
    maximum: 1_000_000,
    description: 'most time entries one report may render (more is a 400)',
  }),
  renderMaxBytes: Type.Integer({
    env: 'RENDER_MAX_BYTES',
    default: 4 * 1024 * 1024,
    minimum: 1_024,
    maximum: 2_000_000_000,
    description: 'most bytes of entry descriptions and tags one report may render (more is a 400)',
  }),
  pdfFallbackFont: Type.String({
    env: 'PDF_FALLBACK_FONT',
    default: 'auto',
    minLength: 1,
    maxLength: 4_096,
    description:
      "TrueType or OpenType font files, comma-separated, for the characters the PDF's own font lacks (Chinese, Japanese, Korean); `auto` takes Droid Sans Fallback and Nanum Gothic where the system has them (Debian's fonts-droid-fallback, fonts-nanum), `none` uses none",
  }),
  pdfConcurrency: Type.Integer({
    env: 'PDF_CONCURRENCY',
    default: 1,
    minimum: 1,
    maximum: 16,
    description:
      'PDFs the process lays out at once; more wait while other renders go on (each holds its whole document in memory, about 220 MiB for 5,000 rows)',
  }),
  /** Decades of a busy day's entries. */
  entryQuotaPerUser: Type.Integer({
    env: 'ENTRY_QUOTA_PER_USER',
    default: 100_000,
    minimum: 1,
    maximum: 100_000_000,
    description: 'most time entries one user may have in one workspace (more is a 409)',
  }),
  renderTimeLimitMs: Type.Integer({
    env: 'RENDER_TIME_LIMIT_MS',
    default: 2_000,
    minimum: 100,
    maximum: 600_000,
    description: "a render's time limit before its allowance of 0.5 ms per entry",
  }),
  passcodeIterations: Type.Integer({
    env: 'PASSCODE_PBKDF2_ITERATIONS',
    default: 600_000,
    minimum: 100_000,
    maximum: 10_000_000,
    description: 'PBKDF2-SHA256 iterations for new share passcodes (100,000 or more)',
  }),
  /** Stored as `URL.origin`s (a trailing slash dropped). */
  corsOrigins: Type.Immutable(
    Type.Array(Origin, {
      env: 'CORS_ORIGINS',
      default: [],
      description:
        'comma-separated browser origins (`https://app.example.com`) allowed to call the API from another origin with a bearer token',
    }),
  ),
  /** null leaves /metrics open. */
  metricsToken: Type.Union([BearerToken(16, 256), Type.Null()], {
    env: 'METRICS_TOKEN',
    default: null,
    secret: true,
    description: 'a bearer token (16-256 characters) that `GET /metrics` then requires',
  }),
  apiRateLimit: Type.Integer({
    env: 'API_RATE_LIMIT',
    default: 1_200,
    minimum: 0,
    maximum: 1_000_000,
    description:
      'request units per minute per user, shared by all their API tokens and sessions (a read 1, a write 3, a render, version diff or share mint 10; every 32 KiB of a request body, and of what a render or diff read and made, one more); `0` is off',
  }),
  renderUserConcurrency: Type.Integer({
    env: 'RENDER_USER_CONCURRENCY',
    default: 2,
    minimum: 1,
    maximum: 64,
    description: 'renders one user may have running at once',
  }),
  renderUserQueue: Type.Integer({
    env: 'RENDER_USER_QUEUE',
    default: 4,
    minimum: 0,
    maximum: 1_000,
    description: 'renders of one user that may wait beyond those running (more: 429)',
  }),
  renderQueueMax: Type.Integer({
    env: 'RENDER_QUEUE_MAX',
    default: 32,
    minimum: 0,
    maximum: 10_000,
    description: 'renders waiting in the process, all users together (more: 503)',
  }),
  scheduleTickSeconds: Type.Integer({
    env: 'SCHEDULE_TICK_SECONDS',
    default: 30,
    minimum: 1,
    maximum: 3_600,
    description: 'how often each process looks for due scheduled runs (a run starts at most this late)',
  }),
  jobPollSeconds: Type.Number({
    env: 'JOB_POLL_SECONDS',
    default: 2,
    minimum: 0.5,
    maximum: 600,
    description:
      'how often each process asks the job queue for work (one cheap query per poll); a job the process queues itself starts at once',
  }),
  embeddedUpkeepSeconds: Type.Integer({
    env: 'EMBEDDED_UPKEEP_SECONDS',
    default: 60,
    minimum: 0,
    maximum: 86_400,
    description:
      "how often the embedded database (no DATABASE_URL) vacuums and analyses the tables PostgreSQL's autovacuum thresholds say are due, and takes a checkpoint when its checkpointer would; 0 turns it off",
  }),
  jobWorker: Type.Boolean({
    env: 'JOB_WORKER',
    default: true,
    description:
      '`false`: this process answers requests and queues jobs (schedule runs, mail, webhooks) but works none; processes on the same database with `true` work them',
  }),
  discussionMaxComments: Type.Integer({
    env: 'DISCUSSION_MAX_COMMENTS',
    default: 5_000,
    minimum: 1,
    maximum: 1_000_000,
    description: "most comments one version's discussion may hold (more: 409)",
  }),
  statementTimeoutMs: Type.Integer({
    env: 'DATABASE_STATEMENT_TIMEOUT_MS',
    default: 30_000,
    minimum: 0,
    maximum: 3_600_000,
    description: 'PostgreSQL `statement_timeout` of every connection; `0` is off',
  }),
  requestTimeoutMs: Type.Integer({
    env: 'REQUEST_TIMEOUT_MS',
    default: 30_000,
    minimum: 1_000,
    maximum: 3_600_000,
    description: 'time a client has to send a whole request (headers within 10 s)',
  }),
  /** false believes no proxy; otherwise the list as Fastify's `trustProxy` takes it. */
  trustProxy: Type.Union([Type.Literal(false), ProxyList], {
    env: 'TRUST_PROXY',
    default: false,
    description: 'comma-separated addresses or CIDR ranges of the proxies whose `X-Forwarded-For` names the client',
  }),
  passwordScryptLogN: Type.Integer({
    env: 'PASSWORD_SCRYPT_LOG_N',
    default: 16,
    minimum: 14,
    maximum: 20,
    description: "log2 of scrypt's cost N for new passwords (14 to 20; memory is 2^N × 1 KiB)",
  }),
  overloadEventLoopDelayMs: Type.Union([Type.Literal(0, { description: 'off' }), Type.Integer({ minimum: 50, maximum: 60_000 })], {
    env: 'OVERLOAD_EVENT_LOOP_DELAY_MS',
    default: 1_000,
    description:
      'event-loop delay past which new requests get 503 with `Retry-After` and `/readyz` says `overloaded`; `0` turns it off (50 to 60000)',
  }),
  refusalDelayMs: Type.Integer({
    env: 'REFUSAL_DELAY_MS',
    default: 1_000,
    minimum: 0,
    maximum: 10_000,
    description:
      'how long a rate-limit refusal (429) is held before it is answered, so a client that ignores `Retry-After` gets few refusals a second; `0` answers at once (0 to 10000)',
  }),
  /** null: no SMTP; every message is kept in the outbox instance admins read (delivery.md §3). */
  smtpUrl: Type.Union([Url(['smtp:', 'smtps:']), Type.Null()], {
    env: 'SMTP_URL',
    default: null,
    secret: true,
    description:
      'where mail is sent, `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`; unset: mail is kept in the outbox (`GET /api/v1/admin/outbox`)',
  }),
  mailFrom: Type.String({
    env: 'MAIL_FROM',
    default: 'Chronicle <chronicle@localhost>',
    minLength: 3,
    maxLength: 320,
    description: 'the From of every mail, `Name <address>`',
  }),
  webhookAllowHttp: Type.Boolean({
    env: 'WEBHOOK_ALLOW_HTTP',
    default: false,
    description: '`true` lets webhooks use plain `http://` URLs as well as `https://`',
  }),
  /** Loopback, private and link-local addresses (docs/api.md "Webhooks"): for tests and closed networks. */
  webhookAllowPrivate: Type.Boolean({
    env: 'WEBHOOK_ALLOW_PRIVATE',
    default: false,
    description: '`true` lets webhooks reach loopback, private and link-local addresses',
  }),
});

export type Config = Readonly<Static<typeof ConfigSchema>>;
export type ConfigField = keyof Config;

/** What every setting's schema carries besides its type (see ConfigSchema). */
export interface Setting {
  readonly env: string;
  readonly description: string;
  readonly default?: unknown;
  readonly secret?: true;
}

/** Each field's schema with its annotations, in the schema's order (the order variables are checked in). */
export const SETTINGS = Object.entries(ConfigSchema.properties) as unknown as [ConfigField, TSchema & Setting][];

/** Who the configuration is for: `migrate` skips what only a serving process needs (the share key). */
export type Purpose = 'serve' | 'migrate';

/**
 * Reads and validates the environment; throws ConfigError naming the first bad variable. An empty
 * or blank variable counts as unset.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, purpose: Purpose = 'serve'): Config {
  const values: Partial<Record<ConfigField, unknown>> = {};
  const texts = new Map<ConfigField, string>();
  for (const [field, schema] of SETTINGS) {
    const text = env[schema.env]?.trim();
    if (text === undefined || text === '') continue;
    texts.set(field, text);
    values[field] = fromText(schema, text);
  }
  return validate(values, purpose, texts);
}

/**
 * A Config from typed values, every unset field at its default, validated by the same schema and
 * checks as loadConfig: a caller (a test) cannot build a Config that start-up would refuse.
 */
export function configFrom(values: Partial<Config>, purpose: Purpose = 'serve'): Config {
  return validate(values, purpose, new Map());
}

/** The one path to a Config: defaults, the schema's checks in order, the cross-variable rules, normal forms. */
function validate(given: Partial<Record<ConfigField, unknown>>, purpose: Purpose, texts: ReadonlyMap<ConfigField, string>): Config {
  const merged: Record<string, unknown> = { ...(Value.Default(ConfigSchema, {}) as object), ...stripUndefined(given) };
  merged.publicBaseUrl ??= defaultPublicBaseUrl(merged.host, merged.port);
  const values: Record<string, unknown> = {};
  for (const [field, schema] of SETTINGS) {
    const value = merged[field];
    if (!Value.Check(schema, value)) throw new ConfigError(schema.env, refusal(schema, value, shown(schema, value, texts.get(field))));
    values[field] = value;
  }
  const config = values as Static<typeof ConfigSchema>;
  if (purpose === 'serve') requireShareKey(config);
  return Object.freeze({
    ...config,
    publicBaseUrl: config.publicBaseUrl.replace(/\/+$/, ''),
    corsOrigins: config.corsOrigins.map((origin) => new URL(origin).origin),
  });
}

/** A refused value as its message shows it: the text given, or only the length of a secret. */
function shown(schema: Setting, value: unknown, text: string | undefined): string | null {
  if (schema.secret) return typeof value === 'string' ? `${value.length} characters` : null;
  return `"${text ?? String(value)}"`;
}

/** Every process behind a load balancer must decrypt the same tokens, so with PostgreSQL no key may be invented. */
function requireShareKey(config: Static<typeof ConfigSchema>): void {
  if (config.databaseUrl !== null && config.shareKey === null) {
    throw new ConfigError('SHARE_KEY', 'is required with DATABASE_URL (32 random bytes, base64: openssl rand -base64 32)');
  }
}

/** PUBLIC_BASE_URL when unset: the listening address, an IPv6 host in brackets. */
function defaultPublicBaseUrl(host: unknown, port: unknown): string {
  const text = String(host);
  return `http://${text.includes(':') ? `[${text}]` : text}:${String(port)}`;
}

/**
 * A variable's text as a value of its schema: `true` or `false` for booleans, digits for integers
 * (and a decimal point for numbers), a comma-separated list for
 * arrays, base64 for the share key's bytes. Text that does not convert is kept as it is, for the
 * schema to refuse with its reason.
 */
function fromText(schema: TSchema, text: string): unknown {
  if (admits(schema, Type.IsBoolean)) return text === 'true' ? true : text === 'false' ? false : text;
  if (admits(schema, Type.IsInteger)) return /^\d{1,10}$/.test(text) ? Number(text) : text;
  if (admits(schema, Type.IsNumber)) return /^\d{1,10}(?:\.\d{1,6})?$/.test(text) ? Number(text) : text;
  if (admits(schema, Type.IsArray)) return text.split(',').map((item) => item.trim());
  if (admits(schema, (member) => (member as { contentEncoding?: string }).contentEncoding === 'base64')) {
    try {
      return parseShareKey(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** Whether `schema`, or one member of it as a union, passes `test`. */
function admits(schema: TSchema, test: (member: TSchema) => boolean): boolean {
  return test(schema) || (Type.IsUnion(schema) && schema.anyOf.some((member) => admits(member, test)));
}

/** Why `value` fails `schema`: a named check's own reason, else what the keywords allow. */
function refusal(schema: TSchema, value: unknown, shown: string | null): string {
  const named = Value.Errors(schema, value).find((error) => error.keyword === '~refine');
  if (named) return named.message;
  return `must be ${allowed(schema)}${shown === null ? '' : ` (got ${shown})`}`;
}

/** The keywords `allowed` reads; TypeBox keeps them on the schema object. */
interface Keywords {
  readonly description?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
}

/** The values `schema` allows, in words: "an integer from 1 to 64", "one of fatal, error". */
function allowed(schema: TSchema): string {
  const keywords = schema as Keywords;
  if (Type.IsEnum(schema)) return `one of ${schema.enum.join(', ')}`;
  if (Type.IsUnion(schema)) {
    const members = schema.anyOf.filter((member) => !Type.IsNull(member));
    return members.map(allowed).join(' or ');
  }
  if (Type.IsLiteral(schema)) return keywords.description ? `${String(schema.const)} (${keywords.description})` : String(schema.const);
  if (Type.IsInteger(schema)) return `an integer from ${keywords.minimum} to ${keywords.maximum}`;
  if (Type.IsNumber(schema)) return `a number from ${keywords.minimum} to ${keywords.maximum}`;
  if (Type.IsString(schema) && keywords.minLength !== undefined) return `${keywords.minLength} to ${keywords.maxLength} characters`;
  if (Type.IsString(schema)) return 'text';
  if (Type.IsArray(schema)) return 'a list';
  if (Type.IsBoolean(schema)) return 'true or false';
  return 'valid';
}

function stripUndefined(values: Partial<Record<ConfigField, unknown>>): Partial<Record<ConfigField, unknown>> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
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
