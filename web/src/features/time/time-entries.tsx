/** Time entries: a filtered, paged list; add and edit. */
import { useEffect, useState, type SyntheticEvent } from 'react';
import { api, type TimeEntry } from '../../lib/api.js';
import { useTitle } from '../../lib/session.js';
import { Link } from '../../lib/router.js';
import {
  ErrorMessage,
  Field,
  Loading,
  formatMinutes,
  Time,
  useAction,
  useLoad,
  Pager,
  InputField,
  SelectField,
  FilterForm,
} from '../../components/ui/ui.js';

const PAGE = 50;

/** `2026-11-03T09:30` in the browser's zone, for a datetime-local input. */
function localInput(instant: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}T${pad(instant.getHours())}:${pad(instant.getMinutes())}`;
}

export function TimeEntries() {
  useTitle('Time');
  const workspaces = useLoad(() => api.workspaces(), []);
  const [workspaceId, setWorkspaceId] = useState('');
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<TimeEntry | null>(null);
  const entries = useLoad(() => api.timeEntries({ workspaceId: workspaceId || undefined, limit: PAGE, offset }), [workspaceId, offset]);
  const projects = useLoad(async () => {
    const all = await Promise.all((workspaces.data ?? []).map((w) => api.projects(w.id)));
    return new Map(all.flat().map((p) => [p.id, p]));
  }, [workspaces.data]);
  const names = new Map((workspaces.data ?? []).map((w) => [w.id, w.name]));
  const total = entries.data?.total ?? 0;
  return (
    <>
      <h1>Time</h1>
      {workspaces.data && workspaces.data.length > 0 ? (
        <EntryForm
          key={editing?.id ?? 'new'}
          entry={editing}
          workspaces={workspaces.data}
          onDone={() => {
            setEditing(null);
            entries.reload();
          }}
        />
      ) : workspaces.data ? (
        <p className="empty">
          You are in no workspace yet, so there is nowhere to log time. <Link to="/workspaces">Create a workspace</Link>, or ask a teammate
          to add you to theirs.
        </p>
      ) : null}
      <h2>Entries</h2>
      <FilterForm label="Filter entries">
        <SelectField
          label="Workspace"
          value={workspaceId}
          onChange={(value) => {
            setWorkspaceId(value);
            setOffset(0);
          }}
          options={[['', 'All workspaces'], ...(workspaces.data ?? []).map((w) => [w.id, w.name] as const)]}
        />
      </FilterForm>
      {entries.error ? <ErrorMessage error={entries.error} /> : null}
      {!entries.data ? (
        entries.error ? null : (
          <Loading what="entries" />
        )
      ) : entries.data.items.length === 0 ? (
        <p>No entries yet.</p>
      ) : (
        <>
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Time entries">
            <table>
              <thead>
                <tr>
                  <th scope="col">Start</th>
                  <th scope="col" className="num">
                    Duration
                  </th>
                  <th scope="col">Description</th>
                  <th scope="col">Project</th>
                  <th scope="col">Workspace</th>
                  <th scope="col">Tags</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {entries.data.items.map((e) => (
                  <tr key={e.id}>
                    <td>
                      <Time instant={e.start} />
                    </td>
                    <td className="num">{formatMinutes(e.minutes)}</td>
                    <td>{e.description}</td>
                    <td>{e.projectId ? (projects.data?.get(e.projectId)?.name ?? '…') : '—'}</td>
                    <td>{names.get(e.workspaceId) ?? ''}</td>
                    <td>{e.tags.join(', ')}</td>
                    <td>
                      <button
                        type="button"
                        className="secondary"
                        onClick={() => {
                          setEditing(e);
                          window.scrollTo(0, 0);
                        }}
                      >
                        Edit<span className="sr-only"> entry of {new Date(e.start).toLocaleString()}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager offset={offset} total={total} pageSize={PAGE} onChange={setOffset} />
        </>
      )}
    </>
  );
}

function EntryForm({
  entry,
  workspaces,
  onDone,
}: {
  entry: TimeEntry | null;
  workspaces: { id: string; name: string }[];
  onDone: () => void;
}) {
  const [workspaceId, setWorkspaceId] = useState(entry?.workspaceId ?? workspaces[0]?.id ?? '');
  const [projectId, setProjectId] = useState(entry?.projectId ?? '');
  const [start, setStart] = useState(localInput(entry ? new Date(entry.start) : new Date()));
  const [minutes, setMinutes] = useState(String(entry?.minutes ?? 60));
  const [description, setDescription] = useState(entry?.description ?? '');
  const [tags, setTags] = useState((entry?.tags ?? []).join(', '));
  const [saved, setSaved] = useState(false);
  const projects = useLoad(() => (workspaceId ? api.projects(workspaceId) : Promise.resolve([])), [workspaceId]);
  useEffect(() => {
    setSaved(false);
  }, [start, minutes, description]);
  const save = useAction(async () => {
    const fields = {
      projectId: projectId || null,
      start: new Date(start).toISOString(),
      minutes: Number(minutes),
      description,
      tags: [
        ...new Set(
          tags
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        ),
      ],
    };
    return entry ? api.patchTimeEntry(entry.id, fields) : api.createTimeEntry({ workspaceId, ...fields });
  });
  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    if (await save.run()) {
      setSaved(true);
      setDescription('');
      onDone();
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="card entry-form" aria-label={entry ? 'Edit entry' : 'Add an entry'}>
      <h2>{entry ? 'Edit entry' : 'Add an entry'}</h2>
      <div className="grid">
        <Field label="Workspace">
          {(id) => (
            <select
              id={id}
              value={workspaceId}
              disabled={Boolean(entry)}
              onChange={(e) => {
                setWorkspaceId(e.target.value);
                setProjectId('');
              }}
            >
              {workspaces.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Project">
          {(id) => (
            <select
              id={id}
              value={projectId}
              onChange={(e) => {
                setProjectId(e.target.value);
              }}
            >
              <option value="">No project</option>
              {(projects.data ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <InputField label="Start" type="datetime-local" required value={start} onChange={setStart} />
        <InputField label="Minutes" type="number" required min={1} max={1440} inputMode="numeric" value={minutes} onChange={setMinutes} />
        <InputField label="Description" type="text" maxLength={2000} value={description} onChange={setDescription} />
        <InputField label="Tags (comma-separated)" type="text" value={tags} onChange={setTags} />
      </div>
      <ErrorMessage error={save.error} />
      {saved ? <p role="status">Saved.</p> : null}
      <div className="row">
        <button type="submit" disabled={save.busy}>
          {save.busy ? 'Saving…' : entry ? 'Save entry' : 'Add entry'}
        </button>
        {entry ? (
          <button type="button" className="secondary" onClick={onDone}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
