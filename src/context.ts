/**
 * The types every service works with, independent of HTTP: the application's context (built once
 * in app.ts) and the actor of a request (who is calling, with which scopes).
 */
import type { Config } from './config.js';
import type { Database, Db } from './db/database.js';
import type { users } from './db/schema.js';
import type { Clock } from './lib/clock.js';
import type { DiscussionCache } from './modules/discussion/discussion-cache.js';
import type { KeyedQueue } from './lib/keyed-queue.js';
import type { Metrics } from './lib/metrics.js';
import type { PressureSource } from './lib/event-loop-pressure.js';
import type { PasscodeSlots } from './lib/passcode-slots.js';
import type { ClientGate } from './lib/client-gate.js';
import type { PasswordSlots } from './lib/password-slots.js';
import type { RefusalDelay } from './lib/refusal-delay.js';
import type { RenderPool } from './render/render-pool.js';
import type { RenderGate } from './render/render-gate.js';
import type { Mailer } from './modules/mail/outbox.js';
import type { Scheduler } from './modules/schedules/schedule-runner.js';
import type { ResolveHost } from './modules/webhooks/address-check.js';
import type { WebhookDispatcher } from './modules/webhooks/webhook-dispatcher.js';

/** What services need from the outside world; built once in buildApp. */
export interface AppContext {
  readonly config: Config;
  readonly database: Database;
  readonly db: Db;
  readonly clock: Clock;
  /** AES-256-GCM key for share tokens at rest. */
  readonly shareKey: Buffer;
  /** Worker threads that render Liquid templates and share pages. */
  readonly renderer: RenderPool;
  /** Admission of report renders: per-user and process-wide limits (render-gate.ts). */
  readonly renderGate: RenderGate;
  /** PBKDF2 slots, some kept for viewers unlocking a link (passcode-slots.ts). */
  readonly passcodeSlots: PasscodeSlots;
  /** scrypt slots for password checks and hashes, with a bounded queue (password-slots.ts). */
  readonly passwordSlots: PasswordSlots;
  /** Sign-ins, set-password redemptions and passcode unlocks one client may have running (client-gate.ts). */
  readonly clientGate: ClientGate;
  /** Holds rate-limit refusals for REFUSAL_DELAY_MS before they are answered (refusal-delay.ts). */
  readonly refusalDelay: RefusalDelay;
  /** Edits of one report in this process, one at a time (see reports.service.ts `update`). */
  readonly reportEdits: KeyedQueue;
  /**
   * Reaction toggles of one target in this process, one at a time, so that a burst of them waits
   * here instead of holding a database connection each while it waits for the target's row lock.
   */
  readonly reactionToggles: KeyedQueue;
  /** Prometheus metrics of this app (GET /metrics). */
  readonly metrics: Metrics;
  /** How far behind the event loop is: past OVERLOAD_EVENT_LOOP_DELAY_MS new requests get 503. */
  readonly pressure: PressureSource;
  /**
   * New comments on one version in this process, one at a time: each takes the version's row lock
   * to hold the comment cap exactly, and a burst must wait here, not holding a connection each.
   */
  readonly newComments: KeyedQueue;
  /** Discussion pages this process built, by the revision they show (discussion-cache.ts). */
  readonly discussions: DiscussionCache;
  /** Outgoing mail: sent by jobs, or kept in the outbox without SMTP (mail/outbox.ts). */
  readonly mailer: Mailer;
  /** Due occurrences of report schedules and their runs (schedule-runner.ts). */
  readonly scheduler: Scheduler;
  /** How webhook hosts are resolved before their addresses are checked (tests inject one). */
  readonly resolveHost: ResolveHost;
  /** Webhook deliveries: enqueueing, the tick, each attempt (webhook-dispatcher.ts). */
  readonly webhooks: WebhookDispatcher;
}

export type Scope = 'read' | 'write';

type UserRow = typeof users.$inferSelect;

/**
 * Who makes a request: the user, and either the bearer token with its scopes or the browser
 * session (which acts with read and write).
 */
export interface Actor {
  readonly user: UserRow;
  readonly tokenId: string | null;
  readonly sessionId: string | null;
  readonly scopes: readonly Scope[];
  /** When the calling token expires; null: never. A token it creates expires no later. */
  readonly tokenExpiresAt: Date | null;
}
