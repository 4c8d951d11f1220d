import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { isoInstant, jsonTextOf, onlyRow } from '../db/rows.js';
import { projectMembers, projects, users } from '../db/schema.js';

export type ProjectRow = typeof projects.$inferSelect;
export interface ProjectMemberRow {
  userId: string;
  name: string;
}

export async function insertProject(db: Db, row: typeof projects.$inferInsert): Promise<ProjectRow> {
  return onlyRow(await db.insert(projects).values(row).returning());
}

export async function findProject(db: Db, id: string): Promise<ProjectRow | undefined> {
  const [row] = await db.select().from(projects).where(eq(projects.id, id));
  return row;
}

/**
 * Every project of the workspace, newest first, flagged with whether `userId` is in it, as the JSON
 * array the API answers, written by the statement (clients.repository.ts `clientsJson` says why).
 */
export async function projectsJson(db: Db, workspaceId: string, userId: string): Promise<string> {
  const result = await db.execute(sql`
    select coalesce(json_agg((select row_to_json(r) from (select p.id, p.workspace_id as "workspaceId", p.name, p.client_id as "clientId",
        p.billable_by_default as "billableByDefault", ${isoInstant('p.created_at')} as "createdAt",
        exists (select 1 from ${projectMembers} pm where pm.project_id = p.id and pm.user_id = ${userId}) as "isMember") r)
      order by p.created_at desc, p.id desc), '[]')::text as json
    from ${projects} p where p.workspace_id = ${workspaceId}`);
  return jsonTextOf(result);
}

/** The foreign key that keeps a project's client in the project's workspace. */
export const PROJECT_CLIENT_KEY = 'projects_client_workspace_fk';

/** A client of another workspace, or none, fails PROJECT_CLIENT_KEY. */
export async function updateProject(
  db: Db,
  id: string,
  patch: Partial<Pick<typeof projects.$inferInsert, 'name' | 'clientId' | 'billableByDefault'>>,
): Promise<ProjectRow | undefined> {
  const [row] = await db.update(projects).set(patch).where(eq(projects.id, id)).returning();
  return row;
}

/** Adds the member unless already there. */
export async function addProjectMember(db: Db, row: typeof projectMembers.$inferInsert): Promise<void> {
  await db.insert(projectMembers).values(row).onConflictDoNothing();
}

export async function removeProjectMember(db: Db, projectId: string, userId: string): Promise<void> {
  await db.delete(projectMembers).where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)));
}

/** Newest first by when they were added, the user id breaking ties (docs/api.md "Conventions"). */
export function listProjectMembers(db: Db, projectId: string): Promise<ProjectMemberRow[]> {
  return db
    .select({ userId: projectMembers.userId, name: users.name })
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(eq(projectMembers.projectId, projectId))
    .orderBy(desc(projectMembers.createdAt), desc(projectMembers.userId));
}
