/** Workspaces: the caller's own, and a new one (anyone may create a workspace and becomes its owner). */
import { useState, type SyntheticEvent } from 'react';
import { api } from '../../lib/api.js';
import { useTitle } from '../../lib/session.js';
import { Link, navigate } from '../../lib/router.js';
import { ErrorMessage, InputField, Loaded, useAction, useLoad } from '../../components/ui/ui.js';
import { ROLE_NAMES } from './roles.js';

export function WorkspaceList() {
  useTitle('Workspaces');
  const workspaces = useLoad(() => api.workspaces(), []);
  return (
    <>
      <h1>Workspaces</h1>
      <p className="lead">A workspace holds people, projects and the time they log. Reports are made over one or more workspaces.</p>
      <Loaded state={workspaces} what="workspaces">
        {(data) =>
          data.length === 0 ? (
            <p className="empty">You are in no workspace yet. Create the first one below, then add people and projects to it.</p>
          ) : (
            <ul className="list" aria-label="Your workspaces">
              {data.map((w) => (
                <li key={w.id} className="item title-row">
                  <Link to={`/workspaces/${w.id}`}>{w.name}</Link>
                  <span className="tag">{ROLE_NAMES[w.role]}</span>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      <CreateWorkspace />
    </>
  );
}

function CreateWorkspace() {
  const [name, setName] = useState('');
  const [missing, setMissing] = useState(false);
  const create = useAction(() => api.createWorkspace(name.trim()));
  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    if (name.trim() === '') {
      setMissing(true);
      return;
    }
    setMissing(false);
    const workspace = await create.run();
    if (workspace) navigate(`/workspaces/${workspace.id}`);
  };
  return (
    <section aria-labelledby="new-workspace-heading" className="card">
      <h2 id="new-workspace-heading">Create a workspace</h2>
      <form noValidate aria-labelledby="new-workspace-heading" onSubmit={(e) => void submit(e)} className="inline-form">
        <InputField
          label="Workspace name"
          maxLength={100}
          value={name}
          onChange={setName}
          aria-invalid={missing || undefined}
          hint="You become its owner."
        />
        <button type="submit" disabled={create.busy}>
          {create.busy ? 'Creating…' : 'Create workspace'}
        </button>
      </form>
      <ErrorMessage error={missing ? new Error('Give the workspace a name.') : create.error} />
    </section>
  );
}
