/**
 * Who may read a report (reports-api.md 4.1, GET /reports/:id), in the one function every report,
 * share-list, sends and discussion endpoint calls.
 */
import type { Db } from '../../db/database.js';
import { belongsToAll, isAdminRole, workspaceRole } from '../access/access.repository.js';
import type { AuthContext } from '../auth/auth.js';
import type { ReportRow } from './reports.repository.js';

export type ReadGrant = 'owner' | 'instance-admin' | 'workspace-admin';

/**
 * The owner while they still belong to every filtered workspace; any instance admin; an
 * admin/owner of the report's workspace when the report is scoped to exactly one. null: 404.
 */
export async function reportReadGrant(db: Db, actor: AuthContext, report: ReportRow): Promise<ReadGrant | null> {
  if (report.ownerUserId === actor.user.id && (await belongsToAll(db, actor.user.id, report.workspaceIds))) return 'owner';
  if (actor.user.instanceAdmin) return 'instance-admin';
  const [only, ...rest] = report.workspaceIds;
  if (only !== undefined && rest.length === 0 && isAdminRole(await workspaceRole(db, only, actor.user.id))) {
    return 'workspace-admin';
  }
  return null;
}

/** Owner-only actions (edit, recipients, send, mint) need the owner with current membership. */
export async function isActiveOwner(db: Db, actor: AuthContext, report: ReportRow): Promise<boolean> {
  return report.ownerUserId === actor.user.id && belongsToAll(db, actor.user.id, report.workspaceIds);
}
