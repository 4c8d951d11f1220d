/**
 * Who may do what, in one place. Every rule of docs/api.md (summed up in "Access at a glance") is
 * one function here, named for what it guards, citing the section it implements; services call
 * these and nothing else decides access. Two answers recur:
 * - 404 when the caller may not know the thing exists (every report, share, inbox message, comment
 *   and workspace they cannot read, and owner- or creator-only actions by anyone else);
 * - 403 when they can see it but their role does not allow the action.
 * A rule that statements check too has its SQL half in predicates.ts, under the name its comment
 * gives; repositories compose those predicates, and the facts these functions decide on come from
 * repositories/access.repository.ts. test/unit/access-vocabulary.test.ts lists every rule here
 * with the predicates it shares.
 */
import type { Actor, Scope } from '../../context.js';
import type { Db } from '../../db/database.js';
import { badRequest, conflict, forbidden, notFound, type FieldError } from '../../lib/errors.js';
import {
  isAdminRole,
  reportStanding,
  workspaceRole,
  workspaceRoles,
  type ReportStanding,
  type Role,
} from '../../repositories/access.repository.js';
import { findClient, type ClientRow } from '../../repositories/clients.repository.js';
import type { ContentState } from '../../repositories/discussion.repository.js';
import { findDeliveryForRecipient, type DeliveryRow } from '../../repositories/inbox.repository.js';
import { findProject, type ProjectRow } from '../../repositories/projects.repository.js';
import { rateStanding } from '../../repositories/rates.repository.js';
import type { ReportRow } from '../../repositories/reports.repository.js';
import type { RecipientStanding } from '../../repositories/sending.repository.js';
import type { TemplateRow } from '../../repositories/templates.repository.js';
import {
  batchEntryFacts,
  entryFacts,
  findReadableEntry,
  projectRefusal,
  type EntryFacts,
  type NewEntry,
  type TimeEntryRow,
} from '../../repositories/time-entries.repository.js';
import { findWorkspace } from '../../repositories/workspaces.repository.js';
import { findEndpoint, type EndpointRow } from '../../repositories/webhooks.repository.js';

export type { ReportStanding };

// ---------------------------------------------------------------------------------------------
// Instance admins (docs/api.md "Users and tokens", "Templates")

/** Instance-admin-only actions on collections (users, templates): 403 for anyone else. */
export function requireInstanceAdmin(actor: Actor, action = 'do this'): void {
  if (!actor.user.instanceAdmin) throw forbidden(`Only an instance admin may ${action}.`);
}

/**
 * Instance-admin-only actions on one user (edit, delete): 404 for another user, whose existence
 * stays hidden; 403 on oneself, whom the caller already knows.
 */
export function requireInstanceAdminFor(actor: Actor, targetUserId: string): void {
  if (actor.user.instanceAdmin) return;
  if (actor.user.id === targetUserId) throw forbidden('Only an instance admin may do this.');
  throw notFound();
}

/**
 * Set-password links (docs/api.md "Users and tokens"): instance admins, as requireInstanceAdminFor.
 * A link for oneself signs in with a session that acts with read and write for 14 days, so it may
 * not come from a narrower credential than that: only a session, or a token with both scopes and
 * no expiry; anything else is a 403. Otherwise a read-only or short-lived token would turn itself
 * into a permanent password.
 */
export function requirePasswordLinkIssuer(actor: Actor, targetUserId: string): void {
  requireInstanceAdminFor(actor, targetUserId);
  if (targetUserId !== actor.user.id || actor.sessionId !== null) return;
  const full = actor.scopes.includes('read') && actor.scopes.includes('write') && actor.tokenExpiresAt === null;
  if (!full) {
    throw forbidden('A set-password link for your own account needs a session or a token with the read and write scopes and no expiry.');
  }
}

/** A user is readable by instance admins and by themself; 404 for anyone else. */
export function requireUserReader(actor: Actor, userId: string): void {
  if (!actor.user.instanceAdmin && actor.user.id !== userId) throw notFound();
}

/** Tokens are created by instance admins for anyone, and by a user for themself; 404 otherwise. */
export function requireTokenIssuer(actor: Actor, userId: string): void {
  requireUserReader(actor, userId);
}

/**
 * A token a user makes for themself carries at most the scopes of the token that makes it
 * (docs/api.md "Users and tokens"); instance admins making tokens for others are not bound by it.
 */
export function requireScopesWithin(actor: Actor, scopes: readonly string[]): void {
  const extra = scopes.filter((scope) => !actor.scopes.includes(scope as Scope));
  if (extra.length > 0) {
    throw forbidden(`A token cannot grant scopes it does not hold itself: ${extra.map((s) => `"${s}"`).join(', ')}.`);
  }
}

/** A disabled template is hidden from everyone but instance admins (404), as a missing one is. */
export function requireTemplateReader(actor: Actor, template: TemplateRow | undefined): asserts template is TemplateRow {
  if (!template || (!template.enabled && !actor.user.instanceAdmin)) throw notFound();
}

// ---------------------------------------------------------------------------------------------
// Workspaces and projects (docs/api.md "Workspaces and projects")

/** The caller's standing in one workspace. */
export interface WorkspaceAccess {
  /** Their own membership role; null for an instance admin who is not a member. */
  readonly role: Role | null;
  /** The role they act with: instance admins act as owners everywhere. */
  readonly effectiveRole: Role;
}

/**
 * The one gate in front of a workspace and everything under it: members and instance admins pass,
 * everyone else gets the same 404 as for a workspace that does not exist.
 */
export async function workspaceAccess(db: Db, actor: Actor, workspaceId: string): Promise<WorkspaceAccess> {
  const role = await workspaceRole(db, workspaceId, actor.user.id);
  if (actor.user.instanceAdmin) {
    if (role || (await findWorkspace(db, workspaceId))) return { role, effectiveRole: 'owner' };
    throw notFound();
  }
  if (!role) throw notFound();
  return { role, effectiveRole: role };
}

/** Writes reserved to admins/owners: 403, since a member can already see the workspace exists. */
export function requireWorkspaceAdmin(access: WorkspaceAccess): void {
  if (!isAdminRole(access.effectiveRole)) throw forbidden('Only a workspace admin or owner may do this.');
}

/** Granting or taking the owner role, and removing an owner: owners only (instance admins act as owners). */
export function requireWorkspaceOwner(access: WorkspaceAccess): void {
  if (access.effectiveRole !== 'owner') throw forbidden('Only a workspace owner may grant or take the owner role.');
}

/**
 * A change of a member's role from `current` to `next` (null: not a member): only owners grant
 * or take the owner role, in either direction, removing an owner included. An owner leaving is
 * an owner, so they pass.
 */
export function requireRoleChange(access: WorkspaceAccess, current: Role | null, next: Role | null): void {
  if (next === 'owner' || current === 'owner') requireWorkspaceOwner(access);
}

/** Anyone may leave a workspace; removing someone else needs a workspace admin (403). */
export function requireMemberRemover(access: WorkspaceAccess, actor: Actor, userId: string): void {
  if (userId !== actor.user.id) requireWorkspaceAdmin(access);
}

/** A workspace keeps at least one owner. */
export function refuseLastOwner(): never {
  throw conflict('A workspace must keep at least one owner; make someone else owner first.');
}

/** A project is behind its workspace's gate: 404 for anyone who may not see the workspace. */
export async function projectAccess(db: Db, actor: Actor, projectId: string): Promise<{ project: ProjectRow; access: WorkspaceAccess }> {
  const project = await findProject(db, projectId);
  if (!project) throw notFound();
  return { project, access: await workspaceAccess(db, actor, project.workspaceId) };
}

/** A client is behind its workspace's gate, as a project is: 404 for anyone who may not see the workspace. */
export async function clientAccess(db: Db, actor: Actor, clientId: string): Promise<{ client: ClientRow; access: WorkspaceAccess }> {
  const client = await findClient(db, clientId);
  if (!client) throw notFound();
  return { client, access: await workspaceAccess(db, actor, client.workspaceId) };
}

// ---------------------------------------------------------------------------------------------
// Rates (docs/api.md "Rates")

/**
 * Rates are managed and read by the workspace's admins and owners and by instance admins
 * (predicates.ts `mayManageRates`); everyone else, members of the workspace included, gets the
 * same 404 as for a workspace that does not exist, so a rate's existence stays hidden. Returns the
 * workspace's currency, which every rate of it must use.
 */
export async function rateAccess(db: Db, actor: Actor, workspaceId: string): Promise<{ currency: string }> {
  const standing = await rateStanding(db, workspaceId, actor.user.id);
  if (!standing?.manages) throw notFound();
  return { currency: standing.currency };
}

/**
 * Whether a render shows money (billing.md §2): only when its owner may see rates in every
 * workspace of the report (predicates.ts `maySeeRatesInAll`, which the statement that reads a
 * render's rates evaluates, rates.repository.ts `ratesForRender`, reading rates only when it
 * holds) and the report does not hide amounts. Otherwise every rate and amount of the render
 * context, and of the version's stored summary, is null.
 */
export function rendersMoney(options: { hideAmounts: boolean }, ownerSeesRatesInAll: boolean): boolean {
  return !options.hideAmounts && ownerSeesRatesInAll;
}

// ---------------------------------------------------------------------------------------------
// Time entries (docs/api.md "Time entries")

const invalidEntry = (path: string, message: string) => badRequest('The request is not valid.', [{ path, message }]);

/**
 * Why an entry is refused, for each part of predicates.ts `mayLogEntry`, in the order of the
 * rule: the field a batch names, and its message.
 */
const ENTRY_REFUSALS: Record<keyof EntryFacts, { field: 'workspaceId' | 'userId' | 'projectId'; message: string }> = {
  actorIsMember: { field: 'workspaceId', message: 'does not exist or you are not a member of it' },
  actorMayLogForUser: { field: 'userId', message: 'only a workspace admin or owner may log time for another user' },
  userIsMember: { field: 'userId', message: 'is not a member of this workspace' },
  projectInWorkspace: { field: 'projectId', message: 'is not a project of this workspace' },
  projectReadable: { field: 'projectId', message: "is not a project the entry's user may read" },
};

/** The first part of the rule the facts fail, in the rule's order; undefined when all hold. */
const entryRefusal = (facts: EntryFacts) => (Object.keys(ENTRY_REFUSALS) as (keyof EntryFacts)[]).find((part) => !facts[part]);

/**
 * A project on an entry must be one of the entry's workspace, readable by the entry's user
 * (project member or workspace admin/owner), so an entry never lands where its author cannot see
 * it: predicates.ts `mayAssignProject`, checked part by part.
 */
export async function requireProjectForEntry(db: Db, projectId: string, workspaceId: string, entryUserId: string): Promise<void> {
  const refused = await projectRefusal(db, projectId, workspaceId, entryUserId);
  if (refused) throw invalidEntry('/projectId', ENTRY_REFUSALS[refused].message);
}

/**
 * Who may log an entry (predicates.ts `mayLogEntry`): any member logs their own time (non-members
 * 404: the workspace stays hidden); naming another user needs a workspace admin/owner (403
 * otherwise), and that user must be a member (400); the project rule above. The insert checks
 * all of it in its own statement (time-entries.repository.ts `insertEntryIfAllowed`); this
 * explains a refusal from the rule's parts, and returns when every part holds.
 */
export async function explainEntryRefusal(db: Db, actor: Actor, entry: NewEntry): Promise<void> {
  const refused = entryRefusal(await entryFacts(db, entry, actor.user.id));
  if (refused === 'actorIsMember') throw notFound();
  if (refused === 'actorMayLogForUser') throw forbidden('Only a workspace admin or owner may log time for another user.');
  if (refused) throw invalidEntry(`/${ENTRY_REFUSALS[refused].field}`, ENTRY_REFUSALS[refused].message);
}

/**
 * The rule of `explainEntryRefusal` for every row of a batch at once, as one list of field errors
 * (`/entries/<index>/<field>`, with `index`); empty when every row passes. A batch answers 400
 * whatever the rule, so a workspace the caller may not see reads the same as one that does not
 * exist. The batch insert checks all of it in its own statement
 * (time-entries.repository.ts `insertEntriesIfAllowed`); this only explains a refusal.
 */
export async function explainBatchRefusals(db: Db, actor: Actor, entries: readonly NewEntry[]): Promise<FieldError[]> {
  return (await batchEntryFacts(db, entries, actor.user.id)).flatMap((facts) => {
    const refused = entryRefusal(facts);
    if (!refused) return [];
    const { field, message } = ENTRY_REFUSALS[refused];
    return [{ path: `/entries/${facts.index}/${field}`, message, index: facts.index }];
  });
}

/**
 * The entry when the caller may change it: its own user or an admin/owner of its workspace,
 * either of them still a member there. Everyone else gets 404, readers included, as for other
 * owner-only actions.
 */
export async function editableEntry(db: Db, actor: Actor, id: string): Promise<TimeEntryRow> {
  const entry = await findReadableEntry(db, id, actor.user.id);
  if (!entry) throw notFound();
  const role = await workspaceRole(db, entry.workspaceId, actor.user.id);
  if (!role || (entry.userId !== actor.user.id && !isAdminRole(role))) throw notFound();
  return entry;
}

// ---------------------------------------------------------------------------------------------
// Reports (docs/api.md "Who may do what", under "Reports")

export type ReadGrant = 'owner' | 'instance-admin' | 'workspace-admin';

type ReportKeys = Pick<ReportRow, 'ownerUserId' | 'workspaceIds'>;

/**
 * Who may read a report: the owner while they still belong to every filtered workspace; any
 * instance admin; an admin/owner of the report's workspace when the report is scoped to exactly
 * one. null: 404. The standing comes from the statement that loaded the report, or reportStanding.
 */
export function readGrant(report: ReportKeys, actor: Actor, standing: ReportStanding): ReadGrant | null {
  if (report.ownerUserId === actor.user.id && standing.memberOfAll) return 'owner';
  if (actor.user.instanceAdmin) return 'instance-admin';
  if (standing.adminOfOnlyWorkspace) return 'workspace-admin';
  return null;
}

/**
 * Owner-only actions (edit, recipients, send, mint on the report): the owner with current
 * membership in every filtered workspace; 404 for everyone else, readers included.
 */
function actsAsOwner(report: ReportKeys, actor: Actor, standing: ReportStanding): boolean {
  return report.ownerUserId === actor.user.id && standing.memberOfAll;
}

/** readGrant for a report row already in hand: one query for the standing. */
export async function reportReadGrant(db: Db, actor: Actor, report: ReportKeys): Promise<ReadGrant | null> {
  return readGrant(report, actor, await reportStanding(db, actor.user.id, report.workspaceIds));
}

/** actsAsOwner for a report row already in hand (no query for anyone but the owner). */
export async function isActiveOwner(db: Db, actor: Actor, report: ReportKeys): Promise<boolean> {
  if (report.ownerUserId !== actor.user.id) return false;
  return actsAsOwner(report, actor, await reportStanding(db, actor.user.id, report.workspaceIds));
}

/**
 * The filters of a report name only workspaces its owner belongs to (docs/api.md "Filters"): a
 * field error at each other one, none when the owner belongs to them all.
 */
export async function filterWorkspaceRefusals(db: Db, actor: Actor, workspaceIds: readonly string[]): Promise<FieldError[]> {
  const roles = await workspaceRoles(db, actor.user.id, workspaceIds);
  return workspaceIds.flatMap((id, i) =>
    roles.has(id) ? [] : [{ path: `/filters/workspaceIds/${i}`, message: 'is not a workspace you belong to' }],
  );
}

/** Deleting a report: its owner only, even after losing a workspace (they may clean up what they made). */
export function mayDeleteReport(report: Pick<ReportRow, 'ownerUserId'>, actor: Actor): boolean {
  return report.ownerUserId === actor.user.id;
}

/**
 * Listing reports: another user's reports need an instance admin; a workspace's reports need an
 * admin/owner of it or an instance admin (403 otherwise: the caller names what they ask for).
 */
export async function requireReportListAccess(
  db: Db,
  actor: Actor,
  query: { ownerUserId?: string | undefined; workspaceId?: string | undefined },
): Promise<void> {
  if (query.ownerUserId !== undefined && query.ownerUserId !== actor.user.id && !actor.user.instanceAdmin) {
    throw forbidden('Only an instance admin may list the reports of another user.');
  }
  if (
    query.workspaceId !== undefined &&
    !actor.user.instanceAdmin &&
    !isAdminRole(await workspaceRole(db, query.workspaceId, actor.user.id))
  ) {
    throw forbidden('Only an admin or owner of the workspace may list its reports.');
  }
}

/**
 * A report in the owner's list shows its total only while they belong to every one of its
 * workspaces (docs/api.md "Who may do what"); `memberOfAll` comes from the list's statement.
 */
export function hidesListedTotal(report: Pick<ReportRow, 'ownerUserId'>, actor: Actor, memberOfAll: boolean): boolean {
  return report.ownerUserId === actor.user.id && !memberOfAll;
}

// ---------------------------------------------------------------------------------------------
// Recipients and sending (docs/api.md "Recipients and sending")

/*
 * Who may receive a report (recipient candidates, and the check of every send) is one SQL
 * condition, predicates.ts `mayReceiveReport`, which sending.repository.ts `recipientCandidates`
 * applies to both.
 */

const named = (what: string, x: { id: string; name: string | null }) =>
  x.name === null ? `a ${what} that no longer exists (${x.id})` : `${what} "${x.name}" (${x.id})`;

/** A workspace or project as people read it: its name in quotes, no id. */
const namedForPeople = (what: string, x: { name: string | null }) => (x.name === null ? `a deleted ${what}` : `\u201c${x.name}\u201d`);

/** Items joined for a sentence: "a", "a and b", "a, b and c". */
const listed = (items: string[]): string => {
  const last = items.at(-1) ?? '';
  return items.length <= 1 ? last : `${items.slice(0, -1).join(', ')} and ${last}`;
};

/** Projects as people read them: "the project “A”", "the projects “A” and “B”", or "“A” and a deleted project". */
function projectsForPeople(projects: { name: string | null }[]): string {
  const names = listed(projects.map((p) => namedForPeople('project', p)));
  if (projects.some((p) => p.name === null)) return names;
  return `${projects.length === 1 ? 'the project' : 'the projects'} ${names}`;
}

/**
 * Why a user may not receive a report, in the terms of `mayReceiveReport`: the owner themself,
 * not a member of any of the report's workspaces, a report whose scope is unknown, or the
 * projects of this version they cannot read. The sender is the owner (`isActiveOwner`).
 *
 * A predicate that follows the user's name. `api` words it for a refused request, with ids
 * ("is not a recipient candidate: not a member of workspace "Studio" (…)"); `people` for the
 * owner reading a scheduled run's skipped recipients in the app and in its problem mail ("is no
 * longer a member of “Studio”"), where an id helps nobody.
 */
export function explainRecipientRefusal(
  report: Pick<ReportRow, 'ownerUserId' | 'snapshotProjectIds' | 'restrictsRecipients'>,
  actor: Actor,
  userId: string,
  standing: RecipientStanding,
  words: 'api' | 'people' = 'api',
): string {
  const people = words === 'people';
  if (userId === report.ownerUserId || userId === actor.user.id) {
    return people
      ? 'owns this report: \u201cAlso send to me\u201d delivers it to them'
      : 'is the owner of this report; set sendToSelf for a copy in your own inbox';
  }
  if ((standing.memberships.get(userId)?.size ?? 0) === 0) {
    return people
      ? `is no longer a member of ${standing.workspaces.length === 1 ? '' : 'any of '}${listed(standing.workspaces.map((w) => namedForPeople('workspace', w)))}`
      : `is not a recipient candidate: not a member of ${standing.workspaces.map((w) => named('workspace', w)).join(' or ')}`;
  }
  if (report.snapshotProjectIds === null || report.restrictsRecipients === null) {
    return people
      ? 'could not be checked: the report must be edited once before it is sent again (it predates recipient checks)'
      : 'is not a recipient candidate: this report has nobody to send to until it is edited (its scope predates recipient checks)';
  }
  const projects = standing.unreadable.get(userId) ?? [];
  if (projects.length > 0) {
    return people
      ? `can no longer see ${projectsForPeople(projects)} in this version`
      : `is not a recipient candidate: cannot read ${projects.map((p) => named('project', p)).join(', ')} of this version`;
  }
  return people ? 'may no longer receive this report' : 'is not a recipient candidate of this report';
}

/**
 * How many recipients read a send is the owner's business: read counts follow ownership, not the
 * read grant, so an owner who is also an instance admin keeps them after losing a workspace.
 */
export function seesReadCounts(report: Pick<ReportRow, 'ownerUserId'>, actor: Actor): boolean {
  return report.ownerUserId === actor.user.id;
}

// ---------------------------------------------------------------------------------------------
// Inbox messages and share links (docs/api.md "Inbox", "Share links")

/**
 * An inbox message is its recipient's alone (the sender and instance admins included get 404).
 * A recipient's links on it need no workspace membership: the delivery itself is the grant.
 */
export async function ownDelivery(db: Db, actor: Actor, deliveryId: string): Promise<DeliveryRow> {
  const delivery = await findDeliveryForRecipient(db, deliveryId, actor.user.id);
  if (!delivery) throw notFound();
  return delivery;
}

/*
 * Revoking a link: its creator only (the report owner or the recipient who minted it), without
 * any membership check; the revoke statement itself names the creator
 * (shares.repository.ts `revokeShare`), so anyone else finds nothing: 404.
 */

// ---------------------------------------------------------------------------------------------
// Discussion (docs/api.md "Discussion")

export interface DiscussionAccess {
  shared: boolean;
  /** The report owner (with current membership) or a holder of a delivery of this version. */
  participant: boolean;
}

/**
 * Who may see a version's discussion. A recipient of the version (a self-copy included) is a
 * participant whatever their workspace memberships: they hold the version in their inbox, which
 * is not re-checked either. Everyone else goes through the report read rule, where only the
 * owner grant makes a participant; admins read only. No delivery and no grant: 404.
 */
export function discussionAccess(state: ContentState | undefined, actor: Actor): DiscussionAccess {
  if (!state) throw notFound();
  if (state.received) return { shared: true, participant: true };
  const grant = readGrant(state.report, actor, state.standing);
  if (grant === null) throw notFound();
  return { shared: state.shared, participant: grant === 'owner' };
}

/** Writes need a participant (readers who are not get 403) and a version that was sent (409). */
export function requireDiscussionWriter(access: DiscussionAccess): void {
  if (!access.participant) throw forbidden('Only the report owner and the recipients of this version may write to its discussion.');
  if (!access.shared) throw conflict('This version has not been sent; its discussion opens once it is.');
}

// ---------------------------------------------------------------------------------------------
// Version history (docs/api.md "Version history")

/** The list of a report's versions: the report read rule (readGrant); 404 for everyone else. */
export function requireHistoryReader<T extends { report: ReportKeys; standing: ReportStanding }>(
  found: T | undefined,
  actor: Actor,
): asserts found is T {
  if (!found || readGrant(found.report, actor, found.standing) === null) throw notFound();
}

/**
 * One content version: the readers of its report, and the recipients of that very version (a
 * self-copy included), who keep it whatever their memberships, as their inbox does. 404 otherwise.
 */
export function requireVersionReader<T extends { report: ReportKeys; standing: ReportStanding; version: { received: boolean } }>(
  found: T | undefined,
  actor: Actor,
): asserts found is T {
  if (!found) throw notFound();
  if (found.version.received) return;
  if (readGrant(found.report, actor, found.standing) === null) throw notFound();
}

/**
 * Comparing two versions of a report: its readers; otherwise only someone who received both
 * versions (a recipient of one of them learns nothing of the other). Versions that are not the
 * report's are missing like any other resource. 404 in every refused case.
 */
export function requireDiffReader<T extends { received: boolean }>(
  report: ReportKeys,
  standing: ReportStanding,
  versions: { from: T | undefined; to: T | undefined },
  actor: Actor,
): asserts versions is { from: T; to: T } {
  const { from, to } = versions;
  if (!from || !to) throw notFound();
  if (readGrant(report, actor, standing) !== null) return;
  if (!from.received || !to.received) throw notFound();
}

// ---------------------------------------------------------------------------------------------
// Webhooks (docs/api.md "Webhooks")

/**
 * A workspace's webhooks are its admins' and owners' (and instance admins'): they hold a signing
 * secret and say what happens in the workspace. Behind the workspace's gate (404 for anyone who
 * may not see the workspace), then 403 for its plain members, as for clients and projects.
 */
export async function webhookAccess(db: Db, actor: Actor, endpointId: string): Promise<EndpointRow> {
  const endpoint = await findEndpoint(db, endpointId);
  if (!endpoint) throw notFound();
  requireWorkspaceAdmin(await workspaceAccess(db, actor, endpoint.workspaceId));
  return endpoint;
}

/**
 * The workspaces whose webhooks hear of a report's events: its workspace when it covers exactly
 * one, whose admins may read it (`readGrant`); none for a report over several workspaces, whose
 * admins may not read it, so no webhook tells them of it.
 */
export function reportEventWorkspaces(report: { workspaceIds: readonly string[] }): readonly string[] {
  return report.workspaceIds.length === 1 ? report.workspaceIds : [];
}
