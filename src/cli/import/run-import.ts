/**
 * `chronicle import toggl|clockify`: reads the export, matches users by e-mail and projects by
 * name in one workspace, checks every row, then sends the entries in batches through
 * `POST /time-entries/batch` (each batch all or nothing). Rows that cannot be imported are listed
 * with line, column and reason; unless `--skip-invalid` is given, one such row means nothing is
 * imported at all.
 */
import { readFile } from 'node:fs/promises';
import { IANAZone } from 'luxon';
import { ChronicleError, unwrap, type ChronicleClient } from '../api-client.js';
import { FailedError, UsageError } from '../cli-errors.js';
import { createProgress } from '../progress.js';
import type { DateFormat, ExportFormat, Field } from './formats.js';
import { ExportFormatError, readExport, type ExportRow, type RowProblem } from './read-export.js';

export interface ImportOptions {
  file: string;
  format: ExportFormat;
  workspace: string;
  timezone?: string;
  dateFormat?: DateFormat;
  createProjects: boolean;
  skipInvalid: boolean;
  dryRun: boolean;
  batchSize: number;
}

export interface ImportSummary {
  imported: number;
  skipped: number;
  failed: number;
}

interface Member {
  userId: string;
  email: string;
  role: 'owner' | 'admin' | 'member';
}
interface Project {
  id: string;
  name: string;
}

/** An entry to send, with the line it came from. */
interface Planned {
  row: ExportRow;
  userId: string;
  /** A project id, or the name of a project still to be created. */
  project: { id: string } | { create: string } | null;
}

export interface Output {
  /** The summary and what a dry run would do. */
  out(line: string): void;
  /** Row problems, progress and notes. */
  err(line: string): void;
  /** Whether stderr is a terminal (a live progress bar) or not (one line per batch). */
  interactive: boolean;
}

const describe = (p: RowProblem) => `line ${p.line}${p.column ? `, column "${p.column}"` : ''}: ${p.message}`;

export async function runImport(api: ChronicleClient, options: ImportOptions, io: Output): Promise<ImportSummary> {
  let text: string;
  try {
    text = await readFile(options.file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${options.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }

  const me = await unwrap(api.GET('/api/v1/me'));
  const timezone = options.timezone ?? me.timezone;
  if (!IANAZone.isValidZone(timezone))
    throw new UsageError(`--timezone: unknown time zone "${timezone}" (an IANA name such as Europe/Berlin).`);
  let read;
  try {
    read = readExport(text, options.format, { timezone, ...(options.dateFormat ? { dateFormat: options.dateFormat } : {}) });
  } catch (error) {
    if (error instanceof ExportFormatError) throw new FailedError(error.message);
    throw error;
  }
  const [members, projects] = await workspaceDirectory(api, options.workspace);
  const callerRole = members.find((m) => m.userId === me.id)?.role;
  if (!callerRole) throw new FailedError(`You are not a member of workspace ${options.workspace}; only members log time there.`);
  const isAdmin = (role: string | undefined) => role === 'owner' || role === 'admin';

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
    if (member.userId !== me.id && !isAdmin(callerRole)) {
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
          message: `no project named "${row.project}" in the workspace (--create-projects creates it)`,
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
    const list = await unwrap(api.GET('/api/v1/projects/{id}/members', { params: { path: { id } } }));
    projectMembers.set(id, new Set(list.map((m) => m.userId)));
  }
  const toSend = planned.filter((p) => {
    if (!p.project || !('id' in p.project) || isAdmin(roles.get(p.userId)) || projectMembers.get(p.project.id)?.has(p.userId)) return true;
    failed.push({ line: p.row.line, column: column('project'), message: `${p.row.email} is not a member of project "${p.row.project}"` });
    return false;
  });
  const toCreate = [...new Set(toSend.flatMap((p) => (p.project && 'create' in p.project ? [p.project.create] : [])))];
  if (toCreate.length > 0 && !isAdmin(callerRole)) {
    throw new FailedError('Only a workspace admin or owner may create projects; leave out --create-projects or ask one.');
  }

  failed.sort((a, b) => a.line - b.line);
  for (const problem of failed) io.err(describe(problem));
  for (const skip of read.skipped) io.err(`skipped ${describe(skip)}`);
  const summary: ImportSummary = { imported: 0, skipped: read.skipped.length, failed: failed.length };
  const lines = (rows: readonly Planned[]) => `lines ${rows[0]?.row.line}-${rows.at(-1)?.row.line}`;

  if (options.dryRun) {
    for (const name of toCreate) io.out(`would create project "${name}"`);
    io.out(
      `Dry run: ${toSend.length} entries would be imported, ${summary.skipped} skipped, ${summary.failed} failed` +
        ` (dates read as ${read.dateFormat}, times in ${timezone}); nothing was changed.`,
    );
    if (summary.failed > 0) throw new FailedError('');
    return { ...summary, imported: 0 };
  }
  if (summary.failed > 0 && !options.skipInvalid) {
    io.out(`Imported 0 entries, skipped ${summary.skipped}, failed ${summary.failed}.`);
    throw new FailedError('Nothing was imported: fix the rows above, or pass --skip-invalid to import the others.');
  }

  const created = new Map<string, string>();
  for (const name of toCreate) {
    const project = await unwrap(
      api.POST('/api/v1/workspaces/{id}/projects', { params: { path: { id: options.workspace } }, body: { name } }),
    );
    created.set(name, project.id);
    io.err(`created project "${name}"`);
    const users = new Set(toSend.filter((p) => p.project && 'create' in p.project && p.project.create === name).map((p) => p.userId));
    for (const userId of users) {
      if (!isAdmin(roles.get(userId)))
        await unwrap(api.PUT('/api/v1/projects/{id}/members/{userId}', { params: { path: { id: project.id, userId } } }));
    }
  }

  const progress = createProgress(toSend.length, io);
  for (let offset = 0; offset < toSend.length; offset += options.batchSize) {
    const batch = toSend.slice(offset, offset + options.batchSize);
    const entries = batch.map(({ row, userId, project }) => ({
      workspaceId: options.workspace,
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
      progress.stop();
      if (!(error instanceof ChronicleError)) throw error;
      for (const e of error.errors) {
        const row = e.index === undefined ? undefined : batch[e.index]?.row;
        const field = /^\/entries\/\d+\/(\w+)/.exec(e.path)?.[1] ?? '';
        io.err(
          row
            ? describe({ line: row.line, column: SERVER_FIELDS[field] ? column(SERVER_FIELDS[field]) : null, message: e.message })
            : `${e.path}: ${e.message}`,
        );
      }
      summary.failed += toSend.length - offset;
      io.out(`Imported ${summary.imported} entries, skipped ${summary.skipped}, failed ${summary.failed}.`);
      const done = summary.imported > 0 ? `${lines(toSend.slice(0, offset))} were imported; ` : '';
      throw new FailedError(
        `The server refused the batch of ${lines(batch)} (${error.detail ?? error.status}); nothing of it was stored. ` +
          `${done}the rest was not sent.`,
      );
    }
    summary.imported += batch.length;
    progress.update(summary.imported);
  }
  progress.stop();
  io.out(`Imported ${summary.imported} entries, skipped ${summary.skipped}, failed ${summary.failed}.`);
  return summary;
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

async function workspaceDirectory(api: ChronicleClient, workspaceId: string): Promise<[Member[], Project[]]> {
  const path = { id: workspaceId };
  try {
    return await Promise.all([
      unwrap(api.GET('/api/v1/workspaces/{id}/members', { params: { path } })),
      unwrap(api.GET('/api/v1/workspaces/{id}/projects', { params: { path } })),
    ]);
  } catch (error) {
    if (error instanceof ChronicleError && error.status === 404) {
      throw new FailedError(`Workspace ${workspaceId} does not exist or you are not a member of it.`);
    }
    throw error;
  }
}
