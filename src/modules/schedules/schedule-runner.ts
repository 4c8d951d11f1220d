/**
 * The runs of schedules (delivery.md §1): finding due occurrences, and running each once.
 *
 * - `tick` claims the occurrences due by the clock: in one transaction per batch it locks due
 *   schedules (another process skips them), writes one run per occurrence (a unique index on
 *   report and instant makes a second write of the same occurrence a no-op) and moves the
 *   schedule's next run on. Occurrences missed by more than 24 hours are written as skipped.
 *   Each queued run is handed to the job engine. Every process ticks; none needs to be special.
 * - `execute` works one run: it takes the run for one attempt in the database, renders the
 *   report as an edit would, and in one transaction appends the version, delivers it to the
 *   recipients who are still candidates and finishes the run, but only if its attempt still
 *   holds the run. A crash anywhere leaves either nothing or all of it; the job engine retries
 *   the job, and a later attempt takes a run whose attempt went silent for RUN_STALE_MS.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Actor, AppContext } from '../../context.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { DatePreset } from '../../render/date-range.js';
import { startTicker, type JobEngine, type JobQueue, type Ticker } from '../../jobs/job-engine.js';
import { isActiveOwner } from '../access/access.js';
import { findReport } from '../../repositories/reports.repository.js';
import { findUser } from '../../repositories/users.repository.js';
import * as repo from '../../repositories/schedules.repository.js';
import { renderScheduledVersion } from '../reports/reports.service.js';
import { deliverVersion, refusedRecipients } from '../sending/sending.service.js';
import { linkForAddress } from '../shares/shares.service.js';
import { addressesToMail, mailAddress, mailRunProblem } from '../mail/mail.service.js';
import { nextOccurrence, occurrencesBetween } from './occurrences.js';
import { ruleOf } from './schedules.service.js';
import { scheduleRunFinished } from '../webhooks/webhook-events.js';

/** An occurrence later than this when first seen is recorded as skipped, not made up (delivery.md §1). */
export const MAKE_UP_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Occurrences one schedule records per tick (a schedule paused for years does not write thousands). */
const MAX_OCCURRENCES_PER_TICK = 100;
/** Schedules claimed per transaction. */
const CLAIM_BATCH = 50;
/** A running attempt silent for this long belongs to a dead process: another may take the run. */
export const RUN_STALE_MS = 15 * 60 * 1000;
/** Attempts of one run before it is recorded as failed. */
export const MAX_RUN_ATTEMPTS = 5;

export interface Scheduler {
  /** Claims the occurrences due now and queues their runs; also re-queues runs whose job was lost. */
  tick(): Promise<{ queued: number; skipped: number }>;
  /** Works one run (what the job engine calls). */
  execute(runId: string): Promise<void>;
  /** Hands a queued run to the job engine (nothing when this process runs no engine). */
  enqueue(runId: string): Promise<void>;
  /** The job queue this scheduler works, for the engine to register. */
  readonly queue: JobQueue<{ runId: string }>;
  /** Starts ticking every `intervalMs` with the engine that works the runs. */
  start(engine: JobEngine, intervalMs: number, log: FastifyBaseLogger): void;
  stop(): void;
}

/** The owner as the actor of a run: their own rights, as when they edit the report. */
const ownerActor = (user: Actor['user']): Actor => ({
  user,
  tokenId: null,
  sessionId: null,
  scopes: ['read', 'write'],
  tokenExpiresAt: null,
});

/** The temporary refusals a run waits out (the owner's rate budget, a full render queue). */
const isTemporary = (error: unknown) => error instanceof AppError && (error.code === 'rate_limited' || error.code === 'unavailable');

/** What a refusal says, with its field errors, as a run's `error`. */
function reasonOf(error: AppError): string {
  const details = (error.errors ?? []).map((e) => e.message);
  return [error.message, ...details].join(' ').slice(0, 2000);
}

/** What a run that renders nothing records: its status and, for most, why. */
type Outcome = Partial<repo.RunOutcome> & Pick<repo.RunOutcome, 'status'>;

/** Thrown inside a run's transaction when a later attempt holds the run: what this one made is rolled back. */
class RunTakenOver extends Error {}

export function createScheduler(ctx: Omit<AppContext, 'scheduler'>): Scheduler {
  let engine: JobEngine | null = null;
  let ticker: Ticker | null = null;

  const queue: JobQueue<{ runId: string }> = {
    name: 'schedule-run',
    expireInSeconds: RUN_STALE_MS / 1000,
    retryLimit: MAX_RUN_ATTEMPTS,
    retryDelaySeconds: 30,
    handle: ({ runId }) => execute(runId),
  };

  async function enqueue(runId: string): Promise<void> {
    await engine?.send(queue, { runId }, runId);
  }

  async function tick(): Promise<{ queued: number; skipped: number }> {
    const now = ctx.clock.now();
    const queued: string[] = [];
    let skipped = 0;
    for (;;) {
      const claimed = await ctx.db.transaction(async (tx) => {
        const due = await repo.lockDueSchedules(tx, now, CLAIM_BATCH);
        const runs: repo.RunInsert[] = [];
        for (const { schedule, timezone } of due) {
          const rule = ruleOf(schedule);
          const first = schedule.nextRunAt ?? now;
          const occurrences = [first, ...occurrencesBetween(rule, timezone, first, now, MAX_OCCURRENCES_PER_TICK - 1)];
          for (const at of occurrences) {
            const late = now.getTime() - at.getTime() > MAKE_UP_WINDOW_MS;
            runs.push({
              id: newId(),
              reportId: schedule.reportId,
              trigger: 'schedule',
              scheduledFor: at,
              revision: schedule.revision,
              status: late ? 'skipped' : 'queued',
              queuedAt: now,
              ...(late ? { finishedAt: now, error: 'Missed: no Chronicle process was running within 24 hours of this time.' } : {}),
            });
          }
          await repo.setNextRun(tx, schedule.reportId, nextOccurrence(rule, timezone, now));
        }
        return { count: due.length, inserted: await repo.insertRuns(tx, runs) };
      });
      for (const run of claimed.inserted) {
        if (run.status === 'queued') queued.push(run.id);
        else skipped++;
      }
      if (claimed.count < CLAIM_BATCH) break;
    }
    const stranded = await repo.strandedRuns(ctx.db, new Date(now.getTime() - RUN_STALE_MS), CLAIM_BATCH);
    for (const id of [...queued, ...stranded.map((r) => r.id)]) await enqueue(id);
    return { queued: queued.length, skipped };
  }

  /** Why a run taken by `attempt` must not render: the outcome to record instead, or null to go on. */
  async function whyNotRun(run: repo.RunRow, attempt: number): Promise<Outcome | null> {
    if (attempt > MAX_RUN_ATTEMPTS) return { status: 'failed', error: `Gave up after ${MAX_RUN_ATTEMPTS} attempts; nothing was sent.` };
    const schedule = await repo.findSchedule(ctx.db, run.reportId);
    const report = await findReport(ctx.db, run.reportId);
    if (!schedule || !report) return { status: 'skipped', error: 'The schedule was deleted before this run.' };
    if (run.trigger === 'schedule' && !schedule.active) return { status: 'skipped', error: 'The schedule was paused before this run.' };
    if (schedule.revision !== run.revision) {
      return { status: 'skipped', error: 'The schedule or the report changed after this run was queued; the next run follows the change.' };
    }
    const owner = await findUser(ctx.db, report.ownerUserId);
    if (owner && !(await isActiveOwner(ctx.db, ownerActor(owner), report))) {
      return {
        status: 'failed',
        error: "The report's owner is no longer a member of every workspace it covers; nothing was rendered or sent.",
      };
    }
    return null;
  }

  async function execute(runId: string): Promise<void> {
    const now = ctx.clock.now();
    const run = await repo.claimRun(ctx.db, runId, now, new Date(now.getTime() - RUN_STALE_MS));
    if (!run) return;
    const attempt = run.attempts;
    // The webhook deliveries of what the run records, enqueued once it has committed.
    const webhooks: string[] = [];
    // A run that renders nothing; a failed one is mailed to the owner in the same transaction.
    const finish = async (outcome: Outcome) => {
      await ctx.db.transaction(async (tx) => {
        const now = ctx.clock.now();
        const finished = await repo.finishRun(tx, run.id, attempt, {
          finishedAt: now,
          reportContentId: null,
          version: null,
          sendId: null,
          delivered: 0,
          emailed: 0,
          skipped: [],
          error: null,
          ...outcome,
        });
        if (finished) webhooks.push(...(await scheduleRunFinished(tx, run.id, now)));
        const owner = outcome.status === 'failed' && finished ? (await findReport(tx, run.reportId))?.ownerUserId : undefined;
        if (owner) await mailRunProblem(tx, ctx, now, run.id, owner);
      });
      await ctx.webhooks.enqueue(webhooks);
      ctx.mailer.wake();
    };

    const skipReason = await whyNotRun(run, attempt);
    if (skipReason) {
      await finish(skipReason);
      return;
    }
    const report = await findReport(ctx.db, run.reportId);
    const schedule = await repo.findSchedule(ctx.db, run.reportId);
    const owner = report && (await findUser(ctx.db, report.ownerUserId));
    if (!report || !schedule || !owner) return;
    const actor = ownerActor(owner);

    try {
      await renderScheduledVersion(ctx as AppContext, actor, report.id, schedule.datePreset as DatePreset, async (tx, version) => {
        const refused = await refusedRecipients(tx, version, actor, schedule.recipientUserIds, 'people');
        const teammates = schedule.recipientUserIds.filter((id) => !refused.some((r) => r.userId === id));
        const names = await repo.userNames(
          tx,
          refused.map((r) => r.userId),
        );
        const skipped = refused.map(({ userId, reason }) => ({ userId, name: names.get(userId) ?? 'A deleted user', reason }));
        const addresses = await addressesToMail(tx, report.id, schedule.emails);
        const sendId =
          teammates.length > 0 || schedule.sendToSelf || addresses.length > 0
            ? await deliverVersion(
                tx,
                ctx,
                {
                  report: version,
                  sender: owner,
                  teammates,
                  sendToSelf: schedule.sendToSelf,
                  message: schedule.message,
                  sentAt: ctx.clock.now(),
                },
                webhooks,
              )
            : null;
        for (const address of addresses) {
          const shareId = await linkForAddress(tx, ctx, version, address, schedule.emailLink === 'latest' ? 'latest' : 'version');
          await mailAddress(tx, ctx, ctx.clock.now(), {
            address,
            sendId,
            runId: run.id,
            shareId,
            contentId: version.currentContentId,
            attachPdf: schedule.attachPdf,
            text: schedule.message,
          });
        }
        const finished = await repo.finishRun(tx, run.id, attempt, {
          status: skipped.length > 0 ? 'partial' : 'succeeded',
          finishedAt: ctx.clock.now(),
          reportContentId: version.currentContentId,
          version: version.version,
          sendId,
          delivered: teammates.length,
          emailed: addresses.length,
          skipped,
          error: null,
        });
        if (finished && skipped.length > 0) await mailRunProblem(tx, ctx, ctx.clock.now(), run.id, owner.id);
        if (!finished) throw new RunTakenOver();
        webhooks.push(...(await scheduleRunFinished(tx, run.id, ctx.clock.now())));
      });
      await ctx.webhooks.enqueue(webhooks);
      ctx.metrics.scheduleRuns.inc({ status: 'succeeded' });
      ctx.mailer.wake();
    } catch (error) {
      // What the rolled-back transaction recorded is gone, its webhook deliveries too.
      webhooks.length = 0;
      if (error instanceof RunTakenOver) return;
      if (isTemporary(error) && attempt < MAX_RUN_ATTEMPTS) {
        await repo.requeueRun(ctx.db, run.id, attempt);
        throw error;
      }
      if (!(error instanceof AppError)) throw error;
      await finish({ status: 'failed', error: reasonOf(error) });
      ctx.metrics.scheduleRuns.inc({ status: 'failed' });
    }
  }

  return {
    tick,
    execute,
    enqueue,
    queue,
    start(jobs, intervalMs, log) {
      engine = jobs;
      ticker = startTicker(tick, intervalMs, (error) => {
        log.error({ err: error }, 'schedule tick failed');
      });
    },
    stop() {
      ticker?.stop();
      ticker = null;
      engine = null;
    },
  };
}
