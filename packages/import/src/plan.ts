/**
 * What an import of a read export would do, and doing it: rows matched to the workspace's members
 * by e-mail, to its projects by name and a project to be created to its client by name, each row that cannot be imported named with its line,
 * column and reason; then the entries sent in batches through `POST /time-entries/batch` (each
 * batch all or nothing). The CLI (`chronicle import`) and the web app's Import screen both run it.
 */
import { ChronicleError, unwrap, type ChronicleClient } from '../../client/src/index.js';
import type { Field } from './formats.js';
import type { ExportRow, ReadResult, RowProblem } from './read-export.js';

export type Role = 'owner' | 'admin' | 'member';

/** Who imports, into what: the caller, and the workspace's members, projects and clients. */
export interface ImportDirectory {
  callerId: string;
  members: readonly { userId: string; email: string; role: Role }[];
  projects: readonly { id: string; name: string; clientId: string | null }[];
  clients: readonly { id: string; name: string }[];
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

/** A project the import creates, with its client: one of the workspace's, one to create, or none. */
export interface ProjectToCreate {
  name: string;
  client: { id: string; name: string } | { create: string } | null;
}

export interface ImportPlan {
  toSend: Planned[];
  /** Projects to create first (only a workspace admin or owner may). */
  toCreate: ProjectToCreate[];
  /** Clients to create before those projects, by the name the file first gives them. */
  clientsToCreate: string[];
  /** Rows imported, but with something of them left out (a client the project does not have). */
  warnings: RowProblem[];
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
      } else if (row.client !== null && row.client.length > 100) {
        failed.push({ line: row.line, column: column('client'), message: 'is over 100 characters, too long for a client name' });
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
  const { toCreate, clientsToCreate, warnings } = planClients(toSend, directory, column('client'));
  // Creating a client needs the same right as creating a project, and happens only with one.
  if (toCreate.length > 0 && !isAdmin(callerRole)) {
    throw new ImportRefusedError(
      `Only a workspace admin or owner may create projects; leave out ${options.createProjectsHint} or ask one.`,
    );
  }
  failed.sort((a, b) => a.line - b.line);
  return { toSend, toCreate, clientsToCreate, warnings, failed, skipped: read.skipped, roles };
}

/**
 * The projects to create with their clients (docs/cli.md "Clients and billable"): a created
 * project takes the first client its rows name, found by name ignoring case or created; a project
 * that exists keeps its client. A row naming another client is imported with a warning, given
 * once per project and client name (on its first row) so a long file stays readable.
 */
function planClients(toSend: readonly Planned[], directory: ImportDirectory, clientColumn: string) {
  const projectsById = new Map(directory.projects.map((p) => [p.id, p]));
  const clientsById = new Map(directory.clients.map((c) => [c.id, c]));
  const clientsByName = new Map(directory.clients.map((c) => [c.name.toLowerCase(), c]));
  const created = new Map<string, { line: number; client: string | null }>();
  for (const { row, project } of toSend) {
    if (!project || !('create' in project)) continue;
    const first = created.get(project.create);
    if (!first) created.set(project.create, { line: row.line, client: row.client });
    else if (first.client === null && row.client !== null) first.client = row.client;
  }

  const warnings: RowProblem[] = [];
  const warned = new Set<string>();
  for (const { row, project } of toSend) {
    if (!project || row.client === null) continue;
    const client = row.client;
    let message: string | null = null;
    if ('id' in project) {
      const existing = projectsById.get(project.id);
      const current = existing?.clientId ? (clientsById.get(existing.clientId)?.name ?? null) : null;
      if (current?.toLowerCase() !== client.toLowerCase())
        message =
          `project "${existing?.name ?? row.project}" exists ${current === null ? 'without a client' : `with client "${current}"`}` +
          `; an import never changes a project's client, so "${client}" is not applied`;
    } else {
      const planned = created.get(project.create)?.client ?? null;
      if (planned !== null && planned.toLowerCase() !== client.toLowerCase())
        message = `project "${project.create}" is created with client "${planned}", named first; "${client}" is not applied`;
    }
    const key = `${'id' in project ? project.id : project.create}\u0000${client.toLowerCase()}`;
    if (message !== null && !warned.has(key)) {
      warned.add(key);
      warnings.push({ line: row.line, column: clientColumn, message: `${message} (noted on the first such row only)` });
    }
  }

  const clientsToCreate = new Map<string, string>();
  const toCreate: ProjectToCreate[] = [...created].map(([name, { client }]) => {
    if (client === null) return { name, client: null };
    const found = clientsByName.get(client.toLowerCase());
    if (found) return { name, client: { id: found.id, name: found.name } };
    if (!clientsToCreate.has(client.toLowerCase())) clientsToCreate.set(client.toLowerCase(), client);
    return { name, client: { create: clientsToCreate.get(client.toLowerCase()) ?? client } };
  });
  return { toCreate, clientsToCreate: [...clientsToCreate.values()], warnings };
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
  billable: 'billable',
  tags: 'tags',
};

export interface SendOptions {
  workspaceId: string;
  /** Entries per request (1-1000). */
  batchSize: number;
  /** The export's header names, to name the column of a refused field. */
  columns: ReadResult['columns'];
  /** After each client created. */
  onClientCreated?(name: string): void;
  /** After each project created. */
  onProjectCreated?(name: string): void;
  /** After each batch stored, with the entries stored so far. */
  onProgress?(imported: number): void;
}

const lines = (rows: readonly Planned[]) => `lines ${rows[0]?.row.line}-${rows.at(-1)?.row.line}`;

/**
 * Creates a client, or finds the one of that name (ignoring case) created since the plan was made
 * (the server answers 409 for a name the workspace has).
 */
async function createClient(api: ChronicleClient, workspaceId: string, name: string): Promise<{ id: string; created: boolean }> {
  const path = { id: workspaceId };
  try {
    return { id: (await unwrap(api.POST('/api/v1/workspaces/{id}/clients', { params: { path }, body: { name } }))).id, created: true };
  } catch (error) {
    if (!(error instanceof ChronicleError) || error.status !== 409) throw error;
    const clients = await unwrap(api.GET('/api/v1/workspaces/{id}/clients', { params: { path } }));
    const found = clients.find((c) => c.name.toLowerCase() === name.toLowerCase());
    if (!found) throw error;
    return { id: found.id, created: false };
  }
}

/** Creates the plan's clients and projects, then sends its entries batch by batch; the number of entries stored. */
export async function sendImport(api: ChronicleClient, plan: ImportPlan, options: SendOptions): Promise<number> {
  const clientIds = new Map<string, string>();
  for (const name of plan.clientsToCreate) {
    const client = await createClient(api, options.workspaceId, name);
    clientIds.set(name.toLowerCase(), client.id);
    if (client.created) options.onClientCreated?.(name);
  }
  const created = new Map<string, string>();
  for (const { name, client } of plan.toCreate) {
    const clientId = client === null ? null : 'id' in client ? client.id : (clientIds.get(client.create.toLowerCase()) ?? null);
    const project = await unwrap(
      api.POST('/api/v1/workspaces/{id}/projects', { params: { path: { id: options.workspaceId } }, body: { name, clientId } }),
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
      ...(row.billable === undefined ? {} : { billable: row.billable }),
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
