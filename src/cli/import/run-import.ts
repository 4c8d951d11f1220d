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
import {
  BatchRefusedError,
  checkRates,
  describeProblem,
  hasMoneyColumns,
  loadRateBook,
  ExportFormatError,
  ImportRefusedError,
  planImport,
  readExport,
  sendImport,
  type DateFormat,
  type ExportFormat,
  type ImportPlan,
} from '../../../packages/import/src/index.js';

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

export interface Output {
  /** The summary and what a dry run would do. */
  out(line: string): void;
  /** Row problems, progress and notes. */
  err(line: string): void;
  /** Whether stderr is a terminal (a live progress bar) or not (one line per batch). */
  interactive: boolean;
}

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
  const [members, projects, clients] = await workspaceDirectory(api, options.workspace);
  let plan: ImportPlan;
  try {
    plan = await planImport(
      read,
      {
        callerId: me.id,
        members,
        projects,
        clients,
        projectMembers: async (id) =>
          (await unwrap(api.GET('/api/v1/projects/{id}/members', { params: { path: { id } } }))).map((m) => m.userId),
      },
      { createProjects: options.createProjects, createProjectsHint: '--create-projects' },
    );
  } catch (error) {
    if (error instanceof ImportRefusedError) throw new FailedError(error.message);
    throw error;
  }

  for (const problem of plan.failed) io.err(describeProblem(problem));
  for (const skip of plan.skipped) io.err(`skipped ${describeProblem(skip)}`);
  for (const warning of plan.warnings) io.err(`warning: ${describeProblem(warning)}`);
  const caller = { id: me.id, timezone: me.timezone, instanceAdmin: me.instanceAdmin };
  const book = hasMoneyColumns(read) ? await loadRateBook(api, plan, { workspaceId: options.workspace, caller }) : null;
  const rates = checkRates(read, plan, book, { locale: me.locale });
  for (const warning of rates.warnings) io.err(`warning: ${describeProblem(warning)}`);
  for (const note of rates.notes) io.err(`note: ${note}`);
  const summary: ImportSummary = { imported: 0, skipped: plan.skipped.length, failed: plan.failed.length };

  if (options.dryRun) {
    for (const name of plan.clientsToCreate) io.out(`would create client "${name}"`);
    for (const { name, client } of plan.toCreate) {
      const of = client === null ? '' : ` (client "${'id' in client ? client.name : client.create}")`;
      io.out(`would create project "${name}"${of}`);
    }
    io.out(
      `Dry run: ${plan.toSend.length} entries would be imported, ${summary.skipped} skipped, ${summary.failed} failed` +
        ` (dates read as ${read.dateFormat}, times in ${timezone}); nothing was changed.`,
    );
    if (summary.failed > 0) throw new FailedError('');
    return { ...summary, imported: 0 };
  }
  if (summary.failed > 0 && !options.skipInvalid) {
    io.out(`Imported 0 entries, skipped ${summary.skipped}, failed ${summary.failed}.`);
    throw new FailedError('Nothing was imported: fix the rows above, or pass --skip-invalid to import the others.');
  }

  const progress = createProgress(plan.toSend.length, io);
  try {
    summary.imported = await sendImport(api, plan, {
      workspaceId: options.workspace,
      batchSize: options.batchSize,
      columns: read.columns,
      onClientCreated: (name) => {
        io.err(`created client "${name}"`);
      },
      onProjectCreated: (name) => {
        io.err(`created project "${name}"`);
      },
      onProgress: (imported) => {
        progress.update(imported);
      },
    });
  } catch (error) {
    progress.stop();
    if (!(error instanceof BatchRefusedError)) throw error;
    for (const problem of error.problems) io.err(describeProblem(problem));
    summary.imported = error.imported;
    summary.failed += plan.toSend.length - error.imported;
    io.out(`Imported ${summary.imported} entries, skipped ${summary.skipped}, failed ${summary.failed}.`);
    throw new FailedError(error.message);
  }
  progress.stop();
  io.out(`Imported ${summary.imported} entries, skipped ${summary.skipped}, failed ${summary.failed}.`);
  return summary;
}

async function workspaceDirectory(api: ChronicleClient, workspaceId: string) {
  const path = { id: workspaceId };
  try {
    return await Promise.all([
      unwrap(api.GET('/api/v1/workspaces/{id}/members', { params: { path } })),
      unwrap(api.GET('/api/v1/workspaces/{id}/projects', { params: { path } })),
      unwrap(api.GET('/api/v1/workspaces/{id}/clients', { params: { path } })),
    ]);
  } catch (error) {
    if (error instanceof ChronicleError && error.status === 404) {
      throw new FailedError(`Workspace ${workspaceId} does not exist or you are not a member of it.`);
    }
    throw error;
  }
}
