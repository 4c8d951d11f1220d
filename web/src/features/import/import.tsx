/**
 * Import time from a Toggl Track or Clockify detailed-report export (CSV), as `chronicle import`
 * does: the file is read in the browser, every row checked against the workspace (a dry run that
 * changes nothing, with each problem on its line and column), then the entries are sent in
 * batches, each all or nothing. The reader (csv-parse, luxon) loads only when this screen does.
 */
import { useState, type SyntheticEvent } from 'react';
import { api, type User } from '../../lib/api.js';
import { useSession, useTitle } from '../../lib/session.js';
import { CheckField, ErrorMessage, Field, InputField, Loaded, SelectField, Status, useAction, useLoad } from '../../components/ui/ui.js';
import { Link } from '../../lib/router.js';

type Reader = typeof import('../../../../packages/import/src/index.js');
type Format = 'toggl' | 'clockify';

/** Entries per request, as the CLI's default. */
const BATCH_SIZE = 1000;
/** The largest export the screen reads (the CLI has no such limit; a browser tab should not hang). */
const MAX_FILE_BYTES = 20 * 1024 * 1024;

interface Checked {
  reader: Reader;
  plan: Awaited<ReturnType<Reader['planImport']>>;
  read: ReturnType<Reader['readExport']>;
  /** The export's rates and amounts that differ from Chronicle's, and what was not compared. */
  rates: ReturnType<Reader['checkRates']>;
  timezone: string;
  workspaceId: string;
}

/** Reads and checks the file; changes nothing. */
async function check(
  file: File,
  format: Format,
  workspaceId: string,
  timezone: string,
  createProjects: boolean,
  me: User,
): Promise<Checked> {
  if (file.size > MAX_FILE_BYTES)
    throw new Error(`The file is ${(file.size / 1048576).toFixed(1)} MB; the app reads exports up to 20 MB (the CLI reads any size).`);
  const [reader, text, members, projects, clients] = await Promise.all([
    import('../../../../packages/import/src/index.js'),
    file.text(),
    api.members(workspaceId),
    api.projects(workspaceId),
    api.clients(workspaceId),
  ]);
  let read;
  try {
    read = reader.readExport(text, format, { timezone });
  } catch (error) {
    if (error instanceof reader.ExportFormatError) throw new Error(error.message, { cause: error });
    throw error;
  }
  const plan = await reader.planImport(
    read,
    { callerId: me.id, members, projects, clients, projectMembers: async (id) => (await api.projectMembers(id)).map((m) => m.userId) },
    { createProjects, createProjectsHint: '"Create missing projects"' },
  );
  const caller = { id: me.id, timezone: me.timezone, instanceAdmin: me.instanceAdmin };
  const book = reader.hasMoneyColumns(read) ? await api.importRates(plan, { workspaceId, caller }) : null;
  const rates = reader.checkRates(read, plan, book, { locale: me.locale });
  return { reader, plan, read, rates, timezone, workspaceId };
}

export function Import() {
  useTitle('Import time');
  const { me } = useSession();
  const workspaces = useLoad(() => api.workspaces(), []);
  const [workspaceId, setWorkspaceId] = useState('');
  const [format, setFormat] = useState<Format>('toggl');
  const [file, setFile] = useState<File | null>(null);
  const [timezone, setTimezone] = useState(me.timezone);
  const [createProjects, setCreateProjects] = useState(false);
  const [skipInvalid, setSkipInvalid] = useState(false);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [fileError, setFileError] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const checking = useAction(check);
  const importing = useAction(async (c: Checked) => {
    setProgress(0);
    try {
      const imported = await api.importEntries(c.plan, {
        workspaceId: c.workspaceId,
        batchSize: BATCH_SIZE,
        columns: c.read.columns,
        onProgress: setProgress,
      });
      setDone(
        `Imported ${imported} ${imported === 1 ? 'entry' : 'entries'}; skipped ${c.plan.skipped.length}, left out ${c.plan.failed.length}.`,
      );
      setChecked(null);
    } catch (error) {
      if (error instanceof c.reader.BatchRefusedError) {
        throw new Error(`${error.message} ${error.problems.map((p) => c.reader.describeProblem(p)).join('; ')}`, { cause: error });
      }
      throw error;
    } finally {
      setProgress(null);
    }
  });
  const wsId = workspaceId || workspaces.data?.[0]?.id || '';

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setDone(null);
    setChecked(null);
    if (!file) {
      setFileError('Choose the CSV file of a detailed report.');
      return;
    }
    setFileError('');
    void checking.run(file, format, wsId, timezone.trim(), createProjects, me).then((result) => {
      if (result) setChecked(result);
    });
  };
  const changed = () => {
    setChecked(null);
    setDone(null);
  };

  return (
    <>
      <h1>Import time</h1>
      <p>
        Bring your history from Toggl Track or Clockify: export a <strong>detailed report</strong> as CSV there, choose it here, and check
        it. Nothing is stored until you import. People are matched by e-mail among the workspace&apos;s members, projects by name.
      </p>
      <Loaded state={workspaces} what="workspaces">
        {(list) =>
          list.length === 0 ? (
            <p>
              You are in no workspace yet. Time is imported into a workspace: <Link to="/workspaces">create one</Link> or ask a teammate to
              add you.
            </p>
          ) : (
            <form onSubmit={submit} noValidate className="stack">
              <SelectField
                label="Workspace"
                value={wsId}
                onChange={(value) => {
                  setWorkspaceId(value);
                  changed();
                }}
                options={list.map((w) => [w.id, w.name] as const)}
              />
              <SelectField
                label="Exported from"
                value={format}
                onChange={(value) => {
                  setFormat(value as Format);
                  changed();
                }}
                options={[
                  ['toggl', 'Toggl Track (detailed report, CSV)'],
                  ['clockify', 'Clockify (detailed report, CSV)'],
                ]}
              />
              <Field label="CSV file" {...(fileError ? {} : { hint: 'Up to 20 MB.' })}>
                {(id, describedBy) => (
                  <>
                    <input
                      id={id}
                      type="file"
                      accept=".csv,text/csv"
                      aria-describedby={fileError ? `${id}-error` : describedBy}
                      aria-invalid={fileError ? true : undefined}
                      onChange={(e) => {
                        setFile(e.target.files?.[0] ?? null);
                        setFileError('');
                        changed();
                      }}
                    />
                    {fileError && (
                      <p className="field-error" id={`${id}-error`}>
                        {fileError}
                      </p>
                    )}
                  </>
                )}
              </Field>
              <InputField
                label="Time zone of the export"
                hint="The zone the export's times were written in: usually the one set in that tracker's profile."
                value={timezone}
                onChange={(value) => {
                  setTimezone(value);
                  changed();
                }}
              />
              <CheckField
                checked={createProjects}
                onChange={(value) => {
                  setCreateProjects(value);
                  changed();
                }}
              >
                Create missing projects (workspace admins and owners), with their people as members
              </CheckField>
              <CheckField checked={skipInvalid} onChange={setSkipInvalid}>
                Import the other rows when some cannot be imported
              </CheckField>
              <p>
                <button type="submit" disabled={checking.busy || importing.busy}>
                  {checking.busy ? 'Checking…' : 'Check the file'}
                </button>
              </p>
              <ErrorMessage error={checking.error} />
            </form>
          )
        }
      </Loaded>
      {checked && (
        <CheckResult checked={checked} skipInvalid={skipInvalid} busy={importing.busy} onImport={() => void importing.run(checked)} />
      )}
      {progress !== null && checked && (
        <Status>
          Imported {progress} of {checked.plan.toSend.length}…
        </Status>
      )}
      <ErrorMessage error={importing.error} />
      {done && (
        <Status>
          {done} <Link to="/time">See them under Time</Link>.
        </Status>
      )}
    </>
  );
}

function CheckResult({
  checked,
  skipInvalid,
  busy,
  onImport,
}: {
  checked: Checked;
  skipInvalid: boolean;
  busy: boolean;
  onImport: () => void;
}) {
  const { plan, read, rates, timezone } = checked;
  const count = plan.toSend.length;
  const blocked = plan.failed.length > 0 && !skipInvalid;
  return (
    <section aria-labelledby="import-check">
      <h2 id="import-check">What the import would do</h2>
      <Status>
        {count} {count === 1 ? 'entry' : 'entries'} would be imported, {plan.skipped.length} skipped, {plan.failed.length} cannot be
        imported (dates read as {read.dateFormat}, times in {timezone}). Nothing has been changed.
      </Status>
      {plan.clientsToCreate.length > 0 && <p>Clients to create: {plan.clientsToCreate.map((name) => `“${name}”`).join(', ')}.</p>}
      {plan.toCreate.length > 0 && (
        <p>
          Projects to create:{' '}
          {plan.toCreate
            .map(({ name, client }) => `“${name}”${client === null ? '' : ` (client “${'id' in client ? client.name : client.create}”)`}`)
            .join(', ')}
          .
        </p>
      )}
      {plan.warnings.length > 0 && (
        <>
          <h3 id="import-warnings">Imported, with something left out</h3>
          <ul aria-labelledby="import-warnings">
            {plan.warnings.slice(0, 100).map((w) => (
              <li key={`${w.line}:${w.message}`}>
                Line {w.line}, column {w.column ?? '—'}: {w.message}
              </li>
            ))}
          </ul>
          {plan.warnings.length > 100 && <p>Only the first 100 of them are listed.</p>}
        </>
      )}
      {rates.warnings.length + rates.notes.length > 0 && (
        <>
          <h3 id="import-rates">Rates and amounts that differ from Chronicle&apos;s</h3>
          <p>The export&apos;s rates are never imported: each entry is priced by the rates set in Chronicle.</p>
          {rates.warnings.length > 0 && (
            <ul aria-labelledby="import-rates">
              {rates.warnings.map((w) => (
                <li key={`${w.line}:${w.message}`}>
                  Line {w.line}
                  {w.column === null ? '' : `, column ${w.column}`}: {w.message}
                </li>
              ))}
            </ul>
          )}
          {rates.notes.map((note) => (
            <p key={note}>{note.charAt(0).toUpperCase() + note.slice(1)}.</p>
          ))}
        </>
      )}
      {plan.failed.length + plan.skipped.length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Rows that will not be imported">
          <table className="import-problems">
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Column</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {[...plan.failed.map((p) => ({ ...p, skipped: false })), ...plan.skipped.map((p) => ({ ...p, skipped: true }))]
                .sort((a, b) => a.line - b.line)
                .slice(0, 500)
                .map((p) => (
                  <tr key={`${p.line}:${p.column ?? ''}:${p.message}`}>
                    <td>{p.line}</td>
                    <td>{p.column ?? '—'}</td>
                    <td>{p.skipped ? `Skipped: ${p.message}` : p.message}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      )}
      {plan.failed.length + plan.skipped.length > 500 && <p>Only the first 500 of them are listed.</p>}
      {blocked ? (
        <p>Fix these rows in the file and check it again, or tick “Import the other rows” to leave them out.</p>
      ) : count > 0 ? (
        <p>
          <button type="button" disabled={busy} onClick={onImport}>
            {busy ? 'Importing…' : `Import ${count} ${count === 1 ? 'entry' : 'entries'}`}
          </button>
        </p>
      ) : (
        <p>There is nothing to import.</p>
      )}
    </section>
  );
}
