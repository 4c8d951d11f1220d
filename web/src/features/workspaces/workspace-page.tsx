/**
 * One workspace: its name, its members and their roles, its projects and clients; for its admins
 * its currency, who sees rates, the workspace and member rates, its branding and its webhooks.
 */
import { useState, type SyntheticEvent } from 'react';
import { api, type Client, type Member, type Workspace, type WorkspaceRole } from '../../lib/api.js';
import { useSession, useTitle } from '../../lib/session.js';
import { Link, navigate } from '../../lib/router.js';
import { ConfirmDelete, ErrorMessage, InputField, Loaded, SelectField, Status, useAction, useLoad } from '../../components/ui/ui.js';
import { grantableRoles, isWorkspaceAdmin, mayRemove, ROLE_NAMES } from './roles.js';
import { visiblePeople } from './people.js';
import { Clients } from './clients.js';
import { BillingSettings, WorkspaceRates } from './billing.js';
import { BrandingSettings } from './branding.js';
import { WebhookSettings } from './webhooks.js';

export function WorkspacePage({ id }: { id: string }) {
  const workspace = useLoad(() => api.workspace(id), [id]);
  const clients = useLoad(() => api.clients(id), [id]);
  useTitle(workspace.data?.name ?? 'Workspace');
  return (
    <>
      <p>
        <Link to="/workspaces">← Workspaces</Link>
      </p>
      <Loaded state={workspace} what="the workspace">
        {(w) => (
          <>
            <h1>{w.name}</h1>
            <p className="meta">Your role: {ROLE_NAMES[w.role]}</p>
            {isWorkspaceAdmin(w.role) ? <Rename workspace={w} onRenamed={workspace.set} /> : null}
            <Members workspace={w} onOwnRoleChanged={workspace.reload} />
            <Projects workspace={w} clients={clients.data ?? []} />
            <Loaded state={clients} what="clients">
              {(data) => <Clients workspace={w} clients={data} onChange={clients.set} />}
            </Loaded>
            {isWorkspaceAdmin(w.role) ? (
              <>
                <BillingSettings workspace={w} onSaved={workspace.set} />
                <WorkspaceRates workspace={w} />
                <BrandingSettings workspace={w} onSaved={workspace.set} />
                <WebhookSettings workspace={w} />
              </>
            ) : null}
          </>
        )}
      </Loaded>
    </>
  );
}

function Rename({ workspace, onRenamed }: { workspace: Workspace; onRenamed: (w: Workspace) => void }) {
  const [name, setName] = useState(workspace.name);
  const [missing, setMissing] = useState(false);
  const [saved, setSaved] = useState(false);
  const rename = useAction(() => api.renameWorkspace(workspace.id, name.trim()));
  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    setSaved(false);
    setMissing(name.trim() === '');
    if (name.trim() === '') return;
    const renamed = await rename.run();
    if (renamed) {
      onRenamed(renamed);
      setSaved(true);
    }
  };
  return (
    <form noValidate aria-label="Rename the workspace" onSubmit={(e) => void submit(e)} className="inline-form">
      <InputField label="Workspace name" maxLength={100} value={name} onChange={setName} aria-invalid={missing || undefined} />
      <button type="submit" className="secondary" disabled={rename.busy}>
        {rename.busy ? 'Renaming…' : 'Rename'}
      </button>
      <div className="form-feedback">
        <ErrorMessage error={missing ? new Error('Give the workspace a name.') : rename.error} />
        {saved ? <Status>Renamed.</Status> : null}
      </div>
    </form>
  );
}

function Members({ workspace, onOwnRoleChanged }: { workspace: Workspace; onOwnRoleChanged: () => void }) {
  const { me } = useSession();
  const admin = isWorkspaceAdmin(workspace.role);
  const members = useLoad(() => api.members(workspace.id), [workspace.id]);
  return (
    <section aria-labelledby="members-heading" className="card">
      <h2 id="members-heading">Members</h2>
      <Loaded state={members} what="members">
        {(data) => (
          <>
            <ul className="list" aria-label="Members">
              {data.map((m) => (
                <MemberRow
                  key={m.userId}
                  workspace={workspace}
                  member={m}
                  self={m.userId === me.id}
                  onChanged={(changed) => {
                    members.set(data.map((x) => (x.userId === changed.userId ? changed : x)));
                    if (changed.userId === me.id) onOwnRoleChanged();
                  }}
                  onRemoved={() => {
                    if (m.userId === me.id) navigate('/workspaces');
                    else members.set(data.filter((x) => x.userId !== m.userId));
                  }}
                />
              ))}
            </ul>
            {data.length === 1 && admin ? (
              <p className="empty">
                Only {data[0]?.userId === me.id ? 'you' : data[0]?.name} so far. Add the people who log time here below.
              </p>
            ) : null}
            {admin ? <AddMember workspace={workspace} members={data} onAdded={members.reload} /> : null}
          </>
        )}
      </Loaded>
    </section>
  );
}

function MemberRow({
  workspace,
  member,
  self,
  onChanged,
  onRemoved,
}: {
  workspace: Workspace;
  member: Member;
  self: boolean;
  onChanged: (member: Member) => void;
  onRemoved: () => void;
}) {
  const roles = grantableRoles(workspace.role, member.role);
  const [role, setRole] = useState<WorkspaceRole>(member.role);
  const change = useAction(() => api.putMember(workspace.id, member.userId, role));
  const remove = useAction(async () => {
    await api.removeMember(workspace.id, member.userId);
    return true;
  });
  const who = self ? `${member.name} (you)` : member.name;
  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    const changed = await change.run();
    if (changed) onChanged(changed);
  };
  return (
    <li className="item">
      <div className="title-row">
        <p>
          {who} <span className="muted">{member.email}</span>
          {roles.length === 0 ? <span className="tag">{ROLE_NAMES[member.role]}</span> : null}
        </p>
        <div className="row">
          {roles.length > 0 ? (
            <form noValidate aria-label={`Role of ${member.name}`} onSubmit={(e) => void submit(e)} className="row member-role">
              <SelectField
                label={`Role of ${member.name}`}
                value={role}
                onChange={(value) => {
                  setRole(value as WorkspaceRole);
                }}
                options={roles.map((r) => [r, ROLE_NAMES[r]] as const)}
              />
              <button type="submit" className="secondary" disabled={change.busy || role === member.role}>
                {change.busy ? 'Saving…' : 'Save role'}
                <span className="sr-only"> of {member.name}</span>
              </button>
            </form>
          ) : null}
          {mayRemove(workspace.role, member.role, self) ? (
            <ConfirmDelete
              busy={remove.busy}
              busyLabel={self ? 'Leaving…' : 'Removing…'}
              label={
                self ? (
                  'Leave workspace'
                ) : (
                  <>
                    Remove<span className="sr-only"> {member.name}</span>
                  </>
                )
              }
              confirmLabel={self ? 'Really leave' : `Really remove ${member.name}`}
              onConfirm={() =>
                void remove.run().then((done) => {
                  if (done) onRemoved();
                })
              }
            />
          ) : null}
        </div>
      </div>
      <ErrorMessage error={change.error ?? remove.error} />
    </li>
  );
}

function AddMember({ workspace, members, onAdded }: { workspace: Workspace; members: Member[]; onAdded: () => void }) {
  const { me } = useSession();
  const people = useLoad(() => visiblePeople(me), [me]);
  const roles = grantableRoles(workspace.role, null);
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<WorkspaceRole>('member');
  const [missing, setMissing] = useState(false);
  const [added, setAdded] = useState('');
  const add = useAction(() => api.putMember(workspace.id, userId, role));
  const inWorkspace = new Set(members.map((m) => m.userId));
  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    setAdded('');
    setMissing(userId === '');
    if (userId === '') return;
    const member = await add.run();
    if (member) {
      setAdded(`${member.name} is now a member.`);
      setUserId('');
      setRole('member');
      onAdded();
    }
  };
  return (
    <>
      <h3 id="add-member-heading">Add a member</h3>
      <Loaded state={people} what="people">
        {(data) => {
          const candidates = data.filter((p) => !inWorkspace.has(p.id));
          if (candidates.length === 0) {
            return me.instanceAdmin ? (
              <p className="empty">
                Everyone with an account is already a member. <Link to="/settings">Add people in Settings → People</Link>, then add them
                here.
              </p>
            ) : (
              <p className="empty">
                Everyone you share a workspace with is already here. An instance admin can add people who have no workspace with you.
              </p>
            );
          }
          return (
            <form noValidate aria-labelledby="add-member-heading" onSubmit={(e) => void submit(e)} className="inline-form">
              <SelectField
                label="Person"
                value={userId}
                onChange={setUserId}
                aria-invalid={missing || undefined}
                options={[['', 'Choose a person'], ...candidates.map((p) => [p.id, `${p.name} (${p.email})`] as const)]}
              />
              <SelectField
                label="Role"
                value={role}
                onChange={(value) => {
                  setRole(value as WorkspaceRole);
                }}
                options={roles.map((r) => [r, ROLE_NAMES[r]] as const)}
              />
              <button type="submit" disabled={add.busy}>
                {add.busy ? 'Adding…' : 'Add member'}
              </button>
            </form>
          );
        }}
      </Loaded>
      <ErrorMessage error={missing ? new Error('Choose the person to add.') : add.error} />
      {added ? <Status>{added}</Status> : null}
    </>
  );
}

function Projects({ workspace, clients }: { workspace: Workspace; clients: Client[] }) {
  const admin = isWorkspaceAdmin(workspace.role);
  const clientNames = new Map(clients.map((c) => [c.id, c.name]));
  const projects = useLoad(() => api.projects(workspace.id), [workspace.id]);
  return (
    <section aria-labelledby="projects-heading" className="card">
      <h2 id="projects-heading">Projects</h2>
      <Loaded state={projects} what="projects">
        {(data) =>
          data.length === 0 ? (
            <p className="empty">
              No projects yet.{' '}
              {admin
                ? 'Create one below to group the time logged here, then add the people who work on it.'
                : 'A workspace admin creates them; until then, time is logged without a project.'}
            </p>
          ) : (
            <ul className="list" aria-label="Projects">
              {data.map((p) => (
                <li key={p.id} className="item title-row">
                  <p>
                    <Link to={`/workspaces/${workspace.id}/projects/${p.id}`}>{p.name}</Link>
                    {p.clientId && clientNames.has(p.clientId) ? <span className="muted"> for {clientNames.get(p.clientId)}</span> : null}
                  </p>
                  <p className="tags">
                    {p.billableByDefault ? <span className="tag">Billable by default</span> : null}
                    {p.isMember ? <span className="tag">You are on it</span> : null}
                  </p>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      {admin ? <CreateProject workspace={workspace} /> : null}
    </section>
  );
}

function CreateProject({ workspace }: { workspace: Workspace }) {
  const [name, setName] = useState('');
  const [missing, setMissing] = useState(false);
  const create = useAction(() => api.createProject(workspace.id, name.trim()));
  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    setMissing(name.trim() === '');
    if (name.trim() === '') return;
    const project = await create.run();
    if (project) navigate(`/workspaces/${workspace.id}/projects/${project.id}`);
  };
  return (
    <>
      <h3 id="new-project-heading">Create a project</h3>
      <form noValidate aria-labelledby="new-project-heading" onSubmit={(e) => void submit(e)} className="inline-form">
        <InputField label="Project name" maxLength={100} value={name} onChange={setName} aria-invalid={missing || undefined} />
        <button type="submit" disabled={create.busy}>
          {create.busy ? 'Creating…' : 'Create project'}
        </button>
      </form>
      <ErrorMessage error={missing ? new Error('Give the project a name.') : create.error} />
    </>
  );
}
