/** New report and edit: template, workspaces, clients, projects, people, tags, period, options, with a live preview. */
import { useMemo, useRef, useState } from 'react';
import {
  api,
  type Client,
  type FiltersInput,
  type Member,
  type ProjectListItem,
  type Report,
  type ReportOptions,
  type Template,
  type Workspace,
} from '../../lib/api.js';
import { useSession, useTitle } from '../../lib/session.js';
import { Link, navigate } from '../../lib/router.js';
import {
  CheckGroup,
  ErrorMessage,
  InputField,
  Loading,
  ReportDocument,
  SelectField,
  TextAreaField,
  formatMinutes,
  useAction,
  useLoad,
  useLivePreview,
  Form,
} from '../../components/ui/ui.js';
import { defaultOptions, ReportOptionsFields } from './report-options.js';

const PRESETS: { value: string; label: string }[] = [
  { value: 'today', label: 'Today' },
  { value: 'yesterday', label: 'Yesterday' },
  { value: 'this_week', label: 'This week' },
  { value: 'last_week', label: 'Last week' },
  { value: 'last_7_days', label: 'Last 7 days' },
  { value: 'this_month', label: 'This month' },
  { value: 'last_month', label: 'Last month' },
  { value: 'last_30_days', label: 'Last 30 days' },
  { value: 'custom', label: 'Dates…' },
];

/**
 * The form shows once the report (when editing), the templates and the workspaces are all there,
 * fetched together: shown earlier, its template list would be empty, a required choice with no
 * option, and a save made at that moment would be refused without a word.
 */
export function ReportForm({ id }: { id?: string }) {
  useTitle(id ? 'Edit report' : 'New report');
  const lists = useLoad(async () => {
    const [report, templates, workspaces] = await Promise.all([id ? api.report(id) : null, api.templates(), api.workspaces()]);
    return { report, templates, workspaces };
  }, [id]);
  if (!lists.data) return lists.error ? <ErrorMessage error={lists.error} /> : <Loading what={id ? 'the report' : 'the form'} />;
  return <ReportFormBody key={id ?? 'new'} {...lists.data} />;
}

/**
 * The people a saved report includes besides its owner. A stored `userIds` lists the owner too
 * (the form always sends the owner first), and the form's list of teammates must not hold the
 * owner, or a second save would send the owner's id twice (a 400).
 */
function teammatesOf(report: Report | null): string[] {
  return (report?.filters.userIds ?? []).filter((u) => u !== report?.ownerUserId);
}

function ReportFormBody({ report, templates, workspaces }: { report: Report | null; templates: Template[]; workspaces: Workspace[] }) {
  const { me } = useSession();
  const [name, setName] = useState(report?.name ?? '');
  const [nameTouched, setNameTouched] = useState(Boolean(report));
  // A new report starts on the first enabled template and the first workspace. A report whose
  // template has since been disabled starts with none: saving asks for another (the API refuses a
  // disabled template), rather than switching templates behind the owner's back.
  const templateGone = report !== null && !templates.some((t) => t.id === report.templateId);
  const [templateId, setTemplateId] = useState(report ? (templateGone ? '' : report.templateId) : (templates[0]?.id ?? ''));
  const [workspaceIds, setWorkspaceIds] = useState<string[]>(report?.filters.workspaceIds ?? (workspaces[0] ? [workspaces[0].id] : []));
  const [projectIds, setProjectIds] = useState<string[]>(report?.filters.projectIds ?? []);
  const [clientIds, setClientIds] = useState<string[]>(report?.filters.clientIds ?? []);
  // Teammates only: the owner's own time is always in, added once when the filters are built.
  const [teammateIds, setTeammateIds] = useState<string[]>(() => teammatesOf(report));
  const [tags, setTags] = useState((report?.filters.tags ?? []).join(', '));
  const [preset, setPreset] = useState(report ? 'custom' : 'last_week');
  const [from, setFrom] = useState(report?.filters.dateRange.from ?? '');
  const [to, setTo] = useState(report?.filters.dateRange.to ?? '');
  const [note, setNote] = useState(report?.note ?? '');
  const [options, setOptions] = useState<ReportOptions>(() => report?.options ?? defaultOptions(me.locale));

  const choices = useLoad(async () => {
    const lists = await Promise.all(
      workspaceIds.map(async (w) => {
        const [projects, members, clients] = await Promise.all([api.projects(w), api.members(w), api.clients(w)]);
        return { projects, members, clients };
      }),
    );
    const projects: ProjectListItem[] = lists.flatMap((l) => l.projects);
    // Active clients first, each group by name: an archived client still has its past time.
    const clients: Client[] = lists
      .flatMap((l) => l.clients)
      .sort((a, b) => Number(a.archived) - Number(b.archived) || a.name.localeCompare(b.name));
    const byId = new Map<string, Member>();
    for (const m of lists.flatMap((l) => l.members)) byId.set(m.userId, m);
    return { projects, clients, members: [...byId.values()].filter((m) => m.userId !== me.id) };
  }, [workspaceIds.join(',')]);

  const chooseWorkspaces = (ids: string[]) => {
    setWorkspaceIds(ids);
    // A client or project of a workspace no longer chosen goes with its workspace: a client would
    // match nothing, silently, and a project would make the render refuse the filters.
    const gone = (list: readonly { id: string; workspaceId: string }[] | undefined) =>
      new Set((list ?? []).filter((x) => !ids.includes(x.workspaceId)).map((x) => x.id));
    const droppedClients = gone(choices.data?.clients);
    const droppedProjects = gone(choices.data?.projects);
    setClientIds((chosen) => chosen.filter((c) => !droppedClients.has(c)));
    setProjectIds((chosen) => chosen.filter((p) => !droppedProjects.has(p)));
  };

  const filters = useMemo((): FiltersInput | null => {
    if (workspaceIds.length === 0) return null;
    const tagList = [
      ...new Set(
        tags
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
      ),
    ];
    const dateRange = preset === 'custom' ? (from && to ? { from, to } : null) : preset;
    if (dateRange === null) return null;
    return {
      workspaceIds,
      ...(projectIds.length ? { projectIds } : {}),
      ...(clientIds.length ? { clientIds } : {}),
      ...(teammateIds.length ? { userIds: [me.id, ...teammateIds] } : {}),
      ...(tagList.length ? { tags: tagList } : {}),
      dateRange: dateRange as FiltersInput['dateRange'],
    };
  }, [workspaceIds, projectIds, clientIds, teammateIds, tags, preset, from, to, me.id]);

  // Live preview: re-rendered a moment after the last change; a newer change cancels the older request.
  const nameRef = useRef(nameTouched);
  nameRef.current = nameTouched;
  const preview = useLivePreview(
    filters && templateId
      ? async (signal) => {
          const data = await api.preview(
            { name: name.trim() || 'Untitled report', templateId, filters, note: note.trim() ? note : null, options },
            signal,
          );
          if (!signal.aborted && !nameRef.current) setName(data.suggestedName.slice(0, 100));
          return data;
        }
      : null,
    [filters, templateId, name, note, options],
  );

  const save = useAction(async () => {
    if (!filters) throw new Error('Choose at least one workspace and a period.');
    const body = { name, templateId, filters, note: note.trim() ? note : null, options };
    return report ? api.updateReport(report.id, body) : api.createReport(body);
  });
  const submit = async () => {
    const saved = await save.run();
    if (saved) navigate(`/reports/${saved.id}`);
  };

  const members = choices.data?.members ?? [];
  const projects = choices.data?.projects ?? [];
  const clients = choices.data?.clients ?? [];
  return (
    <>
      <p>
        <Link to={report ? `/reports/${report.id}` : '/reports'}>← {report ? report.name : 'Reports'}</Link>
      </p>
      <h1>{report ? 'Edit report' : 'New report'}</h1>
      <div className="split">
        <Form onSubmit={submit} className="stack" aria-label={report ? 'Edit report' : 'New report'}>
          <SelectField
            label="Template"
            required
            value={templateId}
            onChange={setTemplateId}
            options={[...(templateGone ? [['', 'Choose a template'] as const] : []), ...templates.map((t) => [t.id, t.name] as const)]}
            error={templateGone && !templateId ? 'The template this report was made with has been disabled: choose another.' : undefined}
          />
          <CheckGroup
            legend="Workspaces"
            items={workspaces.map((w) => [w.id, w.name] as const)}
            chosen={workspaceIds}
            onChange={chooseWorkspaces}
          >
            {workspaces.length === 0 ? (
              <p>
                You are in no workspace yet. A report covers the time logged in workspaces: <Link to="/workspaces">create one</Link> first.
              </p>
            ) : null}
          </CheckGroup>
          {clients.length > 0 && (
            <CheckGroup
              legend="Clients (none ticked: all)"
              items={clients.map((c) => [c.id, c.archived ? `${c.name} (archived)` : c.name] as const)}
              chosen={clientIds}
              onChange={setClientIds}
            />
          )}
          {projects.length > 0 && (
            <CheckGroup
              legend="Projects (none ticked: all)"
              items={projects.map((p) => [p.id, p.name] as const)}
              chosen={projectIds}
              onChange={setProjectIds}
            />
          )}
          {members.length > 0 && (
            <CheckGroup
              legend="Also include (none ticked: only your time)"
              items={members.map((m) => [m.userId, m.name] as const)}
              chosen={teammateIds}
              onChange={setTeammateIds}
            />
          )}
          <InputField
            label="Tags (comma-separated, optional)"
            hint="An entry matches with any of them."
            type="text"
            value={tags}
            onChange={setTags}
          />
          <SelectField label="Period" value={preset} onChange={setPreset} options={PRESETS.map((p) => [p.value, p.label] as const)} />
          {preset === 'custom' && (
            <div className="row">
              <InputField label="From" type="date" required value={from} onChange={setFrom} />
              <InputField label="To (inclusive)" type="date" required value={to} onChange={setTo} />
            </div>
          )}
          <ReportOptionsFields value={options} onChange={setOptions} />
          <InputField
            label="Name"
            type="text"
            required
            maxLength={100}
            value={name}
            onChange={(value) => {
              setName(value);
              setNameTouched(true);
            }}
          />
          <TextAreaField label="Note (optional, Markdown)" rows={3} maxLength={20000} value={note} onChange={setNote} />
          <ErrorMessage error={save.error} />
          <div className="row">
            <button type="submit" disabled={save.busy || !filters}>
              {save.busy ? 'Saving…' : report ? 'Save as a new version' : 'Create report'}
            </button>
          </div>
        </Form>
        <section className="preview" aria-labelledby="preview-heading" aria-busy={preview.busy}>
          <h2 id="preview-heading">Preview</h2>
          <p className="status" role="status">
            {preview.busy
              ? 'Updating the preview…'
              : preview.data
                ? `Total ${formatMinutes(preview.data.totalMinutes)}`
                : !filters
                  ? 'Choose a workspace and a period.'
                  : templateId
                    ? ''
                    : 'Choose a template.'}
          </p>
          <ErrorMessage error={preview.error} />
          {preview.data ? <ReportDocument markdown={preview.data.renderedMarkdown} /> : null}
        </section>
      </div>
    </>
  );
}
