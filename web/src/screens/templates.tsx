/** Templates, for instance admins: list, enable and disable, edit the Liquid with errors and a preview. */
import { useState, type SyntheticEvent } from 'react';
import { api, type FiltersInput, type Preview, type Template } from '../api.js';
import { useTitle } from '../app.js';
import { Link, navigate } from '../router.js';
import { ErrorMessage, Field, Loading, ReportDocument, Status, formatMinutes, useAction, useLoad } from '../ui.js';

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
  useTitle(loaded.data ? `Template ${loaded.data.name}` : 'Template');
  if (!loaded.data) return loaded.error ? <ErrorMessage error={loaded.error} /> : <Loading what="the template" />;
  return <TemplateForm template={loaded.data} />;
}

function TemplateForm({ template }: { template: Template }) {
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
  const [preview, setPreview] = useState<Preview | null>(null);
  const save = useAction(() => api.patchTemplate(template.id, { name, description, body, nameTemplate, noteTemplate, enabled }));
  const render = useAction(async () => {
    const ws = workspaceId || workspaces.data?.[0]?.id;
    if (!ws) throw new Error('A preview needs a workspace of yours.');
    return api.preview({
      name: 'Template preview',
      templateId: template.id,
      filters: { workspaceIds: [ws], dateRange: preset as unknown as FiltersInput['dateRange'] },
    });
  });
  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    setSaved(false);
    setPreview(null);
    if (await save.run()) {
      setSaved(true);
      if (enabled) {
        const result = await render.run();
        if (result) setPreview(result);
      }
    }
  };
  return (
    <>
      <p>
        <Link to="/templates">← Templates</Link>
      </p>
      <h1>Template {template.name}</h1>
      <div className="split">
        <form onSubmit={(e) => void submit(e)} className="stack" aria-label="Edit template">
          <Field label="Name">
            {(fid) => (
              <input
                id={fid}
                required
                maxLength={100}
                value={name}
                onChange={(e) => {
                  setName(e.target.value);
                }}
              />
            )}
          </Field>
          <Field label="Description">
            {(fid) => (
              <input
                id={fid}
                maxLength={1000}
                value={description}
                onChange={(e) => {
                  setDescription(e.target.value);
                }}
              />
            )}
          </Field>
          <Field label="Body (Liquid)" hint="Variables are described in docs/templates.md.">
            {(fid, hint) => (
              <textarea
                id={fid}
                className="code"
                rows={18}
                required
                spellCheck={false}
                aria-describedby={hint}
                value={body}
                onChange={(e) => {
                  setBody(e.target.value);
                }}
              />
            )}
          </Field>
          <Field label="Suggested name (Liquid)">
            {(fid) => (
              <input
                id={fid}
                className="code"
                maxLength={500}
                value={nameTemplate}
                onChange={(e) => {
                  setNameTemplate(e.target.value);
                }}
              />
            )}
          </Field>
          <Field label="Suggested note (Liquid)">
            {(fid) => (
              <textarea
                id={fid}
                className="code"
                rows={3}
                maxLength={5000}
                value={noteTemplate}
                onChange={(e) => {
                  setNoteTemplate(e.target.value);
                }}
              />
            )}
          </Field>
          <label className="check">
            <input
              type="checkbox"
              checked={enabled}
              onChange={(e) => {
                setEnabled(e.target.checked);
              }}
            />
            Enabled (people can make reports with it)
          </label>
          <fieldset>
            <legend>Preview with</legend>
            <div className="row">
              <Field label="Workspace">
                {(fid) => (
                  <select
                    id={fid}
                    value={workspaceId}
                    onChange={(e) => {
                      setWorkspaceId(e.target.value);
                    }}
                  >
                    {(workspaces.data ?? []).map((w) => (
                      <option key={w.id} value={w.id}>
                        {w.name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="Period">
                {(fid) => (
                  <select
                    id={fid}
                    value={preset}
                    onChange={(e) => {
                      setPreset(e.target.value);
                    }}
                  >
                    {PRESETS.map((p) => (
                      <option key={p} value={p}>
                        {p.replace(/_/g, ' ')}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </div>
          </fieldset>
          <ErrorMessage error={save.error} />
          {saved ? <Status>Saved.{enabled ? '' : ' Enable the template to preview it.'}</Status> : null}
          <div>
            <button type="submit" disabled={save.busy || render.busy}>
              {save.busy ? 'Saving…' : render.busy ? 'Rendering…' : 'Save and preview'}
            </button>
          </div>
        </form>
        <section className="preview" aria-labelledby="tpl-preview">
          <h2 id="tpl-preview">Preview</h2>
          <ErrorMessage error={render.error} />
          {preview ? (
            <>
              <p className="meta">
                {preview.suggestedName} · total {formatMinutes(preview.totalMinutes)}
              </p>
              <ReportDocument markdown={preview.renderedMarkdown} />
            </>
          ) : (
            <p>Save to see the template rendered over the chosen workspace and period.</p>
          )}
        </section>
      </div>
    </>
  );
}
