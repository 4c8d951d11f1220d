/** Templates, for instance admins: list, enable and disable, edit the Liquid with errors and a preview. */
import { useState } from 'react';
import { api, type FiltersInput, type Template } from '../../lib/api.js';
import { useTitle } from '../../lib/session.js';
import { Link, navigate } from '../../lib/router.js';
import {
  ErrorMessage,
  Loading,
  ReportDocument,
  Status,
  formatMinutes,
  useAction,
  useLoad,
  InputField,
  TextAreaField,
  CheckField,
  SelectField,
  useLivePreview,
  Form,
} from '../../components/ui/ui.js';

export function Templates() {
  useTitle('Templates');
  const loaded = useLoad(() => api.templates(true), []);
  const create = useAction(() =>
    api.createTemplate({
      name: 'New template',
      description: '',
      body: '# {{ report.name }}\n',
      nameTemplate: '',
      noteTemplate: '',
      enabled: false,
    }),
  );
  return (
    <>
      <div className="title-row">
        <h1>Templates</h1>
        <button
          type="button"
          disabled={create.busy}
          onClick={() =>
            void create.run().then((t) => {
              if (t) navigate(`/templates/${t.id}`);
            })
          }
        >
          {create.busy ? 'Creating…' : 'New template'}
        </button>
      </div>
      <ErrorMessage error={create.error} />
      {loaded.error ? <ErrorMessage error={loaded.error} /> : null}
      {!loaded.data ? (
        loaded.error ? null : (
          <Loading what="templates" />
        )
      ) : (
        <ul className="list">
          {loaded.data.map((t) => (
            <TemplateRow
              key={t.id}
              template={t}
              onChanged={(c) => {
                loaded.set((loaded.data ?? []).map((x) => (x.id === c.id ? c : x)));
              }}
            />
          ))}
        </ul>
      )}
    </>
  );
}

function TemplateRow({ template, onChanged }: { template: Template; onChanged: (t: Template) => void }) {
  const flip = useAction(() => api.patchTemplate(template.id, { enabled: !template.enabled }));
  return (
    <li className="item">
      <div className="title-row">
        <p>
          <Link to={`/templates/${template.id}`}>{template.name}</Link> {template.builtIn ? <span className="tag">built in</span> : null}{' '}
          {template.enabled ? null : <span className="tag">disabled</span>}
        </p>
        <button
          type="button"
          className="secondary"
          disabled={flip.busy}
          onClick={() =>
            void flip.run().then((t) => {
              if (t) onChanged(t);
            })
          }
        >
          {template.enabled ? 'Disable' : 'Enable'}
          <span className="sr-only"> {template.name}</span>
        </button>
      </div>
      {template.description ? <p className="meta">{template.description}</p> : null}
      <ErrorMessage error={flip.error} />
    </li>
  );
}

const PRESETS = ['last_week', 'this_week', 'last_month', 'this_month', 'last_30_days'];

export function TemplateEditor({ id }: { id: string }) {
  const loaded = useLoad(() => api.template(id), [id]);
  useTitle(loaded.data ? `Template “${loaded.data.name}”` : 'Template');
  if (!loaded.data) return loaded.error ? <ErrorMessage error={loaded.error} /> : <Loading what="the template" />;
  return <TemplateForm template={loaded.data} />;
}

function TemplateForm({ template }: { template: Template }) {
  // The heading and the tab name the template as saved, not as being typed.
  const [savedName, setSavedName] = useState(template.name);
  useTitle(`Template “${savedName}”`);
  const [name, setName] = useState(template.name);
  const [description, setDescription] = useState(template.description);
  const [body, setBody] = useState(template.body);
  const [nameTemplate, setNameTemplate] = useState(template.nameTemplate);
  const [noteTemplate, setNoteTemplate] = useState(template.noteTemplate);
  const [enabled, setEnabled] = useState(template.enabled);
  const [saved, setSaved] = useState(false);
  const workspaces = useLoad(() => api.workspaces(), []);
  const [workspaceId, setWorkspaceId] = useState('');
  const [preset, setPreset] = useState('last_week');
  const save = useAction(() => api.patchTemplate(template.id, { name, description, body, nameTemplate, noteTemplate, enabled }));
  // The text as typed, rendered a moment after the last keystroke: no need to save to see it.
  const ws = workspaceId || workspaces.data?.[0]?.id;
  const preview = useLivePreview(
    ws && body
      ? (signal) =>
          api.previewTemplate(
            {
              body,
              nameTemplate,
              noteTemplate,
              filters: { workspaceIds: [ws], dateRange: preset as unknown as FiltersInput['dateRange'] },
            },
            signal,
          )
      : null,
    [body, nameTemplate, noteTemplate, ws, preset],
  );
  const submit = async () => {
    setSaved(false);
    const stored = await save.run();
    if (!stored) return;
    setSavedName(stored.name);
    setSaved(true);
  };
  return (
    <>
      <p>
        <Link to="/templates">← Templates</Link>
      </p>
      <h1>Template “{savedName}”</h1>
      <div className="split">
        <Form onSubmit={submit} className="stack" aria-label="Edit template">
          <InputField label="Name" required maxLength={100} value={name} onChange={setName} />
          <InputField label="Description" maxLength={1000} value={description} onChange={setDescription} />
          <TextAreaField
            label="Body (Liquid)"
            hint="The built-in templates show the variables in use; Chronicle's docs/templates.md lists them all."
            className="code"
            rows={18}
            required
            spellCheck={false}
            value={body}
            onChange={setBody}
          />
          <InputField label="Suggested name (Liquid)" className="code" maxLength={500} value={nameTemplate} onChange={setNameTemplate} />
          <TextAreaField
            label="Suggested note (Liquid)"
            className="code"
            rows={3}
            maxLength={5000}
            value={noteTemplate}
            onChange={setNoteTemplate}
          />
          <CheckField checked={enabled} onChange={setEnabled}>
            Enabled (people can make reports with it)
          </CheckField>
          <fieldset>
            <legend>Preview with</legend>
            <div className="row">
              <SelectField
                label="Workspace"
                value={workspaceId}
                onChange={setWorkspaceId}
                options={(workspaces.data ?? []).map((w) => [w.id, w.name] as const)}
              />
              <SelectField
                label="Period"
                value={preset}
                onChange={setPreset}
                options={PRESETS.map((p) => [p, p.replace(/_/g, ' ')] as const)}
              />
            </div>
          </fieldset>
          <ErrorMessage error={save.error} />
          {saved ? <Status>Saved.</Status> : null}
          <div>
            <button type="submit" disabled={save.busy}>
              {save.busy ? 'Saving…' : 'Save'}
            </button>
          </div>
        </Form>
        <section className="preview" aria-labelledby="tpl-preview">
          <h2 id="tpl-preview">Preview</h2>
          {preview.busy ? <Status>Rendering…</Status> : null}
          <ErrorMessage error={preview.error} />
          {preview.data ? (
            <>
              <p className="meta">
                {preview.data.suggestedName ? `${preview.data.suggestedName} · ` : ''}total {formatMinutes(preview.data.totalMinutes)}
              </p>
              <ReportDocument markdown={preview.data.renderedMarkdown} />
            </>
          ) : ws ? null : (
            <p>The preview renders over a workspace of yours: create or join one first.</p>
          )}
        </section>
      </div>
    </>
  );
}
