/**
 * Sending the mail the events wrote (delivery.md §3), durably and once:
 *
 * - `tick` (every process, every SCHEDULE_TICK_SECONDS, soon after a request wrote mail, and
 *   again soon after a tick that found more due than it hands on) gathers the daily digests that
 *   are due, queues the discussion batches whose 10 minutes are up, and hands every due message
 *   to the job engine, including messages whose attempt went silent for MAIL_STALE_MS (its
 *   process died mid-send).
 * - `execute` takes a message for one attempt in the database (another process gets nothing),
 *   composes it from the rows it names, hands it to SMTP (or, with no SMTP_URL, keeps it in the
 *   outbox with one log line that has no link in it), and records the outcome if the attempt
 *   still holds the message. A temporary refusal (4xx, a connection that failed) is queued again
 *   with exponential backoff until 24 hours after the message was written; a permanent one (5xx)
 *   fails at once, with the server's reply as the reason.
 *
 * Exactly once: the claim makes one attempt at a time, and a message is re-sent only when its
 * attempt's outcome was never recorded. The one window left is a process that dies between the
 * SMTP server's "250 accepted" and the write that records it; the retry then carries the same
 * Message-ID, which mail clients use to drop the duplicate (docs/decisions.md "Mail").
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { AppContext } from '../../context.js';
import { BACKLOG_TICK_MS, startTicker, type JobEngine, type JobQueue, type Ticker } from '../../jobs/job-engine.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { encryptSecret } from '../../lib/secrets.js';
import * as repo from '../../repositories/mail.repository.js';
import { composeMail, type ComposedMail } from './compose.js';
import { messageIdOf } from './mail.service.js';

/** An attempt silent this long belongs to a dead process: another may take the message. */
export const MAIL_STALE_MS = 10 * 60 * 1000;
/** How long temporary failures are retried, from when the message was written. */
export const MAIL_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
const FIRST_RETRY_MS = 30 * 1000;
const LONGEST_RETRY_MS = 60 * 60 * 1000;
/** Messages one tick hands on, and digests it gathers. */
const TICK_BATCH = 200;
/** How soon a request that wrote mail is followed by a tick. */
const WAKE_TICK_MS = 50;

/** The delay before retry `attempt` (1, 2, ...): 30 s doubling, at most an hour. */
export function retryDelayMs(attempt: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1));
}

/** A mail on its way out: what a transport sends. */
export interface OutgoingMail extends ComposedMail {
  from: string;
  to: string;
  messageId: string;
}

/** Where mail goes: SMTP, or nowhere (the outbox keeps it). */
export interface MailTransport {
  /** Resolves when the server accepted the message; rejects with the server's reply otherwise. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** Whether an SMTP failure may pass: a 4xx reply, or no reply at all (connection, timeout). */
export function isTemporaryMailError(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code !== 'number' || (code >= 400 && code < 500);
}

/**
 * SMTP through Nodemailer: a pool of up to two connections kept open between messages (a TLS
 * handshake per message would cost more than the message), with timeouts so a stalled server
 * cannot hold a job forever. Nodemailer is loaded, and the pool made, with the first message.
 */
export function smtpTransport(url: string): MailTransport {
  let transporter: Promise<Transporter> | null = null;
  const pool = (): Promise<Transporter> => {
    transporter ??= import('nodemailer').then(({ createTransport }) =>
      createTransport({
        pool: true,
        maxConnections: 2,
        url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      }),
    );
    return transporter;
  };
  return {
    async send(mail) {
      const smtp = await pool();
      await smtp.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `<${mail.messageId}>`,
        headers: {
          'Auto-Submitted': 'auto-generated',
          ...(mail.unsubscribeUrl ? { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}),
        },
        ...(mail.unsubscribeUrl ? { list: { unsubscribe: mail.unsubscribeUrl } } : {}),
        attachments: mail.attachments.map((a) => ({
          filename: a.filename,
          content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength),
          contentType: a.contentType,
          ...(a.cid ? { cid: a.cid, contentDisposition: 'inline' as const } : {}),
        })),
      });
    },
    close() {
      void transporter?.then((made) => {
        made.close();
      });
    },
  };
}

export interface Mailer {
  /** Gathers due digests and batches and queues every due message; returns how many were handed on. */
  tick(): Promise<number>;
  /** Works one message (what the job engine calls). */
  execute(messageId: string): Promise<void>;
  /** Sends every due message in this process, without the job engine (tests, scripts); returns how many were worked. */
  drain(): Promise<number>;
  /** A request wrote mail: tick soon (in a process that runs the job engine). */
  wake(): void;
  readonly queue: JobQueue<{ messageId: string }>;
  /** Where the mailer writes its lines (the app's logger, once there is one). */
  useLog(log: FastifyBaseLogger): void;
  start(engine: JobEngine, intervalMs: number): void;
  /** Stops ticking (before the job engine stops). */
  stop(): void;
  /** Closes the SMTP connections (when the app closes). */
  close(): void;
}

export function createMailer(ctx: Omit<AppContext, 'scheduler' | 'mailer' | 'webhooks'>, transport: MailTransport | null): Mailer {
  let engine: JobEngine | null = null;
  let ticker: Ticker | null = null;
  let logger: FastifyBaseLogger | null = null;

  const queue: JobQueue<{ messageId: string }> = {
    name: 'mail-send',
    expireInSeconds: MAIL_STALE_MS / 1000,
    // Retries are the message row's own (dueAt); a job that throws is retried by the next tick.
    retryLimit: 0,
    retryDelaySeconds: 30,
    batchSize: 10,
    handle: ({ messageId }) => execute(messageId),
  };

  /** Gathers each due digest in a transaction of its own: the digest row and its items move together. */
  async function gatherDigests(now: Date): Promise<void> {
    const users = await repo.dueDigestRecipients(ctx.db, now, TICK_BATCH);
    for (const userId of users) {
      await ctx.db
        .transaction(async (tx) => {
          const [recipient] = await repo.mailRecipients(tx, [userId]);
          if (!recipient) return;
          const id = newId();
          await repo.insertMessages(tx, [
            {
              id,
              kind: 'digest',
              recipientUserId: userId,
              toAddress: recipient.email,
              status: 'queued',
              dueAt: now,
              messageId: messageIdOf(id, ctx.config.publicBaseUrl),
              createdAt: now,
            },
          ]);
          if ((await repo.gatherDigest(tx, userId, id, now)) === 0) throw new NothingToGather();
        })
        .catch((error: unknown) => {
          if (!(error instanceof NothingToGather)) throw error;
        });
    }
  }

  function logTickFailure(error: unknown): void {
    logger?.error({ err: error }, 'mail tick failed');
  }

  async function dueIds(): Promise<string[]> {
    const now = ctx.clock.now();
    await gatherDigests(now);
    return repo.dueMessages(ctx.db, now, new Date(now.getTime() - MAIL_STALE_MS), TICK_BATCH);
  }

  async function tick(): Promise<number> {
    const ids = await dueIds();
    await engine?.sendAll(
      queue,
      ids.map((id) => ({ data: { messageId: id }, key: id })),
    );
    // A full batch may have left due messages behind: the rest go once the jobs have taken these
    // (job-engine.ts BACKLOG_TICK_MS). Digests need no condition of their own: each one this tick
    // gathered is a due message before it read them.
    if (ids.length === TICK_BATCH) ticker?.soon(BACKLOG_TICK_MS);
    return engine ? ids.length : 0;
  }

  async function execute(messageId: string): Promise<void> {
    const now = ctx.clock.now();
    const message = await repo.claimMessage(ctx.db, messageId, now, new Date(now.getTime() - MAIL_STALE_MS));
    if (!message) return;
    const attempt = message.attempts;
    const finish = (outcome: repo.MessageOutcome) => recordOutcome(message, attempt, outcome);

    let composed: ComposedMail | null;
    try {
      composed = await composeMail(ctx as AppContext, message);
    } catch (error) {
      // A PDF that could not be made now (a full render queue) is worth another try later.
      if (error instanceof AppError && error.code === 'unavailable') {
        await retryOrFail(message, attempt, error.message, ctx.clock.now());
        return;
      }
      await finish({ status: 'failed', error: 'The mail could not be composed.' });
      throw error;
    }
    if (!composed) {
      await finish({ status: 'failed', error: 'What this mail was about was deleted before it was sent.' });
      return;
    }
    const body = encryptSecret(
      ctx.shareKey,
      JSON.stringify({
        text: composed.text,
        html: composed.html,
        attachments: composed.attachments.filter((a) => !a.cid).map((a) => a.filename),
      }),
    );
    const record = { subject: composed.subject, body };
    if (!transport) {
      // One line, without the mail's links: they may carry a share token or a set-password secret.
      logger?.info({ mail: message.id, kind: message.kind }, 'mail kept in the outbox (no SMTP_URL)');
      await finish({ ...record, status: 'kept', sentAt: ctx.clock.now(), error: null });
      return;
    }
    try {
      await transport.send({ ...composed, from: ctx.config.mailFrom, to: message.toAddress, messageId: message.messageId });
    } catch (error) {
      const reason = smtpReason(error);
      if (isTemporaryMailError(error)) await retryOrFail(message, attempt, reason, ctx.clock.now(), record);
      else await finish({ ...record, status: 'failed', error: reason });
      logger?.warn({ mail: message.id, kind: message.kind, attempt, reason }, 'mail not accepted');
      return;
    }
    await finish({ ...record, status: 'sent', sentAt: ctx.clock.now(), error: null });
  }

  async function retryOrFail(
    message: repo.MessageRow,
    attempt: number,
    reason: string,
    now: Date,
    record: repo.MessageOutcome = {},
  ): Promise<void> {
    const next = new Date(now.getTime() + retryDelayMs(attempt));
    const giveUp = next.getTime() - message.createdAt.getTime() > MAIL_RETRY_WINDOW_MS;
    const outcome: repo.MessageOutcome = giveUp
      ? { ...record, status: 'failed', error: `Gave up after 24 hours of temporary failures. Last: ${reason}`.slice(0, 2000) }
      : { ...record, status: 'queued', dueAt: next, error: reason };
    await recordOutcome(message, attempt, outcome);
  }

  /** Records an attempt's outcome if the attempt still holds the message, and counts it. */
  async function recordOutcome(message: repo.MessageRow, attempt: number, outcome: repo.MessageOutcome): Promise<void> {
    if (!(await repo.finishMessage(ctx.db, message.id, attempt, outcome))) return;
    ctx.metrics.mailAttempts.inc({ kind: message.kind, outcome: outcome.status === 'queued' ? 'retry' : (outcome.status ?? 'failed') });
  }

  async function drain(): Promise<number> {
    let worked = 0;
    // Bounded: a message that stays due after its attempt (a retry due at once) is not looped on.
    for (let round = 0; round < 5; round++) {
      const ids = await dueIds();
      if (ids.length === 0) break;
      for (const id of ids) await execute(id);
      worked += ids.length;
    }
    return worked;
  }

  return {
    tick,
    execute,
    drain,
    queue,
    wake() {
      ticker?.soon(WAKE_TICK_MS);
    },
    useLog(log) {
      logger = log;
    },
    start(jobs, intervalMs) {
      engine = jobs;
      ticker = startTicker(tick, intervalMs, logTickFailure);
    },
    stop() {
      ticker?.stop();
      ticker = null;
      engine = null;
    },
    close() {
      transport?.close();
    },
  };
}

class NothingToGather extends Error {}

/** The server's reply (or the connection's failure), short enough to record. */
function smtpReason(error: unknown): string {
  const { response, message } = error as { response?: unknown; message?: unknown };
  const text = typeof response === 'string' ? response : typeof message === 'string' ? message : 'unknown error';
  return text.slice(0, 500);
}
