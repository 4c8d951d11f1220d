/**
 * Webhook events (delivery.md §4; docs/api.md "Webhooks"): what each event says, and writing its
 * deliveries in the transaction of the change it reports, so an event exists exactly when its
 * change committed. The caller hands the returned delivery ids to `ctx.webhooks.enqueue` once its
 * transaction has committed; the dispatcher's tick finds any whose job was lost.
 *
 * A payload carries ids, names and web-app paths (made absolute when sent), never a share token,
 * a passcode or a rendered document.
 */
import type { Db } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import * as repo from '../../repositories/webhooks.repository.js';
import { reportEventWorkspaces } from '../access/access.js';

export const WEBHOOK_EVENTS = [
  'report.version.created',
  'report.sent',
  'schedule.run.finished',
  'comment.created',
  'share.viewed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** An event's `data`; `links` holds web-app paths, made absolute with PUBLIC_BASE_URL when sent. */
export interface EventData {
  [key: string]: unknown;
  links: Record<string, string>;
}

/** The web app's page of a report. */
export const reportPath = (reportId: string) => `/app/reports/${reportId}`;

/**
 * Writes one delivery of the event per active endpoint of `workspaceIds` that takes `type`, in the
 * caller's transaction; the ids to enqueue once it commits. Nothing is written (and nothing
 * asked) when no workspace hears of the event.
 */
export async function enqueueWebhookEvent(
  tx: Db,
  workspaceIds: readonly string[],
  type: WebhookEventType,
  data: EventData,
  now: Date,
): Promise<string[]> {
  if (workspaceIds.length === 0) return [];
  const endpoints = await repo.subscribedEndpoints(tx, workspaceIds, type);
  if (endpoints.length === 0) return [];
  const eventId = newId();
  return repo.insertDeliveries(
    tx,
    endpoints.map((endpoint) => ({
      id: newId(),
      endpointId: endpoint.id,
      eventType: type,
      eventId,
      payload: data,
      status: 'queued',
      nextAttemptAt: now,
      createdAt: now,
    })),
  );
}

type ReportKeys = { id: string; name: string; workspaceIds: string[]; version: number; currentContentId: string };

const reportData = (report: Pick<ReportKeys, 'id' | 'name'>, version: number | null, reportContentId: string | null) => ({
  id: report.id,
  name: report.name,
  version,
  reportContentId,
});

/** `report.version.created`: a report's new version (created, edited or rendered by its schedule). */
export function reportVersionCreated(
  tx: Db,
  report: ReportKeys & { periodFrom: string; periodTo: string },
  trigger: 'create' | 'edit' | 'schedule',
  now: Date,
): Promise<string[]> {
  return enqueueWebhookEvent(
    tx,
    reportEventWorkspaces(report),
    'report.version.created',
    {
      report: { ...reportData(report, report.version, report.currentContentId), periodFrom: report.periodFrom, periodTo: report.periodTo },
      trigger,
      links: { report: reportPath(report.id) },
    },
    now,
  );
}

/** `report.sent`: a version delivered to inboxes (a send, or a scheduled run's). */
export function reportSent(
  tx: Db,
  report: ReportKeys,
  send: { id: string; recipients: number; sendToSelf: boolean; sender: { id: string; name: string } },
  now: Date,
): Promise<string[]> {
  return enqueueWebhookEvent(
    tx,
    reportEventWorkspaces(report),
    'report.sent',
    {
      report: reportData(report, report.version, report.currentContentId),
      send: { id: send.id, recipients: send.recipients, sendToSelf: send.sendToSelf, sentAt: now.toISOString() },
      sender: send.sender,
      links: { report: reportPath(report.id) },
    },
    now,
  );
}

/** `schedule.run.finished`: a run recorded as succeeded, partial, failed or skipped. */
export async function scheduleRunFinished(tx: Db, runId: string, now: Date): Promise<string[]> {
  const run = await repo.runOfReport(tx, runId);
  if (!run) return [];
  return enqueueWebhookEvent(
    tx,
    reportEventWorkspaces(run),
    'schedule.run.finished',
    {
      run: {
        id: run.id,
        trigger: run.trigger,
        status: run.status,
        scheduledFor: run.scheduledFor.toISOString(),
        finishedAt: run.finishedAt?.toISOString() ?? null,
        delivered: run.delivered,
        error: run.error,
      },
      report: reportData({ id: run.reportId, name: run.name }, run.version, run.reportContentId),
      links: { report: reportPath(run.reportId) },
    },
    now,
  );
}

/** `comment.created`: a comment on a version's discussion (its author and ids; not its text). */
export async function commentCreated(
  tx: Db,
  comment: { id: string; reportContentId: string; authorUserId: string | null; authorName: string },
  now: Date,
): Promise<string[]> {
  const report = await repo.reportOfContent(tx, comment.reportContentId);
  if (!report) return [];
  return enqueueWebhookEvent(
    tx,
    reportEventWorkspaces(report),
    'comment.created',
    {
      comment: { id: comment.id, createdAt: now.toISOString() },
      author: { id: comment.authorUserId, name: comment.authorName },
      report: reportData({ id: report.reportId, name: report.name }, report.version, report.reportContentId),
      links: { report: reportPath(report.reportId) },
    },
    now,
  );
}

/**
 * `share.viewed`: a view of a link, at most one event per link an hour. The database decides
 * (webhooks.repository.ts `markShareView`), so processes sharing it agree; `undefined` when this
 * view makes no event. The link's token is never part of it.
 */
export async function shareViewed(
  db: Db,
  share: { id: string; reportContentId: string; follows: string },
  now: Date,
): Promise<{ deliveries: string[]; nextEventAt: Date }> {
  return db.transaction(async (tx) => {
    const mark = await repo.markShareView(tx, share.id, now);
    const nextEventAt = new Date(mark.eventAt.getTime() + 60 * 60 * 1000);
    if (!mark.marked) return { deliveries: [], nextEventAt };
    const report = await repo.reportOfContent(tx, share.reportContentId);
    if (!report) return { deliveries: [], nextEventAt };
    const deliveries = await enqueueWebhookEvent(
      tx,
      reportEventWorkspaces(report),
      'share.viewed',
      {
        share: { id: share.id, follows: share.follows, viewedAt: now.toISOString() },
        report: reportData({ id: report.reportId, name: report.name }, report.version, report.reportContentId),
        links: { report: reportPath(report.reportId) },
      },
      now,
    );
    return { deliveries, nextEventAt };
  });
}
