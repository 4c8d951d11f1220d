/**
 * What an import of a read export would do, and doing it: rows matched to the workspace's members
 * by e-mail and to its projects by name, each row that cannot be imported named with its line,
 * column and reason; then the entries sent in batches through `POST /time-entries/batch` (each
 * batch all or nothing). The CLI (`chronicle import`) and the web app's Import screen both run it.
 */
import { ChronicleError, unwrap, type ChronicleClient } from '../../client/src/index.js';
import type { Field } from './formats.js';
import type { ExportRow, ReadResult, RowProblem } from './read-export.js';

export type Role = 'owner' | 'admin' | 'member';

/** Who imports, into what: the caller, and the workspace's members and projects. */
export interface ImportDirectory {
  callerId: string;
  members: readonly { userId: string; email: string; role: Role }[];
  projects: readonly { id: string; name: string }[];
  /** The user ids of a project's members (asked only for projects the rows name). */
  projectMembers(projectId: string): Promise<readonly string[]>;
}

/** An entry to send, with the line it came from. */
export interface Planned {
  row: ExportRow;
  userId: string;
  /** A project id, or the name of a project still to be created. */
  project: { id: string } | { create: string } | null;
}

export interface ImportPlan {
  toSend: Planned[];
  /** Projects to create first (only a workspace admin or owner may). */
  toCreate: string[];
  /** Rows that cannot be imported, in line order. */
  failed: RowProblem[];
  /** Rows the export marks as nothing to import (running timers and the like). */
  skipped: RowProblem[];
  /** Every user whose project membership the import must add, by the project to create. */
  roles: ReadonlyMap<string, Role>;
}

/** An import that cannot go ahead as asked (not a member, or projects to create without the right). */
export class ImportRefusedError extends Error {}

/** A problem as one line of text: `line 12, column "Email": no member ...`. */
export const describeProblem = (p: { line: number | null; column: string | null; message: string }): string =>
  p.line === null ? p.message : `line ${p.line}${p.column ? `, column "${p.column}"` : ''}: ${p.message}`;

const isAdmin = (role: Role | undefined) => role === 'owner' || role === 'admin';

/** Matches the read rows against the workspace; sends nothing. */
export interface PlanOptions {
  /** Create the projects the rows name that the workspace lacks (an admin or owner only). */
  createProjects: boolean;
  /** How the caller turns that on, for the messages: `--create-projects` in the CLI. */
  createProjectsHint: string;
}

export async function planImport(read: ReadResult, directory: ImportDirectory, options: PlanOptions): Promise<ImportPlan> {
  const { members, projects } = directory;
  const callerRole = members.find((m) => m.userId === directory.callerId)?.role;
  if (!callerRole) throw new ImportRefusedError('You are not a member of this workspace; only members log time there.');

  const failed = [...read.failed];
  const byEmail = new Map(members.map((m) => [m.email.toLowerCase(), m]));
  const byName = new Map(projects.map((p) => [p.name, p]));
  const byFoldedName = new Map(projects.map((p) => [p.name.toLowerCase(), p]));
  const column = (field: Field) => read.columns[field] ?? field;
  const planned: Planned[] = [];
  for (const row of read.rows) {
    const member = byEmail.get(row.email);
    if (!member) {
      failed.push({ line: row.line, column: column('email'), message: `no member of the workspace has the e-mail ${row.email}` });
      continue;
    }
    if (member.userId !== directory.callerId && !isAdmin(callerRole)) {
      failed.push({ line: row.line, column: column('email'), message: "only a workspace admin or owner may import other people's time" });
      continue;
    }
    let project: Planned['project'] = null;
    if (row.project !== null) {
      const found = byName.get(row.project) ?? byFoldedName.get(row.project.toLowerCase());
      if (found) project = { id: found.id };
      else if (!options.createProjects) {
        failed.push({
          line: row.line,
          column: column('project'),
          message: `no project named "${row.project}" in the workspace (${options.createProjectsHint} creates it)`,
        });
        continue;
      } else if (row.project.length > 100) {
        failed.push({ line: row.line, column: column('project'), message: 'is over 100 characters, too long for a project name' });
        continue;
      } else project = { create: row.project };
    }
    planned.push({ row, userId: member.userId, project });
  }

  // A project of the workspace must be readable by the entry's user: a project member, or an
  // admin or owner of the workspace (docs/api.md "Time entries").
  const roles = new Map(members.map((m) => [m.userId, m.role]));
  const projectMembers = new Map<string, Set<string>>();
  for (const id of new Set(planned.flatMap((p) => (p.project && 'id' in p.project ? [p.project.id] : [])))) {
    projectMembers.set(id, new Set(await directory.projectMembers(id)));
  }
  const toSend = planned.filter((p) => {
    if (!p.project || !('id' in p.project) || isAdmin(roles.get(p.userId)) || projectMembers.get(p.project.id)?.has(p.userId)) return true;
    failed.push({ line: p.row.line, column: column('project'), message: `${p.row.email} is not a member of project "${p.row.project}"` });
    return false;
  });
  const toCreate = [...new Set(toSend.flatMap((p) => (p.project && 'create' in p.project ? [p.project.create] : [])))];
  if (toCreate.length > 0 && !isAdmin(callerRole)) {
    throw new ImportRefusedError(
      `Only a workspace admin or owner may create projects; leave out ${options.createProjectsHint} or ask one.`,
    );
  }
  failed.sort((a, b) => a.line - b.line);
  return { toSend, toCreate, failed, skipped: read.skipped, roles };
}

/** A batch the server refused: nothing of it was stored, and nothing after it was sent. */
export class BatchRefusedError extends Error {
  constructor(
    message: string,
    /** The server's reasons, each on the row (line and column) it names where it names one. */
    readonly problems: { line: number | null; column: string | null; message: string }[],
    /** Entries stored by the batches before it. */
    readonly imported: number,
  ) {
    super(message);
    this.name = 'BatchRefusedError';
  }
}

/** The fields of a batch entry the server may refuse, and the export column each comes from. */
const SERVER_FIELDS: Record<string, Field> = {
  userId: 'email',
  projectId: 'project',
  start: 'startDate',
  minutes: 'duration',
  description: 'description',
  tags: 'tags',
};

export interface SendOptions {
  workspaceId: string;
  /** Entries per request (1-1000). */
  batchSize: number;
  /** The export's header names, to name the column of a refused field. */
  columns: ReadResult['columns'];
  /** After each project created. */
  onProjectCreated?(name: string): void;
  /** After each batch stored, with the entries stored so far. */
  onProgress?(imported: number): void;
}

const lines = (rows: readonly Planned[]) => `lines ${rows[0]?.row.line}-${rows.at(-1)?.row.line}`;

/** Creates the plan's projects, then sends its entries batch by batch; the number of entries stored. */
export async function sendImport(api: ChronicleClient, plan: ImportPlan, options: SendOptions): Promise<number> {
  const created = new Map<string, string>();
  for (const name of plan.toCreate) {
    const project = await unwrap(
      api.POST('/api/v1/workspaces/{id}/projects', { params: { path: { id: options.workspaceId } }, body: { name } }),
    );
    created.set(name, project.id);
    options.onProjectCreated?.(name);
    const users = new Set(plan.toSend.filter((p) => p.project && 'create' in p.project && p.project.create === name).map((p) => p.userId));
    for (const userId of users) {
      if (!isAdmin(plan.roles.get(userId)))
        await unwrap(api.PUT('/api/v1/projects/{id}/members/{userId}', { params: { path: { id: project.id, userId } } }));
    }
  }

  const column = (field: Field) => options.columns[field] ?? field;
  let imported = 0;
  for (let offset = 0; offset < plan.toSend.length; offset += options.batchSize) {
    const batch = plan.toSend.slice(offset, offset + options.batchSize);
    const entries = batch.map(({ row, userId, project }) => ({
      workspaceId: options.workspaceId,
      userId,
      projectId: project === null ? null : 'id' in project ? project.id : (created.get(project.create) ?? null),
      start: row.start,
      minutes: row.minutes,
      description: row.description,
      tags: row.tags,
    }));
    try {
      await unwrap(api.POST('/api/v1/time-entries/batch', { body: { entries } }));
    } catch (error) {
      if (!(error instanceof ChronicleError)) throw error;
      const problems = error.errors.map((e) => {
        const row = e.index === undefined ? undefined : batch[e.index]?.row;
        const field = SERVER_FIELDS[/^\/entries\/\d+\/(\w+)/.exec(e.path)?.[1] ?? ''];
        return row
          ? { line: row.line, column: field ? column(field) : null, message: e.message }
          : { line: null, column: null, message: `${e.path}: ${e.message}` };
      });
      const done = imported > 0 ? `${lines(plan.toSend.slice(0, offset))} were imported; ` : '';
      throw new BatchRefusedError(
        `The server refused the batch of ${lines(batch)} (${error.detail ?? error.status}); nothing of it was stored. ${done}the rest was not sent.`,
        problems,
        imported,
      );
    }
    imported += batch.length;
    options.onProgress?.(imported);
  }
  return imported;
}
