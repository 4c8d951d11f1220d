/**
 * The SQL half of the access rules: each rule that a statement checks is one named condition
 * here, and repositories compose these instead of writing the rule again. access.ts holds the
 * TypeScript half of the same rules and names, for each rule, the predicate it shares
 * (test/unit/access-vocabulary.test.ts keeps the two lists in step).
 *
 * Every argument is `string | SQLWrapper`: a value, a column, or a `sql.placeholder` of a
 * prepared statement. Columns render qualified (`"projects"."id"`) in where clauses and in
 * queries with joins; in the select list of a one-table query Drizzle writes them bare, where a
 * bare name could mean a column of the predicate's own subquery, so pass such columns as raw
 * aliases (sql`t.user_id`) or use the predicate in the where clause.
 *
 * Memberships are tested as `x in (select … where user_id = <user>)`: with the user a value or
 * a placeholder the subquery does not depend on the row, so PostgreSQL reads the user's
 * memberships once per statement and hashes them, and a scan over many entries (a list, a
 * report's render) pays one lookup rather than one per row. Correlated `exists` tests plan far
 * worse there (several times slower on PostgreSQL).
 */
import { inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { projectMembers, projects, timeEntries, users, workspaceMembers, workspaces } from '../../db/schema.js';

/** A value, a column or a placeholder. */
export type Arg = string | SQLWrapper;

const allOf = (parts: Record<string, SQL>): SQL => sql`(${sql.join(Object.values(parts), sql` and `)})`;

// ---------------------------------------------------------------------------------------------
// Workspaces and projects (docs/api.md "Workspaces and projects")

/** The user has any role in the workspace. */
export function isWorkspaceMember(workspaceId: Arg, userId: Arg): SQL {
  return sql`(${workspaceId} in (select wm.workspace_id from ${workspaceMembers} wm where wm.user_id = ${userId}))`;
}

/** "Workspace admin": the user's role in the workspace is admin or owner. */
export function isWorkspaceAdmin(workspaceId: Arg, userId: Arg): SQL {
  return sql`(${workspaceId} in (select wa.workspace_id from ${workspaceMembers} wa
    where wa.user_id = ${userId} and wa.role in ('owner', 'admin')))`;
}

const isProjectMember = (projectId: Arg, userId: Arg): SQL =>
  sql`(${projectId} in (select pm.project_id from ${projectMembers} pm where pm.user_id = ${userId}))`;

/** A project by its keys; by default the `projects` row of the statement. */
export interface ProjectKeys {
  id: Arg;
  workspaceId: Arg;
}

const PROJECT_ROW: ProjectKeys = { id: projects.id, workspaceId: projects.workspaceId };

/** A project is readable by its members and by the admins of its workspace. */
export function projectReadableBy(userId: Arg, project: ProjectKeys = PROJECT_ROW): SQL {
  return sql`(${isWorkspaceAdmin(project.workspaceId, userId)} or ${isProjectMember(project.id, userId)})`;
}

// ---------------------------------------------------------------------------------------------
// Time entries (docs/api.md "Time entries")

/** An entry by its keys; by default the `time_entries` row of the statement. `projectId` null: unassigned. */
export interface EntryKeys {
  userId: Arg;
  workspaceId: Arg;
  projectId: Arg | null;
}

const ENTRY_ROW: EntryKeys = { userId: timeEntries.userId, workspaceId: timeEntries.workspaceId, projectId: timeEntries.projectId };

/**
 * An entry is readable by its own user, by the admins of its workspace and by the members of its
 * project; unassigned entries of others only by workspace admins. Lists and reports use the same
 * bound, silently.
 */
export function entryReadableBy(userId: Arg, entry: EntryKeys = ENTRY_ROW): SQL {
  const projectId = entry.projectId ?? sql`null`;
  return sql`(${entry.userId} = ${userId}
    or ${isWorkspaceAdmin(entry.workspaceId, userId)}
    or (${projectId} is not null and ${isProjectMember(projectId, userId)}))`;
}

/**
 * The project of an entry: none, or a project of the entry's workspace that the entry's user may
 * read, so an entry never lands where its author cannot see it.
 */
export function mayAssignProject(entry: EntryKeys): SQL {
  return allOf(mayAssignProject.parts(entry));
}

/** The parts of mayAssignProject, in the order a refusal names them. */
mayAssignProject.parts = (entry: EntryKeys) => {
  const projectId = entry.projectId ?? sql`null`;
  // The cast gives a placeholder tested only for null a type PostgreSQL can prepare.
  const none = sql`(${projectId})::text is null`;
  return {
    projectInWorkspace: sql`(${none}
      or exists (select 1 from ${projects} pr where pr.id = ${projectId} and pr.workspace_id = ${entry.workspaceId}))`,
    projectReadable: sql`(${none} or ${projectReadableBy(entry.userId, { id: projectId, workspaceId: entry.workspaceId })})`,
  };
};

/** An entry being logged: its keys, and who logs it. */
export interface NewEntryKeys extends EntryKeys {
  actorId: Arg;
}

/**
 * "May log a time entry": the actor is a member of the entry's workspace; an entry for someone
 * else needs the actor to be a workspace admin and that user a member; and mayAssignProject.
 * The insert checks this in its own statement; a refusal is explained from its parts.
 */
export function mayLogEntry(entry: NewEntryKeys): SQL {
  return allOf(mayLogEntry.parts(entry));
}

/** The parts of mayLogEntry, in the order a refusal names them. */
mayLogEntry.parts = (entry: NewEntryKeys) => ({
  actorIsMember: isWorkspaceMember(entry.workspaceId, entry.actorId),
  actorMayLogForUser: sql`(${entry.userId} = ${entry.actorId} or ${isWorkspaceAdmin(entry.workspaceId, entry.actorId)})`,
  userIsMember: isWorkspaceMember(entry.workspaceId, entry.userId),
  ...mayAssignProject.parts(entry),
});

// ---------------------------------------------------------------------------------------------
// Reports (docs/api.md "Who may do what"); `workspaceIds` is a report's text[] of workspaces

/**
 * The user is a member of every one of the workspaces. With `userId` a value or a placeholder
 * the user's workspaces are read once per statement, however many reports it looks at.
 */
export function isMemberOfAll(workspaceIds: SQLWrapper, userId: Arg): SQL {
  return sql`(${workspaceIds} <@ array(select wm.workspace_id from ${workspaceMembers} wm where wm.user_id = ${userId}))`;
}

/** The report is scoped to exactly one workspace, and the user is a workspace admin there. */
export function isAdminOfOnlyWorkspace(workspaceIds: SQLWrapper, userId: Arg): SQL {
  return sql`(cardinality(${workspaceIds}) = 1 and ${isWorkspaceAdmin(sql`(${workspaceIds})[1]`, userId)})`;
}

/** What the recipient rule looks at in a report. */
export interface RecipientScope {
  ownerUserId: string;
  workspaceIds: readonly string[];
  snapshotProjectIds: readonly string[] | null;
  restrictsRecipients: boolean | null;
}

/**
 * Who may receive a report (docs/api.md "Recipients and sending"): a member of any of its
 * workspaces but the owner; when the snapshot holds someone else's entry on a project, only one
 * who can read every snapshot project, the owner's own projects included (a snapshot of only own
 * or unassigned entries restricts nobody). An unknown scope (`snapshotProjectIds` or
 * `restrictsRecipients` null) admits nobody, and a snapshot project that no longer exists can be
 * read by nobody, until the report is rendered again.
 */
export function mayReceiveReport(report: RecipientScope, userId: Arg): SQL {
  const projectIds = [...new Set(report.snapshotProjectIds ?? [])];
  const readsEveryProject =
    report.snapshotProjectIds === null || report.restrictsRecipients === null
      ? sql` and false`
      : !report.restrictsRecipients || projectIds.length === 0
        ? sql``
        : sql` and (select count(*)::int from ${projects}
            where ${inArray(projects.id, projectIds)} and ${projectReadableBy(userId)}) = ${projectIds.length}`;
  const memberOfAny = sql`exists (select 1 from ${workspaceMembers}
    where ${workspaceMembers.userId} = ${userId} and ${inArray(workspaceMembers.workspaceId, [...report.workspaceIds])})`;
  return sql`(${userId} <> ${report.ownerUserId} and ${memberOfAny}${readsEveryProject})`;
}

// ---------------------------------------------------------------------------------------------
// Rates (docs/api.md "Rates")

/**
 * "May manage rates": the user is an admin/owner of the workspace, or an instance admin (who acts
 * as an owner everywhere). Everyone else, members included, may not know a rate exists.
 */
export function mayManageRates(workspaceId: Arg, userId: Arg): SQL {
  return sql`(${isWorkspaceAdmin(workspaceId, userId)}
    or ${userId} in (select ia.id from ${users} ia where ia.instance_admin))`;
}

/**
 * "May see rates in every workspace" (billing.md §2 "Who sees money"): in each of `workspaceIds`
 * (an array value) the workspace shows rates to its members and the user is one, or the user may
 * manage its rates. A render shows money only when this holds for its owner (access.ts
 * `rendersMoney`).
 */
export function maySeeRatesInAll(workspaceIds: SQLWrapper, userId: Arg): SQL {
  return sql`(not exists (select 1 from ${workspaces} rw where rw.id = any(${workspaceIds})
    and not ((rw.rates_visible_to = 'members' and ${isWorkspaceMember(sql`rw.id`, userId)}) or ${mayManageRates(sql`rw.id`, userId)})))`;
}
