/**
 * buildApp: the whole HTTP application as a function, so tests build it with their own database
 * and clock. Process concerns (listen, signals) live in server.ts. Start-up runs in steps: open
 * the context, create the server, install the cross-cutting hooks, the OpenAPI document, then
 * every feature's routes from the one list below.
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyReply, type RouteOptions } from 'fastify';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase, type Database } from './db/database.js';
import { checkpointIfDue, runUpkeep, upkeepOperation } from './db/embedded-upkeep.js';
import { inBackground } from './db/priority.js';
import { systemClock, type Clock } from './lib/clock.js';
import { newId } from './lib/ids.js';
import { KeyedQueue } from './lib/keyed-queue.js';
import { PASSCODE_SLOTS, PASSCODE_UNLOCK_RESERVE, PasscodeSlots } from './lib/passcode-slots.js';
import { ClientGate } from './lib/client-gate.js';
import { RefusalDelay, REFUSALS_HELD_MAX, type Sleep } from './lib/refusal-delay.js';
import { PASSWORD_HASH_QUEUE, PASSWORD_HASH_SLOTS, PasswordSlots } from './lib/password-slots.js';
import { AppError, badRequest } from './lib/errors.js';
import { loadOrCreateShareKey } from './lib/secrets.js';
import { createRenderPool, type RenderPool } from './render/render-pool.js';
import { resolveFallbackFonts } from './render/pdf/pdf-fonts.js';
import { measuredRenderPool } from './render/measured-render-pool.js';
import { createMetrics } from './lib/metrics.js';
import { eventLoopPressure, isOverloaded, OVERLOAD_RETRY_AFTER_SECONDS, type PressureSource } from './lib/event-loop-pressure.js';
import { requestIdOf } from './http/request-id.js';
import { registerJsonParser } from './http/json-body.js';
import { clientErrorHandler } from './http/client-error.js';
import { RenderGate } from './render/render-gate.js';
import { problemHandler, sendProblem } from './http/problem.js';
import { notFound } from './http/not-found.js';
import { createValidatorCompiler } from './http/validation.js';
import { cachedSerializerFactory } from './http/serializers.js';
import { DOCUMENTED_BODY, OPTIONAL_BODY, ProblemSchema } from './http/schemas.js';
import { componentRegistry, type ComponentRegistry } from './http/components.js';
import { HEADERS, declareHeaders } from './http/response-headers.js';
import { loggedUrl, loggerOptions, writesLevel } from './http/logging.js';
import { NOT_FOUND_PAGE, VIEWER_HEADERS } from './render/share-page.js';
import type { App, Feature } from './http/types.js';
import { answerUnits, assertDeclaredScope, chargeAnswer, registerAuth } from './modules/auth/auth.js';
import { registerConditionalReads } from './http/conditional.js';
import { registerCompression } from './http/compression.js';
import { discussionCache } from './modules/discussion/discussion-cache.js';
import { bootstrap } from './modules/bootstrap/bootstrap.js';
import { assertShareKeyFits } from './modules/shares/shares.service.js';
import { docsRoutes } from './modules/docs/docs.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { metricsRoutes } from './modules/metrics/metrics.routes.js';
import { userRoutes } from './modules/users/users.routes.js';
import { USER_SCHEMAS } from './modules/users/users.schemas.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AUTH_SCHEMAS } from './modules/auth/auth.schemas.js';
import { workspaceRoutes } from './modules/workspaces/workspaces.routes.js';
import { brandingRoutes, logoRoutes } from './modules/branding/branding.routes.js';
import { WORKSPACE_SCHEMAS } from './modules/workspaces/workspaces.schemas.js';
import { clientRoutes } from './modules/clients/clients.routes.js';
import { CLIENT_SCHEMAS } from './modules/clients/clients.schemas.js';
import { rateRoutes } from './modules/rates/rates.routes.js';
import { RATE_SCHEMAS } from './modules/rates/rates.schemas.js';
import { projectRoutes } from './modules/projects/projects.routes.js';
import { PROJECT_SCHEMAS } from './modules/projects/projects.schemas.js';
import { timeEntryRoutes } from './modules/time-entries/time-entries.routes.js';
import { TIME_ENTRY_SCHEMAS } from './modules/time-entries/time-entries.schemas.js';
import { templateRoutes } from './modules/templates/templates.routes.js';
import { TEMPLATE_SCHEMAS } from './modules/templates/templates.schemas.js';
import { reportRoutes } from './modules/reports/reports.routes.js';
import { REPORT_SCHEMAS } from './modules/reports/reports.schemas.js';
import { sendingRoutes } from './modules/sending/sending.routes.js';
import { SENDING_SCHEMAS } from './modules/sending/sending.schemas.js';
import { inboxRoutes } from './modules/inbox/inbox.routes.js';
import { INBOX_SCHEMAS } from './modules/inbox/inbox.schemas.js';
import { shareRoutes } from './modules/shares/shares.routes.js';
import { SHARE_SCHEMAS } from './modules/shares/shares.schemas.js';
import { discussionRoutes } from './modules/discussion/discussion.routes.js';
import { DISCUSSION_SCHEMAS } from './modules/discussion/discussion.schemas.js';
import { historyRoutes } from './modules/history/history.routes.js';
import { HISTORY_SCHEMAS } from './modules/history/history.schemas.js';
import { viewerRoutes } from './modules/shares/viewer.routes.js';
import { exportRoutes } from './modules/exports/exports.routes.js';
import { webAppRoutes } from './http/web-app.js';
import { siteRoutes } from './modules/site/site.routes.js';
import { scheduleRoutes } from './modules/schedules/schedules.routes.js';
import { SCHEDULE_SCHEMAS } from './modules/schedules/schedules.schemas.js';
import { createScheduler } from './modules/schedules/schedule-runner.js';
import { startJobEngine } from './jobs/job-engine.js';
import { createMailer, smtpTransport } from './modules/mail/outbox.js';
import { mailRoutes, mailPageRoutes } from './modules/mail/mail.routes.js';
import { MAIL_SCHEMAS } from './modules/mail/mail.schemas.js';
import { webhookRoutes } from './modules/webhooks/webhooks.routes.js';
import { WEBHOOK_SCHEMAS } from './modules/webhooks/webhooks.schemas.js';
import { createWebhookDispatcher } from './modules/webhooks/webhook-dispatcher.js';
import { systemResolveHost } from './modules/webhooks/outbound-request.js';
import type { ResolveHost } from './modules/webhooks/address-check.js';

/**
 * Every feature's routes, where they live, and the named schemas they own (in this order they are
 * the OpenAPI document's paths and `components.schemas`).
 */
const FEATURES: readonly Feature[] = [
  { prefix: '', routes: healthRoutes },
  { prefix: '', routes: metricsRoutes },
  { prefix: '/api/v1', routes: userRoutes, schemas: USER_SCHEMAS },
  { prefix: '/api/v1', routes: authRoutes, schemas: AUTH_SCHEMAS },
  { prefix: '/api/v1', routes: workspaceRoutes, schemas: WORKSPACE_SCHEMAS },
  { prefix: '/api/v1', routes: brandingRoutes },
  { prefix: '/api/v1', routes: clientRoutes, schemas: CLIENT_SCHEMAS },
  { prefix: '/api/v1', routes: rateRoutes, schemas: RATE_SCHEMAS },
  { prefix: '/api/v1', routes: projectRoutes, schemas: PROJECT_SCHEMAS },
  { prefix: '/api/v1', routes: timeEntryRoutes, schemas: TIME_ENTRY_SCHEMAS },
  { prefix: '/api/v1', routes: templateRoutes, schemas: TEMPLATE_SCHEMAS },
  { prefix: '/api/v1', routes: reportRoutes, schemas: REPORT_SCHEMAS },
  { prefix: '/api/v1', routes: sendingRoutes, schemas: SENDING_SCHEMAS },
  { prefix: '/api/v1', routes: inboxRoutes, schemas: INBOX_SCHEMAS },
  { prefix: '/api/v1', routes: shareRoutes, schemas: SHARE_SCHEMAS },
  { prefix: '/api/v1', routes: discussionRoutes, schemas: DISCUSSION_SCHEMAS },
  { prefix: '/api/v1', routes: historyRoutes, schemas: HISTORY_SCHEMAS },
  { prefix: '/api/v1', routes: scheduleRoutes, schemas: SCHEDULE_SCHEMAS },
  { prefix: '/api/v1', routes: webhookRoutes, schemas: WEBHOOK_SCHEMAS },
  { prefix: '/api/v1', routes: exportRoutes },
  { prefix: '/api/v1', routes: mailRoutes, schemas: MAIL_SCHEMAS },
  { prefix: '/mail', routes: mailPageRoutes },
  { prefix: '/share', routes: viewerRoutes },
  { prefix: '', routes: logoRoutes },
  { prefix: '', routes: docsRoutes },
  { prefix: '', routes: siteRoutes },
  { prefix: '', routes: webAppRoutes },
];

export interface BuildOptions {
  config: Config;
  /** An already-open database (tests); otherwise one is opened from config and closed with the app. */
  database?: Database;
  /**
   * The database from config, already being opened (server.ts starts it before it loads the app):
   * the app takes it as one it opened itself, migrating it and closing it with the app.
   */
  opening?: Promise<Database>;
  clock?: Clock;
  /** false silences request logs (tests); default follows config.logLevel. */
  logger?: boolean;
  /** A ready pino logger to write to instead (tests that read the log). */
  loggerInstance?: FastifyBaseLogger;
  /** What tells how far behind the event loop is (tests inject one); default: Node's own measure. */
  pressure?: PressureSource;
  /** How a held refusal waits (tests inject one they release); default: a timer of REFUSAL_DELAY_MS. */
  refusalSleep?: Sleep;
  /**
   * Whether this process works the job engine and ticks schedules: server.ts turns it on; an app
   * built without it (tests, scripts) serves the API and drives `ctx.scheduler` itself if at all.
   */
  jobs?: boolean;
  /** How webhook hosts are resolved (tests inject one); default: the system resolver. */
  resolveHost?: ResolveHost;
  /**
   * Render workers shared with other apps of the process (the tests build hundreds of apps in a
   * few processes); the app then neither starts nor closes a pool of its own.
   */
  renderPool?: RenderPool;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set when this start created the first admin and generated its token (printed once by server.ts). */
    generatedAdminToken: string | null;
    /** With it, the admin's one-time set-password link, to sign in to the web app (printed once too). */
    adminPasswordLink: { url: string; expiresAt: string } | null;
    /** The application's context (metrics read the render pool and the database from it; so do tests). */
    chronicle: AppContext;
  }
}

export async function buildApp(options: BuildOptions): Promise<App> {
  const { config } = options;
  const ownsDatabase = !options.database;
  const database = options.database ?? (await (options.opening ?? openDatabase(config)));
  try {
    if (ownsDatabase) await database.migrate();
    const ctx = await createContext(options, database);
    const { generatedAdminToken, adminPasswordLink } = await bootstrap(ctx);
    // A changed or lost share key would make every share response fail; refuse to start instead.
    await assertShareKeyFits(ctx.db, ctx.shareKey);

    const components = componentRegistry([ProblemSchema, ...FEATURES.flatMap((feature) => feature.schemas ?? [])]);
    const app = createServer(options);
    app.decorate('generatedAdminToken', generatedAdminToken);
    app.decorate('adminPasswordLink', adminPasswordLink);
    app.decorate('chronicle', ctx);
    for (const notice of database.notices) app.log.warn(notice);
    installHooks(app, ctx, components);
    await installOpenApi(app, options.config, components);
    await installCors(app, options.config.corsOrigins);
    for (const feature of FEATURES) await app.register(feature.routes, { prefix: feature.prefix, ctx });

    ctx.mailer.useLog(app.log);
    // A pool shared by several apps (the tests') keeps the log its owner gives it.
    if (!options.renderPool) ctx.renderer.useLog(app.log);
    if (options.jobs) await startJobs(app, ctx);
    if (!options.renderPool) app.addHook('onClose', () => ctx.renderer.close());
    app.addHook('onClose', () => {
      ctx.mailer.close();
    });
    app.addHook('preClose', async () => {
      ctx.refusalDelay.close();
    });
    app.addHook('onClose', async () => {
      ctx.pressure.close();
    });
    // Migrations and start-up block the loop for seconds; that must not refuse the first requests.
    app.addHook('onListen', async () => {
      ctx.pressure.reset?.();
    });
    if (ownsDatabase) app.addHook('onClose', () => database.close());
    await app.ready();
    return app;
  } catch (error) {
    if (ownsDatabase) await database.close();
    throw error;
  }
}

async function createContext(options: BuildOptions, database: Database): Promise<AppContext> {
  const { config } = options;
  const shareKey = config.shareKey ?? (config.dataDir ? await loadOrCreateShareKey(config.dataDir) : null);
  if (!shareKey) throw new Error('No share key: set SHARE_KEY or DATA_DIR.');
  const pool =
    options.renderPool ??
    createRenderPool({ pdfFallbackFonts: resolveFallbackFonts(config.pdfFallbackFont), pdfSlots: config.pdfConcurrency });
  // Twice the workers, so one render's database read overlaps another's Liquid work.
  const renderGate = new RenderGate({
    perUser: config.renderUserConcurrency,
    perUserQueue: config.renderUserQueue,
    concurrency: pool.reportSlots * 2,
    queue: config.renderQueueMax,
  });
  // Four passcode hashes at once (each on a hashing thread): mints may take 2, unlocks all 4.
  const passcodeSlots = new PasscodeSlots(PASSCODE_SLOTS, PASSCODE_UNLOCK_RESERVE);
  const passwordSlots = new PasswordSlots(PASSWORD_HASH_SLOTS, PASSWORD_HASH_QUEUE);
  const pressure = options.pressure ?? eventLoopPressure();
  const refusalDelay = new RefusalDelay(config.refusalDelayMs, REFUSALS_HELD_MAX, options.refusalSleep);
  const metrics = createMetrics({
    renderQueue: () => pool.stats(),
    databasePool: () => database.poolStats(),
    renderGate: () => renderGate.stats(),
    passcodeSlots: () => passcodeSlots.stats(),
    passwordSlots: () => passwordSlots.stats(),
    refusalsHeld: () => refusalDelay.stats().held,
    eventLoopDelayMs: () => pressure.eventLoopDelayMs(),
  });
  const base = {
    config,
    database,
    db: database.db,
    clock: options.clock ?? systemClock,
    shareKey,
    renderer: measuredRenderPool(pool, metrics),
    metrics,
    pressure,
    renderGate,
    passcodeSlots,
    passwordSlots,
    clientGate: new ClientGate(),
    refusalDelay,
    reportEdits: new KeyedQueue(),
    reactionToggles: new KeyedQueue(),
    newComments: new KeyedQueue(),
    discussions: discussionCache(),
    resolveHost: options.resolveHost ?? systemResolveHost,
  };
  const webhooks = createWebhookDispatcher(base);
  const withMail = { ...base, webhooks, mailer: createMailer(base, config.smtpUrl ? smtpTransport(config.smtpUrl) : null) };
  return { ...withMail, scheduler: createScheduler(withMail) };
}

/**
 * The job engine, the schedule ticker and the webhook ticker of this process; all stop before the
 * database closes.
 * Every process runs them: the database decides which one works each job (job-engine.ts), among
 * the processes that work jobs at all (JOB_WORKER).
 */
async function startJobs(app: App, ctx: AppContext): Promise<void> {
  const engine = await startJobEngine(ctx.database, app.log, [ctx.scheduler.queue, ctx.mailer.queue, ctx.webhooks.queue], {
    pollingIntervalSeconds: ctx.config.jobPollSeconds,
    work: ctx.config.jobWorker,
  });
  ctx.scheduler.start(engine, ctx.config.scheduleTickSeconds * 1000, app.log);
  ctx.mailer.start(engine, ctx.config.scheduleTickSeconds * 1000);
  ctx.webhooks.start(engine, ctx.config.scheduleTickSeconds * 1000, app.log);
  const stopUpkeep = startEmbeddedUpkeep(app, ctx);
  app.addHook('preClose', async () => {
    await stopUpkeep();
    ctx.scheduler.stop();
    ctx.mailer.stop();
    ctx.webhooks.stop();
    await engine.stop();
  });
}

/** An upkeep statement at least this long is logged at `info`, shorter ones at `debug`. */
const UPKEEP_LOGGED_MS = 250;

/**
 * On the embedded engine, which has no autovacuum, a pass of embedded-upkeep.ts every
 * EMBEDDED_UPKEEP_SECONDS (the first one a whole interval after start-up, which has work of its
 * own); on PostgreSQL the server's autovacuum does it. Returns what stops it once its pass under
 * way has ended, so that nothing reaches the database after it closes.
 */
function startEmbeddedUpkeep(app: App, ctx: AppContext): () => Promise<void> {
  const seconds = ctx.config.embeddedUpkeepSeconds;
  if (ctx.database.kind !== 'pglite' || seconds === 0) return async () => {};
  /** The pass under way, if any: a tick that finds one skips its turn. */
  let pass: Promise<unknown> | null = null;
  const heard = (operation: string, fields: Record<string, unknown>, error: Error | null, ms: number) => {
    ctx.metrics.databaseUpkeep.inc({ operation, outcome: error ? 'failed' : 'ok' });
    const line = { ...fields, operation, ms: Math.round(ms) };
    if (error) app.log.warn({ ...line, err: error }, 'embedded database upkeep failed');
    // A statement that held the engine long enough for requests to notice is worth a line.
    else if (ms >= UPKEEP_LOGGED_MS) app.log.info(line, 'embedded database upkeep');
    else app.log.debug(line, 'embedded database upkeep');
  };
  const upkeep = async () => {
    await runUpkeep(ctx.database, ({ task, error, ms }) => {
      heard(upkeepOperation(task), { table: `${task.schema}.${task.table}`, reasons: task.reasons }, error, ms);
    });
    const started = performance.now();
    try {
      const checkpoint = await checkpointIfDue(ctx.database, ctx.clock.now());
      if (checkpoint) heard('checkpoint', { reasons: [checkpoint.reason] }, null, checkpoint.ms);
    } catch (error) {
      heard('checkpoint', {}, error instanceof Error ? error : new Error(String(error)), performance.now() - started);
    }
  };
  const timer = setInterval(() => {
    if (pass) return;
    pass = inBackground(upkeep)
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'embedded database upkeep failed');
      })
      .finally(() => {
        pass = null;
      });
  }, seconds * 1000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await pass;
  };
}

function createServer(options: BuildOptions): App {
  return Fastify({
    // Start-up registers every feature; on a machine busy with other work that can take longer
    // than Fastify's default 10 s per plugin, which would abort start-up.
    pluginTimeout: 120_000,
    // Each distinct response schema is compiled once, not once per route and per start (serializers.ts).
    schemaController: { compilersFactory: { buildSerializer: cachedSerializerFactory } },
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: options.logger === false ? false : loggerOptions(options.config.logLevel) }),
    // One line per request comes from the onResponse hook, with the URL redacted.
    logController: new LogController({ disableRequestLogging: true }),
    // A client's X-Request-Id when well-formed, otherwise a new id; it is in every request's log
    // lines (reqId) and in the X-Request-Id of every response.
    requestIdHeader: false,
    genReqId: (request) => requestIdOf(request.headers['x-request-id']) ?? newId(),
    bodyLimit: 1024 * 1024,
    // A client gets REQUEST_TIMEOUT_MS to send a whole request and at most 10 s for its headers;
    // one that stalls (a body that never ends) is answered 408 and disconnected (docs/operations.md
    // "Resource limits"). Node checks incomplete requests every connectionsCheckingInterval, so the
    // connection ends within the timeout plus a quarter of it.
    requestTimeout: options.config.requestTimeoutMs,
    clientErrorHandler,
    http: {
      headersTimeout: Math.min(10_000, options.config.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(options.config.requestTimeoutMs / 4))),
    },
    // A URL the router cannot even decode, or a path segment over 100 characters: the public
    // viewer and the mail links answer with the uniform 404 page, the API with a problem.
    frameworkErrors: (_error, request, reply) => {
      reply.header('x-request-id', request.id);
      if (/^\/(?:share|mail)(?:[/?#]|$)/.test(request.raw.url ?? '')) {
        void (reply as FastifyReply).code(404).headers(VIEWER_HEADERS).send(NOT_FOUND_PAGE);
        return;
      }
      void sendProblem(reply, new AppError('validation', 'The request URL is malformed or has a path segment over 100 characters.'));
    },
    // The client address counts passcode attempts: behind a proxy, name it in TRUST_PROXY.
    trustProxy: options.config.trustProxy,
  }).withTypeProvider<TypeBoxTypeProvider>();
}

/** Liveness, readiness and metrics answer however busy the process is: they are how one finds out. */
const ALWAYS_ANSWERED = new Set(['/healthz', '/readyz', '/metrics']);

/** What every route shares: validation, errors, authentication, request logging, shutdown. */
/**
 * API answers of 8 KiB or more go out compressed where the client accepts it, two at a time per
 * process (http/compression.ts): a list of 50 reports or 100 entries, a version's document.
 */
const API_COMPRESSION = { minBytes: 8 * 1024, slots: 2 } as const;

function installHooks(app: App, ctx: AppContext, components: ComponentRegistry): void {
  // First of all: when the event loop is far behind, a new request is refused at once (503) rather
  // than queued behind the backlog, before its token is looked up or its body parsed
  // (docs/operations.md "Saturation").
  // A callback hook, as the others every request passes: an async one costs each a promise.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isOverloaded(ctx.pressure, ctx.config.overloadEventLoopDelayMs) || ALWAYS_ANSWERED.has(request.routeOptions.url ?? '')) {
      done();
      return;
    }
    ctx.metrics.overloadRefusals.inc();
    if (request.raw.method !== 'GET' && request.raw.method !== 'HEAD') reply.header('connection', 'close');
    // Answered here: the request goes no further (done is not called).
    void sendProblem(
      reply,
      new AppError('unavailable', 'The server is overloaded; try again shortly.', undefined, {
        'Retry-After': String(OVERLOAD_RETRY_AFTER_SECONDS),
      }),
    );
  });

  app.setValidatorCompiler(createValidatorCompiler(components.schemas));
  // A rate-limit refusal waits REFUSAL_DELAY_MS before it is answered (refusal-delay.ts).
  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof AppError && error.code === 'rate_limited') await ctx.refusalDelay.hold();
    return problemHandler(error, request, reply);
  });
  app.setNotFoundHandler(notFound);
  // JSON is the only body the API takes; the public viewer registers its own form parser.
  app.removeContentTypeParser('text/plain');
  registerJsonParser(app);

  // Responses still in flight when the app starts closing end their keep-alive connection, so
  // a graceful shutdown does not wait for idle sockets to time out.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  registerConditionalReads(app);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (request.routeOptions.config.secret) reply.header('cache-control', 'no-store');
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  // A large answer to a signed-in read is charged to the reader's rate limit, by its size before
  // compression (the work is making it), and after the entity tag: a 304 costs nothing more. No
  // hook at all without a limit.
  if (ctx.config.apiRateLimit !== 0) {
    app.addHook('onSend', (request, _reply, payload, done) => {
      const units = answerUnits(ctx, request, payload);
      if (units === 0) {
        done(null, payload);
        return;
      }
      void chargeAnswer(ctx, request, units).then(() => {
        done(null, payload);
      });
    });
  }
  // After the entity tag is set and compared: a 304 has nothing to compress.
  registerCompression(app, API_COMPRESSION);
  // At debug level, a line when a request comes in (the one line per request is at its end). The
  // level is the process's for its life: below debug the hook is not installed at all.
  if (writesLevel(app.log, 'debug')) {
    app.addHook('onRequest', (request, _reply, done) => {
      request.log.debug({ method: request.method, url: loggedUrl(request) }, 'incoming request');
      done();
    });
  }
  // Callback hooks, as on every path a request of any kind takes: an async one costs a promise
  // and a turn of the microtask queue each.
  app.addHook('onResponse', (request, reply, done) => {
    ctx.metrics.httpDuration.observe(
      // The route pattern, never the URL: share tokens stay out, and the label set stays small.
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: reply.statusCode },
      reply.elapsedTime / 1000,
    );
    // The line's fields (a redacted URL) are made only where the line is written.
    if (writesLevel(request.log, 'info')) {
      request.log.info(
        { method: request.method, url: loggedUrl(request), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request',
      );
    }
    done();
  });

  // Each route's scope, declared in its definition, also becomes its OpenAPI security requirement.
  // Whether every route declared one is checked once all are registered: a plugin that cannot take
  // route options (the API reference, CORS preflight) declares its routes' scope in an onRoute hook
  // of its own, which runs after this one.
  const routes: RouteOptions[] = [];
  app.addHook('onReady', async () => {
    for (const route of routes) assertDeclaredScope(route);
  });
  app.addHook('onRoute', (route) => {
    routes.push(route);
    const scope = route.config?.scope;
    if (scope === 'read' || scope === 'write') route.schema = { ...route.schema, security: [{ bearer: [scope] }] };
    else if (scope === 'public') route.schema = { ...route.schema, security: [] };
  });
  registerAuth(app, ctx);
  // A route without a body schema takes no body: anything but nothing or `{}` is refused, as an
  // unknown property would be (docs/api.md "Conventions"). A route that documents a body of its
  // own (the logo upload's image) reads it itself.
  app.addHook('preValidation', (request, _reply, done) => {
    const { scope } = request.routeOptions.config;
    const schema = request.routeOptions.schema as Record<string, unknown> | undefined;
    if ((scope === 'read' || scope === 'write') && schema?.body === undefined && schema?.[DOCUMENTED_BODY] === undefined) {
      const body = request.body;
      const empty =
        body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);
      if (!empty) throw badRequest('This endpoint takes no request body.', [{ path: '', message: 'must be empty' }]);
    }
    done();
  });
  // Likewise a route without a query schema takes no query parameters: an unknown one is refused
  // as on routes that have a schema (400, one error per parameter at /query/<name>), never ignored.
  app.addHook('preValidation', (request, _reply, done) => {
    const { scope } = request.routeOptions.config;
    if ((scope !== 'read' && scope !== 'write') || request.routeOptions.schema?.querystring !== undefined) {
      done();
      return;
    }
    const names = Object.keys(request.query ?? {});
    if (names.length === 0) {
      done();
      return;
    }
    throw badRequest(
      `This endpoint takes no query parameters (unknown: ${names.join(', ')}).`,
      names.map((name) => ({ path: `/query/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, message: 'is not a known parameter' })),
    );
  });
}

/** Error responses are sent as application/problem+json (src/http/problem.ts); say so. */
function problemJson(operation: Record<string, unknown>): void {
  const responses = (operation.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>;
  for (const [status, response] of Object.entries(responses)) {
    const json = response.content?.['application/json'];
    if (Number(status) < 400 || !json || !response.content) continue;
    response.content = { 'application/problem+json': json };
  }
}

/**
 * CORS_ORIGINS lets a browser front-end on another origin call the API with a bearer token
 * (no cookies cross origins). Without it no CORS header is sent and browsers keep to same-origin.
 */
async function installCors(app: App, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  // The preflight route answers without credentials, like every public route.
  app.addHook('onRoute', (route) => {
    if (route.method === 'OPTIONS' && route.config?.scope === undefined) route.config = { ...route.config, scope: 'public' };
  });
  await app.register(cors, {
    origin: [...origins],
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['authorization', 'content-type', 'if-match', 'x-request-id'],
    exposedHeaders: ['etag', 'link', 'location', 'retry-after', 'x-request-id', 'x-total-count'],
    credentials: false,
    maxAge: 600,
  });
}

async function installOpenApi(app: App, config: Config, components: ComponentRegistry): Promise<void> {
  // The named schemas become components.schemas; a route's body and responses refer to them.
  for (const schema of components.schemas) app.addSchema(schema);
  app.addHook('onRoute', (route) => {
    if (!route.schema) return;
    const { body, response } = route.schema;
    route.schema = {
      ...route.schema,
      ...(body === undefined ? {} : { body: components.withRefs(body, false) }),
      ...(response === undefined ? {} : { response: components.withRefs(response, false) }),
    };
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Chronicle API',
        version: '1.0.0',
        description: 'Frozen, versioned time-tracking reports: sending, public share links and discussion.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Chronicle-Proprietary' },
      },
      servers: [{ url: config.publicBaseUrl, description: 'This Chronicle server (PUBLIC_BASE_URL)' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, headers: HEADERS },
      security: [{ bearer: [] }],
    },
    // Components keep their own names (`#/components/schemas/Report`), not def-0, def-1, ...
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      const { openapiObject } = document;
      for (const [path, operations] of Object.entries(openapiObject.paths ?? {})) {
        for (const operation of Object.values(operations as Record<string, Record<string, unknown>>)) {
          problemJson(operation);
          declareHeaders(operation, path);
          if (operation[DOCUMENTED_BODY]) {
            operation.requestBody = operation[DOCUMENTED_BODY];
            Reflect.deleteProperty(operation, DOCUMENTED_BODY);
          }
          if (!operation[OPTIONAL_BODY]) continue;
          Reflect.deleteProperty(operation, OPTIONAL_BODY);
          if (operation.requestBody) (operation.requestBody as { required: boolean }).required = false;
        }
      }
      return openapiObject;
    },
  });
}
