/** SQL of public share links and of what the public viewer reads. */
import { and, count, desc, eq, gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { reportContents, reportDatasets, reports, shares, users, workspaceLogos, workspaces } from '../db/schema.js';
import { onlyRow, rowsOf } from '../db/rows.js';
import { prepared } from '../db/prepared.js';
import { totalOf, type Page, type Paged } from '../lib/paging.js';

export type ShareRow = typeof shares.$inferSelect;

export async function insertShare(db: Db, row: typeof shares.$inferInsert): Promise<ShareRow> {
  return onlyRow(await db.insert(shares).values(row).returning());
}

export async function findShare(db: Db, id: string): Promise<ShareRow | undefined> {
  const [row] = await db.select().from(shares).where(eq(shares.id, id));
  return row;
}

/** The live following link a schedule mints for an outside address of the report, if there is one. */
export async function findAddressFollowingShare(db: Db, reportId: string, address: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: shares.id })
    .from(shares)
    .where(and(eq(shares.reportId, reportId), eq(shares.emailAddress, address), eq(shares.follows, 'latest'), isNull(shares.revokedAt)));
  return row?.id;
}

/** One page of a filtered list of links, newest first, with the size of the whole list. */
async function pageOfShares(db: Db, where: SQL | undefined, page: Page): Promise<Paged<ShareRow>> {
  const rows = await db
    .select({ share: shares, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(shares)
    .where(where)
    .orderBy(desc(shares.createdAt), desc(shares.id))
    .limit(page.limit)
    .offset(page.offset);
  const total = await totalOf(rows, page, async () => (await db.select({ n: count() }).from(shares).where(where))[0]?.n ?? 0);
  return { items: rows.map((r) => r.share), total };
}

/** Links `creatorUserId` minted on the report (over any of its versions), newest first. */
export function listReportShares(db: Db, reportId: string, creatorUserId: string, page: Page): Promise<Paged<ShareRow>> {
  return pageOfShares(db, and(eq(shares.reportId, reportId), eq(shares.createdByUserId, creatorUserId)), page);
}

/**
 * Links `creatorUserId` minted on one content version, newest first, whichever message or report
 * they were minted from. `reportId` narrows the scan to the (report, creator) index.
 */
export function listVersionShares(
  db: Db,
  version: { reportId: string; reportContentId: string },
  creatorUserId: string,
  page: Page,
): Promise<Paged<ShareRow>> {
  return pageOfShares(
    db,
    and(
      eq(shares.reportId, version.reportId),
      eq(shares.createdByUserId, creatorUserId),
      eq(shares.reportContentId, version.reportContentId),
    ),
    page,
  );
}

/**
 * Revokes a link of its creator in one statement; `coalesce` keeps the first revocation instant,
 * so a repeated or concurrent revoke changes nothing. undefined: no such link of this creator.
 */
export async function revokeShare(db: Db, id: string, creatorUserId: string, now: Date): Promise<ShareRow | undefined> {
  const [row] = await db
    .update(shares)
    .set({ revokedAt: sql`coalesce(${shares.revokedAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(shares.id, id), eq(shares.createdByUserId, creatorUserId)))
    .returning();
  return row;
}

/** The sealed token of one link, any link; undefined when there are none. */
export async function findAnyEncryptedToken(db: Db): Promise<string | undefined> {
  const [row] = await db.select({ tokenEncrypted: shares.tokenEncrypted }).from(shares).limit(1);
  return row?.tokenEncrypted;
}

export async function findShareByTokenHash(db: Db, tokenHash: string): Promise<ShareRow | undefined> {
  const [row] = await db.select().from(shares).where(eq(shares.tokenHash, tokenHash));
  return row;
}

/** The version a link serves now (for a link that follows the newest version); undefined: no such link. */
export async function servedContentOf(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ contentId: shares.reportContentId }).from(shares).where(eq(shares.id, id));
  return row?.contentId;
}

/** Whether the link still serves at `now`: not revoked, not expired. */
export async function shareServes(db: Db, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .select({ id: shares.id })
    .from(shares)
    .where(and(eq(shares.id, id), servesAt(now)));
  return rows.length > 0;
}

/** The link still serves at `now`: not revoked, not expired. */
function servesAt(now: Date) {
  return and(isNull(shares.revokedAt), or(isNull(shares.expiresAt), gt(shares.expiresAt, now)));
}

export interface AttemptWindow {
  /** Attempts in the current window including this one, capped at `limit + 1`. */
  attempts: number;
  windowStartedAt: Date;
}

export interface AttemptLimits {
  windowMs: number;
  /** Wrong passcodes one client address may try on one link per window. */
  perClient: number;
  /** Wrong passcodes all addresses together may try on one link per window: the ceiling... */
  perLink: number;
  /** ...past which each client address may try only this many (the reader who was not guessing still gets in). */
  perClientPastCeiling: number;
}

export type AttemptBooking =
  /** The link does not serve (revoked, expired, deleted). */
  | { kind: 'gone' }
  /** The attempt may go ahead; `window` is the client's window (a correct passcode refunds it). */
  | { kind: 'booked'; client: AttemptWindow; link: AttemptWindow }
  /** Refused without checking the passcode: this client, or the link as a whole, is over its limit. */
  | { kind: 'limited'; until: Date };

interface BookingRow {
  client_attempts: number;
  client_window: Date | string;
  link_attempts: number | null;
  link_window: Date | string | null;
}

const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

/**
 * Books one passcode attempt before the passcode is checked, in ONE statement, per client address
 * and per link (docs/operations.md "Passcode attempts"). The client's row counts first; only an
 * attempt the client may make counts against the link's ceiling, so a client that is refused
 * cannot use up the link's allowance for everyone else. A window older than `windowMs` starts
 * over at 1; counts are capped at limit + 1, so a flood cannot overflow them. Both rows are
 * written only while the link serves at `now`. Other clients' rows of the link whose window has
 * passed are deleted on the way, so the table holds only the addresses of the current window.
 * Past the link's ceiling the link is not closed: a client may still make `perClientPastCeiling`
 * attempts, so addresses that guessed cannot lock it for a reader who did not.
 */
export async function bookPasscodeAttempt(
  db: Db,
  shareId: string,
  clientKey: string,
  now: Date,
  limits: AttemptLimits,
): Promise<AttemptBooking> {
  const at = now.toISOString();
  const staleBefore = new Date(now.getTime() - limits.windowMs).toISOString();
  const result = await db.execute(sql`
    with stale as (
      delete from passcode_attempts
      where share_id = ${shareId} and client_key <> ${clientKey} and window_started_at <= ${staleBefore}::timestamptz
    ), c as (
      insert into passcode_attempts as a (share_id, client_key, attempts, window_started_at)
      select s.id, ${clientKey}, 1, ${at}::timestamptz from shares s
      where s.id = ${shareId} and s.revoked_at is null and (s.expires_at is null or s.expires_at > ${at}::timestamptz)
      on conflict (share_id, client_key) do update set
        attempts = case when a.window_started_at <= ${staleBefore}::timestamptz then 1
          else least(a.attempts + 1, ${limits.perClient + 1}::int) end,
        window_started_at = case when a.window_started_at <= ${staleBefore}::timestamptz then ${at}::timestamptz
          else a.window_started_at end
      returning attempts, window_started_at
    ), l as (
      update shares s set
        failed_attempts = case when s.failed_window_started_at is null or s.failed_window_started_at <= ${staleBefore}::timestamptz then 1
          else least(s.failed_attempts + 1, ${limits.perLink + 1}::int) end,
        failed_window_started_at = case when s.failed_window_started_at is null or s.failed_window_started_at <= ${staleBefore}::timestamptz
          then ${at}::timestamptz else s.failed_window_started_at end
      where s.id = ${shareId} and (select attempts from c) <= ${limits.perClient}
      returning s.failed_attempts, s.failed_window_started_at
    )
    select c.attempts as client_attempts, c.window_started_at as client_window,
      l.failed_attempts as link_attempts, l.failed_window_started_at as link_window
    from c left join l on true`);
  const [row] = rowsOf<BookingRow>(result);
  if (!row) return { kind: 'gone' };
  const client = { attempts: row.client_attempts, windowStartedAt: asDate(row.client_window) };
  if (client.attempts > limits.perClient) return { kind: 'limited', until: new Date(client.windowStartedAt.getTime() + limits.windowMs) };
  if (row.link_attempts === null || row.link_window === null) return { kind: 'gone' };
  const link = { attempts: row.link_attempts, windowStartedAt: asDate(row.link_window) };
  if (link.attempts > limits.perLink && client.attempts > limits.perClientPastCeiling) {
    // Either window ending lets this client try again.
    const until = Math.min(link.windowStartedAt.getTime(), client.windowStartedAt.getTime()) + limits.windowMs;
    return { kind: 'limited', until: new Date(until) };
  }
  return { kind: 'booked', client, link };
}

/** Gives back the client's attempt booked in `windowStartedAt` (a correct passcode costs nothing). */
export async function refundClientAttempt(db: Db, shareId: string, clientKey: string, windowStartedAt: Date): Promise<void> {
  await db.execute(sql`
    update passcode_attempts set attempts = attempts - 1
    where share_id = ${shareId} and client_key = ${clientKey}
      and window_started_at = ${windowStartedAt.toISOString()}::timestamptz and attempts > 0`);
}

/**
 * What a share page's look depends on besides its version: the branding version and accent colour
 * of the report's first workspace (docs/api.md "Branding"). The statements that count a view
 * return it, so a page cached under an older stamp is rendered again, with no statement of its own.
 */
export interface BrandingStamp {
  version: number;
  accentColor: string | null;
}

/**
 * What counting a view answers: the branding stamp of the page, and the version the link serves
 * now, which for a link that follows the newest version may be newer than the one it was read
 * with; for such a link also when the report's schedule runs next, and in which zone.
 */
export interface CountedView extends BrandingStamp {
  reportContentId: string;
  /** The number of the version the link serves now. */
  servedVersion: number;
  next: { at: Date; timezone: string } | null;
}

interface CountedRow {
  branding: string | null;
  content_id: string;
  served_version: number;
  next_run_at: string | Date | null;
  timezone: string | null;
}

function countedView(row: CountedRow): CountedView {
  return {
    ...parseBrandingStamp(row.branding),
    reportContentId: row.content_id,
    servedVersion: row.served_version,
    next: row.next_run_at !== null && row.timezone !== null ? { at: new Date(row.next_run_at), timezone: row.timezone } : null,
  };
}

/** The columns a view count returns: the stamp, the served version, and a following link's next run. */
function countedColumns(
  reportId: SQL | typeof shares.reportId,
  contentId: SQL | typeof shares.reportContentId,
  version: SQL | typeof shares.version,
  follows: SQL | typeof shares.follows,
) {
  return {
    branding: brandingStampOf(reportId),
    content_id: sql<string>`${contentId}`,
    served_version: sql<number>`${version}`,
    next_run_at: sql<
      string | Date | null
    >`case when ${follows} = 'latest' then (select rs.next_run_at from report_schedules rs where rs.report_id = ${reportId}) end`,
    timezone: sql<
      string | null
    >`case when ${follows} = 'latest' then (select u.timezone from reports r join users u on u.id = r.owner_user_id where r.id = ${reportId}) end`,
  };
}

/** `<version>` or `<version>#rrggbb`, as one scalar subquery gives it; null: no such workspace. */
const brandingStampOf = (report: SQL | SQL.Aliased | typeof shares.reportId) => sql<string | null>`(
      select w.branding_version::text || coalesce(w.branding_accent_color, '')
      from reports r join workspaces w on w.id = r.workspace_ids[1] where r.id = ${report})`;

export function parseBrandingStamp(text: string | null): BrandingStamp {
  if (text === null) return { version: 0, accentColor: null };
  const hash = text.indexOf('#');
  return hash === -1
    ? { version: Number(text), accentColor: null }
    : { version: Number(text.slice(0, hash)), accentColor: text.slice(hash) };
}

/**
 * Counts a batch of page views (views per link, by token hash) in one statement, and checks in
 * that same statement that each link still serves at `now`: a link revoked or expired a moment
 * ago, on this process or another, counts nothing and is left out of the answer (the viewer's
 * 404). `greatest` (which skips the null before a first view) keeps lastViewedAt from moving back
 * when the clocks of several processes differ. Each counted link comes back with its page's
 * branding stamp.
 */
const countViewsStatement = prepared((db) =>
  db
    .update(shares)
    .set({
      viewCount: sql`${shares.viewCount} + v.n`,
      lastViewedAt: sql`greatest(${shares.lastViewedAt}, ${sql.placeholder('now')}::timestamptz)`,
    })
    .from(sql`unnest(${sql.placeholder('hashes')}::text[], ${sql.placeholder('counts')}::int[]) as v(token_hash, n)`)
    .where(
      and(
        eq(shares.tokenHash, sql`v.token_hash`),
        isNull(shares.revokedAt),
        or(isNull(shares.expiresAt), gt(shares.expiresAt, sql`${sql.placeholder('now')}::timestamptz`)),
      ),
    )
    .returning({ tokenHash: shares.tokenHash, ...countedColumns(shares.reportId, shares.reportContentId, shares.version, shares.follows) })
    .prepare('share_count_views'),
);

export async function countViews(db: Db, views: ReadonlyMap<string, number>, now: Date): Promise<Map<string, CountedView>> {
  const hashes = [...views.keys()];
  const counts = hashes.map((hash) => views.get(hash) ?? 0);
  const rows = await countViewsStatement(db).execute({ hashes, counts, now: now.toISOString() });
  return new Map(rows.map((r) => [r.tokenHash, countedView(r)]));
}

/**
 * Counts one page view, and checks that the link still serves, in one statement: a link revoked or
 * expired a moment ago counts nothing and gives false (the viewer's 404). `greatest` (which skips
 * the null before a first view) keeps lastViewedAt from moving back when views finish out of order
 * or the clocks of several processes differ. With `refundWindow`, the attempt booked for a correct
 * passcode in that window is given back, so only wrong passcodes use up the allowance. A counted
 * view gives its page's branding stamp; undefined: not counted.
 */
export async function countView(db: Db, tokenHash: string, now: Date, refundWindow?: Date): Promise<CountedView | undefined> {
  const nowText = now.toISOString();
  const refund = refundWindow
    ? sql`case when ${shares.failedWindowStartedAt} = ${refundWindow.toISOString()}::timestamptz and ${shares.failedAttempts} > 0 then ${shares.failedAttempts} - 1 else ${shares.failedAttempts} end`
    : undefined;
  const rows = await db
    .update(shares)
    .set({
      viewCount: sql`${shares.viewCount} + 1`,
      lastViewedAt: sql`greatest(${shares.lastViewedAt}, ${nowText}::timestamptz)`,
      ...(refund ? { failedAttempts: refund } : {}),
    })
    .where(and(eq(shares.tokenHash, tokenHash), servesAt(now)))
    .returning(countedColumns(shares.reportId, shares.reportContentId, shares.version, shares.follows));
  const [row] = rows;
  return row && countedView(row);
}

export interface PageSource {
  renderedMarkdown: string;
  version: number;
  createdAt: Date;
  /** The report's current fields, only for a document whose front matter cannot be read. */
  reportName: string;
  periodFrom: string;
  periodTo: string;
  ownerName: string;
  ownerTimezone: string;
  /** The locale the version was rendered in (its dataset's); a version from before datasets takes its report's. */
  locale: string;
  /** The branding of the report's first workspace now, with its stamp (all null: no such workspace). */
  workspaceId: string | null;
  brandingVersion: number | null;
  brandingDisplayName: string | null;
  brandingAccentColor: string | null;
  brandingFooter: string | null;
  logoSha256: string | null;
  logoWidth: number | null;
  logoHeight: number | null;
}

export async function findPageSource(db: Db, reportContentId: string): Promise<PageSource | undefined> {
  const [row] = await db
    .select({
      renderedMarkdown: reportContents.renderedMarkdown,
      version: reportContents.version,
      createdAt: reportContents.createdAt,
      reportName: reports.name,
      periodFrom: reports.periodFrom,
      periodTo: reports.periodTo,
      ownerName: users.name,
      ownerTimezone: users.timezone,
      locale: sql<string>`coalesce(${reportDatasets.locale}, ${reports.options}->>'locale', 'en')`,
      workspaceId: workspaces.id,
      brandingVersion: workspaces.brandingVersion,
      brandingDisplayName: workspaces.brandingDisplayName,
      brandingAccentColor: workspaces.brandingAccentColor,
      brandingFooter: workspaces.brandingFooter,
      logoSha256: workspaceLogos.sha256,
      logoWidth: workspaceLogos.width,
      logoHeight: workspaceLogos.height,
    })
    .from(reportContents)
    .innerJoin(reports, eq(reports.id, reportContents.reportId))
    .innerJoin(users, eq(users.id, reports.ownerUserId))
    .leftJoin(workspaces, eq(workspaces.id, sql`${reports.workspaceIds}[1]`))
    .leftJoin(workspaceLogos, eq(workspaceLogos.workspaceId, workspaces.id))
    .leftJoin(reportDatasets, eq(reportDatasets.contentId, reportContents.id))
    .where(eq(reportContents.id, reportContentId));
  return row;
}
