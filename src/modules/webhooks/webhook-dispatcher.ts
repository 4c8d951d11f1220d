/**
 * Sending webhook deliveries (delivery.md §4), as schedule runs are worked (schedule-runner.ts):
 * the delivery row is the truth and a job only its trigger.
 *
 * - `enqueue` hands deliveries whose transaction committed to the job engine.
 * - `tick` (every process, every SCHEDULE_TICK_SECONDS) hands it the deliveries that are due: a
 *   retry whose time came, one whose job was lost between commit and enqueue, one whose attempt
 *   went silent for ATTEMPT_STALE_MS (its process died).
 * - `execute` claims the delivery for one attempt in the database (another process finds it
 *   taken), checks and pins the address (outbound-request.ts), POSTs, and records the outcome only
 *   if its attempt still holds the delivery. A 2xx succeeds; anything else is retried with
 *   exponential backoff until 24 hours after the event, then fails. An address webhooks may not
 *   reach fails at once.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import { BACKLOG_TICK_MS, startTicker, type JobEngine, type JobQueue, type Ticker } from '../../jobs/job-engine.js';
import { decryptSecret } from '../../lib/secrets.js';
import * as repo from '../../repositories/webhooks.repository.js';
import { post, resolveTarget, REQUEST_TIMEOUT_MS } from './outbound-request.js';
import { shareViewed, type EventData, type WebhookEventType } from './webhook-events.js';
import { slackMessage, standardMessage } from './webhook-message.js';

/** Deliveries are retried until this long after their event (delivery.md §4). */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The first retry's delay; each next one doubles, up to MAX_RETRY_DELAY_MS. */
export const FIRST_RETRY_DELAY_MS = 30_000;
export const MAX_RETRY_DELAY_MS = 4 * 60 * 60 * 1000;
/** An attempt silent for this long belongs to a dead process (an attempt takes at most REQUEST_TIMEOUT_MS). */
export const ATTEMPT_STALE_MS = 6 * REQUEST_TIMEOUT_MS;
/** Deliveries the tick hands on at once. */
const TICK_BATCH = 200;
/** Links whose next `share.viewed` time this process remembers (so a busy link asks the database once an hour). */
const SHARE_VIEW_MEMORY = 10_000;

/** The wait before the attempt after `attempt` failed attempts. */
export function retryDelayMs(attempt: number): number {
  return Math.min(FIRST_RETRY_DELAY_MS * 2 ** Math.max(0, attempt - 1), MAX_RETRY_DELAY_MS);
}

export interface WebhookDispatcher {
  /** Hands deliveries whose transaction committed to the job engine (nothing when this process runs none). */
  enqueue(ids: readonly string[]): Promise<void>;
  /** Hands every due delivery to the job engine; returns their ids. */
  tick(): Promise<string[]>;
  /** Makes one attempt of a delivery (what the job engine calls). */
  execute(deliveryId: string): Promise<void>;
  /**
   * A counted view of a link: its `share.viewed` event, at most one an hour per link, decided by
   * the database; this process only remembers when not to ask again.
   */
  shareViewed(share: { id: string; reportContentId: string; follows: string }): Promise<void>;
  readonly queue: JobQueue<{ deliveryId: string }>;
  start(engine: JobEngine, intervalMs: number, log: FastifyBaseLogger): void;
  stop(): void;
}

export function createWebhookDispatcher(ctx: Omit<AppContext, 'scheduler' | 'webhooks' | 'mailer'>): WebhookDispatcher {
  let engine: JobEngine | null = null;
  let log: FastifyBaseLogger | null = null;
  let ticker: Ticker | null = null;
  const quietUntil = new Map<string, number>();
  /** The `share.viewed` statement under way per link (`onShareViewed`). */
  const asking = new Map<string, Promise<void>>();

  const queue: JobQueue<{ deliveryId: string }> = {
    name: 'webhook-delivery',
    expireInSeconds: ATTEMPT_STALE_MS / 1000,
    retryLimit: 2,
    retryDelaySeconds: 30,
    handle: ({ deliveryId }) => execute(deliveryId),
  };

  async function enqueue(ids: readonly string[]): Promise<void> {
    if (!engine) return;
    try {
      await engine.sendAll(
        queue,
        ids.map((id) => ({ data: { deliveryId: id }, key: id })),
      );
    } catch (error) {
      // The deliveries are committed: the next tick hands them on.
      log?.warn({ err: error }, 'webhook deliveries not enqueued; the tick will');
    }
  }

  async function tick(): Promise<string[]> {
    const now = ctx.clock.now();
    const due = await repo.dueDeliveries(ctx.db, now, new Date(now.getTime() - ATTEMPT_STALE_MS), TICK_BATCH);
    const ids = due.map((d) => d.id);
    await enqueue(ids);
    // A full batch may have left due deliveries behind (a wave of retries): the rest go once the
    // jobs have taken these (job-engine.ts BACKLOG_TICK_MS).
    if (ids.length === TICK_BATCH) ticker?.soon(BACKLOG_TICK_MS);
    return ids;
  }

  /** What a failed attempt records: retried later, or failed once the retry window is over. */
  function failure(delivery: repo.DeliveryRow, now: Date, responseStatus: number | null, error: string): repo.AttemptOutcome {
    const next = new Date(now.getTime() + retryDelayMs(delivery.attempts));
    const giveUp = next.getTime() > delivery.createdAt.getTime() + RETRY_WINDOW_MS;
    return {
      status: giveUp ? 'failed' : 'queued',
      nextAttemptAt: giveUp ? now : next,
      responseStatus,
      error: (giveUp ? `${error} Gave up after ${delivery.attempts} attempts over 24 hours.` : error).slice(0, 2000),
      deliveredAt: null,
    };
  }

  async function attempt(delivery: repo.DeliveryRow, now: Date): Promise<repo.AttemptOutcome> {
    const fail = (error: string): repo.AttemptOutcome => ({
      status: 'failed',
      nextAttemptAt: now,
      responseStatus: null,
      error,
      deliveredAt: null,
    });
    if (now.getTime() > delivery.createdAt.getTime() + RETRY_WINDOW_MS) return fail('Gave up: the event is more than 24 hours old.');
    const endpoint = await repo.findEndpoint(ctx.db, delivery.endpointId);
    if (!endpoint) return fail('The webhook was deleted.');
    if (!endpoint.active) return fail('The webhook was deactivated before this delivery was sent.');
    const target = await resolveTarget(endpoint.url, {
      allowHttp: ctx.config.webhookAllowHttp,
      allowPrivate: ctx.config.webhookAllowPrivate,
      resolveHost: ctx.resolveHost,
    });
    if (!target.ok) return fail(`Refused: ${target.reason}`);
    const event = { id: delivery.id, type: delivery.eventType as WebhookEventType, data: delivery.payload as EventData };
    const base = ctx.config.publicBaseUrl;
    const message =
      endpoint.format === 'slack'
        ? slackMessage(event, base)
        : standardMessage(event, decryptSecret(ctx.shareKey, endpoint.secretEncrypted), base, now);
    const outcome = await post(target, { 'user-agent': 'Chronicle-Webhooks/1', ...message.headers }, message.body);
    const after = ctx.clock.now();
    if (outcome.kind === 'failed') return failure(delivery, after, null, outcome.reason);
    const { status } = outcome;
    if (status >= 200 && status < 300)
      return { status: 'succeeded', nextAttemptAt: after, responseStatus: status, error: null, deliveredAt: after };
    const why = status >= 300 && status < 400 ? `Answered ${status}; redirects are not followed.` : `Answered ${status}.`;
    return failure(delivery, after, status, why);
  }

  async function execute(deliveryId: string): Promise<void> {
    const now = ctx.clock.now();
    const delivery = await repo.claimDelivery(ctx.db, deliveryId, now, new Date(now.getTime() - ATTEMPT_STALE_MS));
    if (!delivery) return;
    let outcome: repo.AttemptOutcome;
    try {
      outcome = await attempt(delivery, now);
    } catch (error) {
      // Nothing was sent or its answer is unknown: the attempt counts as failed and is retried.
      outcome = failure(delivery, ctx.clock.now(), null, `The attempt failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    await repo.finishAttempt(ctx.db, delivery.id, delivery.attempts, outcome);
  }

  /**
   * The link's `share.viewed` event: one statement asks the database whether the hour allows one.
   * Views that arrive while that statement runs wait for its answer instead of asking too: they
   * would find the hour taken, and asking at once they queue on the same row (a link's first 50
   * concurrent views waited 35 ms each).
   */
  function onShareViewed(share: { id: string; reportContentId: string; follows: string }): Promise<void> {
    const now = ctx.clock.now();
    if ((quietUntil.get(share.id) ?? 0) > now.getTime()) return Promise.resolve();
    const running = asking.get(share.id);
    if (running) return running;
    const asked = (async () => {
      const { deliveries, nextEventAt } = await shareViewed(ctx.db, share, now);
      if (quietUntil.size >= SHARE_VIEW_MEMORY) quietUntil.clear();
      quietUntil.set(share.id, nextEventAt.getTime());
      await enqueue(deliveries);
    })().finally(() => asking.delete(share.id));
    asking.set(share.id, asked);
    return asked;
  }

  return {
    enqueue,
    tick,
    execute,
    shareViewed: onShareViewed,
    queue,
    start(jobs, intervalMs, logger) {
      engine = jobs;
      log = logger;
      ticker = startTicker(tick, intervalMs, (error) => {
        logger.error({ err: error }, 'webhook tick failed');
      });
    },
    stop() {
      ticker?.stop();
      ticker = null;
      engine = null;
    },
  };
}
