/**
 * Time entries: add, edit and delete; the list filtered by workspace, project, person and dates,
 * grouped by day and week with their totals, every time in the signed-in person's profile zone.
 */
import { useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { api, type Member, type ProjectListItem, type TimeEntry, type Workspace } from '../../lib/api.js';
import { Link } from '../../lib/router.js';
import { useSession, useTitle } from '../../lib/session.js';
import { addDays, dayOf, fromLocalInput, mondayOf, startOfDay, toLocalInput } from '../../lib/zoned-time.js';
import {
  CheckField,
  ConfirmDelete,
  ErrorMessage,
  Field,
  FilterForm,
  Form,
  formatMinutes,
  InputField,
  Pager,
  SelectField,
  Status,
  useAction,
  useLoad,
} from '../../components/ui/ui.js';

const PAGE = 50;
/** The most entries one list request may return (docs/api.md, "Time entries"). */
const MOST_PER_REQUEST = 1000;
const MAX_TAGS = 20;
const MAX_TAG_LENGTH = 50;

type ListQuery = NonNullable<Parameters<typeof api.timeEntries>[0]>;

interface Filters {
  workspaceId: string;
  projectId: string;
  userId: string;
  tag: string;
  from: string;
  to: string;
}
const NO_FILTERS: Filters = { workspaceId: '', projectId: '', userId: '', tag: '', from: '', to: '' };

/** Dates and times of one zone, in the browser's language. */
function zoneFormats(zone: string) {
  return {
    time: new Intl.DateTimeFormat(undefined, { timeZone: zone, timeStyle: 'short' }),
    full: new Intl.DateTimeFormat(undefined, { timeZone: zone, dateStyle: 'medium', timeStyle: 'short' }),
    // Calendar days (`YYYY-MM-DD`) are read at UTC midnight, so they print as themselves.
    day: new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }),
    shortDay: new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', day: 'numeric', month: 'short' }),
    abbreviation: (() => {
      const part = new Intl.DateTimeFormat(undefined, { timeZone: zone, timeZoneName: 'short' })
        .formatToParts(new Date())
        .find((p) => p.type === 'timeZoneName');
      return part?.value ?? '';
    })(),
  };
}
type Formats = ReturnType<typeof zoneFormats>;
const calendarDay = (format: Intl.DateTimeFormat, date: string) => format.format(new Date(`${date}T00:00:00Z`));

/** The list request for the filters, dates turned into instants of `zone` ([from, to + 1 day)). */
function listQuery(filters: Filters, zone: string): ListQuery {
  return {
    ...(filters.workspaceId ? { workspaceId: filters.workspaceId } : {}),
    ...(filters.projectId ? { projectId: filters.projectId } : {}),
    ...(filters.userId ? { userId: filters.userId } : {}),
    ...(filters.tag.trim() ? { tag: filters.tag.trim() } : {}),
    ...(filters.from ? { from: startOfDay(filters.from, zone).toISOString() } : {}),
    ...(filters.to ? { to: startOfDay(addDays(filters.to, 1), zone).toISOString() } : {}),
  };
}

/**
 * Minutes per day and per week (keyed by their `YYYY-MM-DD` and Monday) of every entry matching
 * `query` in the whole weeks the shown entries fall in, so a total counts entries on other pages too.
 */
async function totalsFor(items: TimeEntry[], query: ListQuery, zone: string) {
  const days = new Map<string, number>();
  const weeks = new Map<string, number>();
  const newest = items[0];
  const oldest = items[items.length - 1];
  if (!newest || !oldest) return { days, weeks };
  const from = startOfDay(mondayOf(dayOf(new Date(oldest.start), zone)), zone);
  const to = startOfDay(addDays(mondayOf(dayOf(new Date(newest.start), zone)), 7), zone);
  const within = {
    ...query,
    from: new Date(Math.max(from.getTime(), query.from ? Date.parse(query.from) : 0)).toISOString(),
    to: new Date(Math.min(to.getTime(), query.to ? Date.parse(query.to) : Infinity)).toISOString(),
  };
  for (let offset = 0; ; offset += MOST_PER_REQUEST) {
    const page = await api.timeEntries({ ...within, limit: MOST_PER_REQUEST, offset });
    for (const entry of page.items) {
      const day = dayOf(new Date(entry.start), zone);
      days.set(day, (days.get(day) ?? 0) + entry.minutes);
      weeks.set(mondayOf(day), (weeks.get(mondayOf(day)) ?? 0) + entry.minutes);
    }
    if (offset + MOST_PER_REQUEST >= page.total || page.items.length === 0) break;
  }
  return { days, weeks };
}

export function TimeEntries() {
  useTitle('Time');
  const { me } = useSession();
  const zone = me.timezone;
  const formats = useMemo(() => zoneFormats(zone), [zone]);
  const workspaces = useLoad(() => api.workspaces(), []);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<TimeEntry | null>(null);
  const [deleted, setDeleted] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const rangeError = filters.from && filters.to && filters.to < filters.from ? 'Choose a date on or after the first one.' : undefined;
  // An impossible range is not asked for: the list keeps the last good one while the message shows.
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const query = useMemo(() => listQuery(applied, zone), [applied, zone]);
  const entries = useLoad(() => api.timeEntries({ ...query, limit: PAGE, offset }), [query, offset]);
  const totals = useLoad(() => totalsFor(entries.data?.items ?? [], query, zone), [entries.data, zone]);

  const projects = useLoad(async () => {
    const all = await Promise.all((workspaces.data ?? []).map((w) => api.projects(w.id)));
    return all.flat();
  }, [workspaces.data]);
  const people = useLoad(async () => {
    const all = await Promise.all((workspaces.data ?? []).map((w) => api.members(w.id)));
    const byId = new Map<string, Member>();
    for (const member of all.flat()) byId.set(member.userId, member);
    return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
  }, [workspaces.data]);

  const change = (patch: Partial<Filters>) => {
    const next = { ...filters, ...patch };
    setFilters(next);
    if (!(next.from && next.to && next.to < next.from)) {
      setApplied(next);
      setOffset(0);
    }
  };
  const clearFilters = () => {
    setFilters(NO_FILTERS);
    setApplied(NO_FILTERS);
    setOffset(0);
  };
  const filtered = Object.values(applied).some(Boolean);

  const remove = useAction(async (entry: TimeEntry) => {
    await api.deleteTimeEntry(entry.id);
    return entry;
  });
  const onDelete = async (entry: TimeEntry) => {
    const gone = await remove.run(entry);
    if (!gone) return;
    setDeleted(`Deleted the entry of ${formats.full.format(new Date(gone.start))} (${formatMinutes(gone.minutes)}).`);
    if (editing?.id === gone.id) setEditing(null);
    // The last entry of a later page takes the list one page back.
    if (entries.data && entries.data.items.length === 1 && offset > 0) setOffset(Math.max(0, offset - PAGE));
    else entries.reload();
    headingRef.current?.focus();
  };

  const workspaceNames = new Map((workspaces.data ?? []).map((w) => [w.id, w.name]));
  const projectNames = new Map((projects.data ?? []).map((p) => [p.id, p.name]));
  const personNames = new Map((people.data ?? []).map((p) => [p.userId, p.name]));
  const manyWorkspaces = (workspaces.data?.length ?? 0) > 1;
  const projectOptions = (projects.data ?? [])
    .filter((p) => !filters.workspaceId || p.workspaceId === filters.workspaceId)
    .map(
      (p) => [p.id, manyWorkspaces && !filters.workspaceId ? `${p.name} (${workspaceNames.get(p.workspaceId) ?? ''})` : p.name] as const,
    );

  return (
    <>
      <h1>Time</h1>
      <p className="zone-note">
        Times are in <strong>{zone}</strong>
        {formats.abbreviation && formats.abbreviation !== zone ? ` (${formats.abbreviation})` : ''}, the time zone of your profile.{' '}
        <Link to="/settings">Change it in Settings</Link>.
      </p>
      {workspaces.data && workspaces.data.length > 0 ? (
        <EntryForm
          key={editing?.id ?? 'new'}
          formRef={formRef}
          entry={editing}
          zone={zone}
          workspaces={workspaces.data}
          onDone={(changed) => {
            setEditing(null);
            if (changed) {
              setDeleted(null);
              entries.reload();
            }
          }}
        />
      ) : workspaces.data ? (
        <div className="card empty">
          <p>
            <strong>You are in no workspace yet.</strong> Time is recorded in a workspace: <Link to="/workspaces">create one</Link>, or ask
            a workspace admin to add you, then come back here to record your first entry.
          </p>
        </div>
      ) : workspaces.error ? (
        <ErrorMessage error={workspaces.error} />
      ) : (
        <div className="card entry-form-placeholder" aria-hidden="true" />
      )}
      <h2 ref={headingRef} tabIndex={-1}>
        Entries
      </h2>
      <FilterForm label="Filter entries">
        <SelectField
          label="Workspace"
          value={filters.workspaceId}
          onChange={(workspaceId) => {
            const project = projects.data?.find((p) => p.id === filters.projectId);
            change({ workspaceId, ...(project && workspaceId && project.workspaceId !== workspaceId ? { projectId: '' } : {}) });
          }}
          options={[['', 'All workspaces'], ...(workspaces.data ?? []).map((w) => [w.id, w.name] as const)]}
        />
        <SelectField
          label="Project"
          value={filters.projectId}
          onChange={(projectId) => {
            change({ projectId });
          }}
          options={[['', 'All projects'], ...projectOptions]}
        />
        <SelectField
          label="Person"
          value={filters.userId}
          onChange={(userId) => {
            change({ userId });
          }}
          options={[
            ['', 'Everyone'],
            ...(people.data ?? []).map((p) => [p.userId, p.userId === me.id ? `${p.name} (you)` : p.name] as const),
          ]}
        />
        <InputField
          label="Tag"
          type="search"
          maxLength={50}
          value={filters.tag}
          onChange={(tag) => {
            change({ tag });
          }}
        />
        <InputField
          label="From"
          type="date"
          value={filters.from}
          onChange={(from) => {
            change({ from });
          }}
        />
        <InputField
          label="To (inclusive)"
          type="date"
          value={filters.to}
          error={rangeError}
          onChange={(to) => {
            change({ to });
          }}
        />
        {Object.values(filters).some(Boolean) ? (
          <button type="button" className="secondary" onClick={clearFilters}>
            Clear filters
          </button>
        ) : null}
      </FilterForm>
      {deleted ? <Status>{deleted}</Status> : null}
      <ErrorMessage error={remove.error} />
      {entries.error ? <ErrorMessage error={entries.error} /> : null}
      <div className="entries-list" aria-busy={entries.loading}>
        {!entries.data ? (
          entries.error ? null : (
            <div className="list-placeholder">
              <Status>Loading entries…</Status>
            </div>
          )
        ) : entries.data.items.length === 0 ? (
          <div className="card empty">
            {filtered ? (
              <>
                <p>No entries match these filters.</p>
                <button type="button" className="secondary" onClick={clearFilters}>
                  Clear filters
                </button>
              </>
            ) : workspaces.data && workspaces.data.length > 0 ? (
              <>
                <p>No time recorded yet. Add your first entry: when you started, for how many minutes, and what you did.</p>
                <button
                  type="button"
                  onClick={() => {
                    formRef.current?.querySelector<HTMLElement>('input[type="datetime-local"]')?.focus();
                  }}
                >
                  Add an entry
                </button>
              </>
            ) : (
              <p>No time recorded yet.</p>
            )}
          </div>
        ) : (
          <>
            <EntryTable
              items={entries.data.items}
              zone={zone}
              formats={formats}
              totals={totals.data}
              showPerson={entries.data.items.some((e) => e.userId !== me.id)}
              showWorkspace={manyWorkspaces}
              names={{ workspaces: workspaceNames, projects: projectNames, people: personNames }}
              deleting={remove.busy}
              onEdit={(entry) => {
                setEditing(entry);
                window.scrollTo(0, 0);
                formRef.current?.querySelector<HTMLElement>('input, select')?.focus();
              }}
              onDelete={(entry) => void onDelete(entry)}
            />
            <Pager offset={offset} total={entries.data.total} pageSize={PAGE} onChange={setOffset} />
          </>
        )}
      </div>
    </>
  );
}

function EntryTable({
  items,
  zone,
  formats,
  totals,
  showPerson,
  showWorkspace,
  names,
  deleting,
  onEdit,
  onDelete,
}: {
  items: TimeEntry[];
  zone: string;
  formats: Formats;
  totals: { days: Map<string, number>; weeks: Map<string, number> } | undefined;
  showPerson: boolean;
  showWorkspace: boolean;
  names: { workspaces: Map<string, string>; projects: Map<string, string>; people: Map<string, string> };
  deleting: boolean;
  onEdit: (entry: TimeEntry) => void;
  onDelete: (entry: TimeEntry) => void;
}) {
  const columns = 6 + (showPerson ? 1 : 0) + (showWorkspace ? 1 : 0);
  const total = (minutes: number | undefined, kind: string) => (
    <td className="num">
      <span className="total-word">{kind} total </span>
      {minutes === undefined ? '…' : formatMinutes(minutes)}
    </td>
  );
  const rows: ReactNode[] = [];
  let week = '';
  let day = '';
  for (const e of items) {
    const entryDay = dayOf(new Date(e.start), zone);
    const entryWeek = mondayOf(entryDay);
    if (entryWeek !== week) {
      week = entryWeek;
      rows.push(
        <tr key={`week-${week}`} className="week-row">
          <th scope="row">
            Week of {calendarDay(formats.shortDay, week)} – {calendarDay(formats.day, addDays(week, 6))}
          </th>
          {total(totals?.weeks.get(week), 'Week')}
          <td colSpan={columns - 1} />
        </tr>,
      );
    }
    if (entryDay !== day) {
      day = entryDay;
      rows.push(
        <tr key={`day-${day}`} className="day-row">
          <th scope="row">{calendarDay(formats.day, day)}</th>
          {total(totals?.days.get(day), 'Day')}
          <td colSpan={columns - 1} />
        </tr>,
      );
    }
    const when = formats.full.format(new Date(e.start));
    rows.push(
      <tr key={e.id} className="entry-row">
        <td className="start">
          <time dateTime={e.start}>{formats.time.format(new Date(e.start))}</time>
        </td>
        <td className="num duration">{formatMinutes(e.minutes)}</td>
        <td className={e.billable ? 'billable' : 'billable narrow-hidden'}>
          {e.billable ? <span className="tag billable">Billable</span> : <span className="muted">No</span>}
        </td>
        <td className="description">{e.description}</td>
        <td className="project" data-label="Project">
          {e.projectId ? (names.projects.get(e.projectId) ?? '…') : '—'}
        </td>
        {showPerson ? (
          <td className="person" data-label="Person">
            {names.people.get(e.userId) ?? '…'}
          </td>
        ) : null}
        {showWorkspace ? (
          <td className="workspace" data-label="Workspace">
            {names.workspaces.get(e.workspaceId) ?? ''}
          </td>
        ) : null}
        <td className={e.tags.length > 0 ? 'tags' : 'tags none'} data-label="Tags">
          {e.tags.join(', ')}
        </td>
        <td className="actions">
          <button
            type="button"
            className="secondary"
            onClick={() => {
              onEdit(e);
            }}
          >
            Edit<span className="sr-only"> entry of {when}</span>
          </button>
          <ConfirmDelete
            busy={deleting}
            label={
              <>
                Delete<span className="sr-only"> entry of {when}</span>
              </>
            }
            confirmLabel="Delete this entry"
            onConfirm={() => {
              onDelete(e);
            }}
          />
        </td>
      </tr>,
    );
  }
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Time entries">
      <table className="entries stacked">
        <thead>
          <tr>
            <th scope="col">Start</th>
            <th scope="col" className="num">
              Duration
            </th>
            <th scope="col">Billable</th>
            <th scope="col">Description</th>
            <th scope="col">Project</th>
            {showPerson ? <th scope="col">Person</th> : null}
            {showWorkspace ? <th scope="col">Workspace</th> : null}
            <th scope="col">Tags</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>{rows}</tbody>
      </table>
    </div>
  );
}

/** The tags typed as `a, b, c`: trimmed, without empties and repeats. */
function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}

function tagsProblem(tags: string[]): string | undefined {
  if (tags.length > MAX_TAGS) return `Use at most ${MAX_TAGS} tags (now ${tags.length}).`;
  const long = tags.find((t) => t.length > MAX_TAG_LENGTH);
  return long ? `Keep each tag to ${MAX_TAG_LENGTH} characters; “${long.slice(0, 20)}…” is longer.` : undefined;
}

function EntryForm({
  entry,
  zone,
  workspaces,
  formRef,
  onDone,
}: {
  entry: TimeEntry | null;
  zone: string;
  workspaces: Workspace[];
  formRef: RefObject<HTMLFormElement | null>;
  onDone: (changed: boolean) => void;
}) {
  const [workspaceId, setWorkspaceId] = useState(entry?.workspaceId ?? workspaces[0]?.id ?? '');
  const [projectId, setProjectId] = useState(entry?.projectId ?? '');
  const [start, setStart] = useState(toLocalInput(entry ? new Date(entry.start) : new Date(), zone));
  const [minutes, setMinutes] = useState(String(entry?.minutes ?? 60));
  const [description, setDescription] = useState(entry?.description ?? '');
  const [tags, setTags] = useState((entry?.tags ?? []).join(', '));
  // A new entry starts as its project's default (unassigned: not billable); an edited one keeps its own.
  const [billable, setBillable] = useState(entry?.billable ?? false);
  const [saved, setSaved] = useState(false);
  const projects = useLoad<ProjectListItem[]>(() => (workspaceId ? api.projects(workspaceId) : Promise.resolve([])), [workspaceId]);
  const chooseProject = (id: string) => {
    setProjectId(id);
    // As the API does: a new entry takes the project's default; moving an entry keeps its billable.
    if (!entry) setBillable(projects.data?.find((p) => p.id === id)?.billableByDefault ?? false);
  };
  const save = useAction(async () => {
    const instant = fromLocalInput(start, zone);
    if (!instant) throw new Error('Enter a complete date and time.');
    const fields = {
      projectId: projectId || null,
      start: instant.toISOString(),
      minutes: Number(minutes),
      description,
      tags: parseTags(tags),
      billable,
    };
    return entry ? api.patchTimeEntry(entry.id, fields) : api.createTimeEntry({ workspaceId, ...fields });
  });
  const submit = async () => {
    setSaved(false);
    if (await save.run()) {
      setSaved(true);
      setDescription('');
      onDone(true);
    }
  };
  const label = entry ? 'Edit entry' : 'Add an entry';
  return (
    <Form onSubmit={submit} className="card entry-form" aria-label={label} ref={formRef}>
      <h2>{label}</h2>
      <div className="entry-grid">
        <Field label="Workspace">
          {(id) => (
            <select
              id={id}
              value={workspaceId}
              disabled={Boolean(entry)}
              onChange={(e) => {
                setWorkspaceId(e.target.value);
                setProjectId('');
                if (!entry) setBillable(false);
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
                chooseProject(e.target.value);
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
        <InputField
          label="Start"
          hint={`In ${zone}.`}
          type="datetime-local"
          required
          value={start}
          onChange={(value) => {
            setStart(value);
            setSaved(false);
          }}
        />
        <InputField
          label="Minutes"
          type="number"
          required
          min={1}
          max={1440}
          step={1}
          inputMode="numeric"
          value={minutes}
          onChange={(value) => {
            setMinutes(value);
            setSaved(false);
          }}
        />
        <InputField
          label="Description"
          type="text"
          maxLength={2000}
          value={description}
          onChange={(value) => {
            setDescription(value);
            setSaved(false);
          }}
        />
        <InputField
          label="Tags (comma-separated)"
          type="text"
          value={tags}
          invalidMessage={tagsProblem(parseTags(tags))}
          onChange={setTags}
        />
        <div className="field billable-field">
          <CheckField
            checked={billable}
            onChange={(value) => {
              setBillable(value);
              setSaved(false);
            }}
          >
            Billable
          </CheckField>
          {entry ? null : <p className="hint">Starts as the project's default.</p>}
        </div>
      </div>
      <ErrorMessage error={save.error} />
      {saved ? <Status>Saved.</Status> : null}
      <div className="row">
        <button type="submit" disabled={save.busy}>
          {save.busy ? 'Saving…' : entry ? 'Save entry' : 'Add entry'}
        </button>
        {entry ? (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              onDone(false);
            }}
          >
            Cancel
          </button>
        ) : null}
      </div>
    </Form>
  );
}
