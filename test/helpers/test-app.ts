/**
 * buildTestApp: a fresh Chronicle over this worker's (emptied) database, a pinnable clock, and
 * small factories that make data through the public API, as a client would.
 */
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { configFrom, type Config } from '../../src/config.js';
import type { Clock } from '../../src/lib/clock.js';
import type { Sleep } from '../../src/lib/refusal-delay.js';
import type { App } from '../../src/http/types.js';
import type { Database } from '../../src/db/database.js';
import type { ResolveHost } from '../../src/modules/webhooks/address-check.js';
import { createChronicleClient, unwrap, type ChronicleClient } from '../../packages/client/src/index.js';
import { createRenderPool, type RenderPool } from '../../src/render/render-pool.js';
import { resolveFallbackFonts } from '../../src/render/pdf/pdf-fonts.js';
import { resetDatabase, testDatabase } from './test-database.js';
import { perProcess } from './per-process.js';

export const ADMIN_TOKEN = 'test-bootstrap-admin-token-0123456789abcdef';

/** A clock tests can pin and move; unpinned it follows real time. */
class TestClock implements Clock {
  private pinned: Date | null = null;
  now(): Date {
    return this.pinned ? new Date(this.pinned) : new Date();
  }
  set(instant: string | Date): void {
    this.pinned = new Date(instant);
  }
  advance(ms: number): void {
    this.pinned = new Date(this.now().getTime() + ms);
  }
  reset(): void {
    this.pinned = null;
  }
}

/**
 * The test apps' settings where they differ from Chronicle's defaults; every other setting is the
 * default the server ships with.
 */
const TEST_SETTINGS: Partial<Config> = {
  // In memory: buildTestApp brings its own database, and an app without one must write no files.
  dataDir: null,
  port: 0,
  publicBaseUrl: 'http://chronicle.test',
  bootstrapAdminToken: ADMIN_TOKEN,
  logLevel: 'silent',
  shareKey: Buffer.alloc(32, 7),
  renderMaxEntries: 200_000,
  // A render's limit is wall-clock time, which a machine busy with other tests stretches; the
  // limit's own tests (report-rendering, template-engine, server) set a short one.
  renderTimeLimitMs: 60_000,
  // Off here so suites that make thousands of requests with one token are not limited; the rate
  // limit's own tests (test/api/abuse-rate-limit.test.ts) and test/api/statements.test.ts turn it on.
  apiRateLimit: 0,
  // Off: a machine busy with other tests must not make requests 503; test/api/http.test.ts injects the pressure.
  overloadEventLoopDelayMs: 0,
  // Refusals answered at once; test/api/refusal-delay.test.ts holds them with an injected wait.
  refusalDelayMs: 0,
};

/**
 * Hashing costs below the server's floors (PASSCODE_PBKDF2_ITERATIONS 100,000 and
 * PASSWORD_SCRYPT_LOG_N 14, src/config.ts): hashing is tested at full cost in
 * test/unit/secrets.test.ts; elsewhere it only slows tests down. They are the only values of a test
 * app that start-up would refuse, and no test overrides them.
 */
const TEST_HASHING_COSTS = { passcodeIterations: 1_000, passwordScryptLogN: 10 } as const;

/** What a test may set: any setting but the hashing costs, validated as start-up validates it. */
export type TestConfigOverrides = Partial<Omit<Config, keyof typeof TEST_HASHING_COSTS>>;

/** A Config built by the server's own schema and checks (configFrom), from the test settings and `overrides`. */
export function testConfig(overrides: TestConfigOverrides = {}): Config {
  return Object.freeze({ ...configFrom({ ...TEST_SETTINGS, ...overrides }), ...TEST_HASHING_COSTS });
}

export interface Response<T = any> {
  status: number;
  headers: LightMyRequestResponse['headers'];
  body: T;
  text: string;
}

interface RequestOptions {
  token?: string | null;
  body?: unknown;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  /** A raw payload sent as-is (with its own content-type header). */
  raw?: string | Buffer;
}

export interface TestContext {
  app: App;
  database: Database;
  clock: TestClock;
  request<T = any>(method: string, url: string, options?: RequestOptions): Promise<Response<T>>;
  /** Shorthands that send the given token (default: the bootstrap admin's). */
  get<T = any>(url: string, token?: string | null, query?: RequestOptions['query']): Promise<Response<T>>;
  post<T = any>(url: string, body?: unknown, token?: string | null): Promise<Response<T>>;
  patch<T = any>(url: string, body?: unknown, token?: string | null): Promise<Response<T>>;
  put<T = any>(url: string, body?: unknown, token?: string | null): Promise<Response<T>>;
  del<T = any>(url: string, token?: string | null): Promise<Response<T>>;
  /**
   * Chronicle's typed client (packages/client) talking to this app in process, as `token` (the
   * bootstrap admin's by default; null sends none). Requests and answers are checked against the
   * OpenAPI document's types at compile time; hostile or malformed input goes through `request`.
   */
  client(token?: string | null): ChronicleClient;
  close(): Promise<void>;
}

/**
 * `jobs` starts the job engine and the schedule ticker as a server does; without it (the default)
 * a test drives schedules through `app.chronicle.scheduler` with the pinned clock. `resolveHost`
 * answers for webhook host names, so no test asks a real resolver.
 */
export async function buildTestApp(
  options: { config?: TestConfigOverrides; refusalSleep?: Sleep; jobs?: boolean; resolveHost?: ResolveHost } = {},
): Promise<TestContext> {
  const database = await testDatabase();
  await resetDatabase(database);
  return startApp(database, new TestClock(), options.config, options.refusalSleep, options.jobs, options.resolveHost);
}

/**
 * A second Chronicle on the same database and clock, as another process behind a load balancer
 * would be: it shares nothing in memory with `t`. Close it before `t`. `database` may be another
 * connection to the same database (test-database.ts `peerDatabase`).
 */
export function buildPeerApp(
  t: TestContext,
  config: TestConfigOverrides = {},
  database: Database = t.database,
  jobs = false,
): Promise<TestContext> {
  return startApp(database, t.clock, config, undefined, jobs);
}

/** What a test app resolves webhook host names with unless the test injects a resolver: nothing. */
const noResolver: ResolveHost = (host) => Promise.reject(new Error(`no resolver in tests (${host})`));

/**
 * The render workers of this test process for a fallback-font and PDF-concurrency setting, shared by every app it
 * builds, as its database is: a worker costs about half a second of CPU to start, and a pool
 * keeps no state between jobs. Never closed: its workers are unreferenced and end with the process.
 * Tests of the pool itself (test/unit/render-pool.test.ts) make their own.
 */
function sharedRenderPool(config: Config): RenderPool {
  const pools = perProcess('testRenderPools', () => new Map<string, RenderPool>());
  const key = `${config.pdfConcurrency} ${config.pdfFallbackFont}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = createRenderPool({ pdfFallbackFonts: resolveFallbackFonts(config.pdfFallbackFont), pdfSlots: config.pdfConcurrency });
    pools.set(key, pool);
  }
  return pool;
}

async function startApp(
  database: Database,
  clock: TestClock,
  config: TestConfigOverrides = {},
  refusalSleep?: Sleep,
  jobs = false,
  resolveHost?: ResolveHost,
): Promise<TestContext> {
  // TEST_LOG=debug shows the service's log lines while debugging a test (configFrom checks the level).
  const logLevel = process.env.TEST_LOG as Config['logLevel'] | undefined;
  const settings = testConfig({ ...(logLevel ? { logLevel } : {}), ...config });
  const app = await buildApp({
    config: settings,
    renderPool: sharedRenderPool(settings),
    database,
    clock,
    logger: Boolean(logLevel),
    jobs,
    ...(refusalSleep ? { refusalSleep } : {}),
    // No test asks a real resolver: names resolve only where a test injects an answer.
    resolveHost: resolveHost ?? noResolver,
  });

  const request = async (method: string, url: string, opts: RequestOptions = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? ADMIN_TOKEN : opts.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: string | Buffer | undefined = opts.raw;
    if (payload === undefined && opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(opts.query ? { query: Object.fromEntries(Object.entries(opts.query).map(([k, v]) => [k, String(v)])) } : {}),
      ...(payload !== undefined ? { payload } : {}),
    });
    const type = String(res.headers['content-type'] ?? '');
    return {
      status: res.statusCode,
      headers: res.headers,
      text: res.body,
      body: type.includes('json') && res.body ? JSON.parse(res.body) : res.body,
    };
  };

  return {
    app,
    database,
    clock,
    request,
    get: (url, token, query) => request('GET', url, { token, ...(query ? { query } : {}) }),
    post: (url, body, token) => request('POST', url, { token, body }),
    patch: (url, body, token) => request('PATCH', url, { token, body }),
    put: (url, body, token) => request('PUT', url, { token, body }),
    del: (url, token) => request('DELETE', url, { token }),
    client: (token) => {
      const bearer = token === undefined ? ADMIN_TOKEN : token;
      return createChronicleClient({ baseUrl: 'http://chronicle.test', fetch: injectFetch(app), ...(bearer ? { token: bearer } : {}) });
    },
    close: () => app.close(),
  };
}

/** A fetch answered by `app.inject`: the typed client's requests reach the app without a socket. */
function injectFetch(app: App): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const payload = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const res = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      ...(payload ? { payload } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      for (const one of [value ?? []].flat()) headers.append(name, String(one));
    }
    const empty = res.statusCode === 204 || res.statusCode === 304 || request.method === 'HEAD';
    return new globalThis.Response(empty ? null : res.rawPayload, { status: res.statusCode, headers });
  };
}

let counter = 0;

export interface TestUser {
  id: string;
  name: string;
  email: string;
  token: string;
}

/** A user with a read+write token, made through the API by the bootstrap admin. */
export async function newUser(
  t: TestContext,
  fields: { name?: string; timezone?: string; locale?: string; instanceAdmin?: boolean; imageUrl?: string | null } = {},
): Promise<TestUser> {
  counter += 1;
  const name = fields.name ?? `User ${counter}`;
  const email = `user${counter}-${Date.now().toString(36)}@example.com`;
  const admin = t.client();
  const created = await unwrap(admin.POST('/api/v1/users', { body: { name, email, ...fields } }));
  const token = await unwrap(
    admin.POST('/api/v1/users/{id}/tokens', { params: { path: { id: created.id } }, body: { scopes: ['read', 'write'] } }),
  );
  return { id: created.id, name, email, token: token.token };
}

/** The first item of a list an assertion needs to be there (fails the test when the list is empty). */
export function first<T>(items: readonly T[]): T {
  const [item] = items;
  if (item === undefined) throw new Error('expected at least one item, got none');
  return item;
}

/** Asserts a problem+json response and returns its body. */
export function expectProblem(
  res: Response,
  status: number,
): { type: string; title: string; status: number; detail: string; errors?: { path: string; message: string }[] } {
  if (res.status !== status || !String(res.headers['content-type']).startsWith('application/problem+json')) {
    throw new Error(`expected problem ${status}, got ${res.status} ${res.headers['content-type']}: ${res.text.slice(0, 500)}`);
  }
  return res.body;
}

/** A second token of `user` with the read scope only. */
export async function readOnlyToken(t: TestContext, user: { id: string; token: string }): Promise<string> {
  const made = await unwrap(
    t.client(user.token).POST('/api/v1/users/{id}/tokens', { params: { path: { id: user.id } }, body: { scopes: ['read'] } }),
  );
  return made.token;
}
