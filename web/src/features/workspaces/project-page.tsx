/**
 * One project: its client and billable default, its members (workspace members who log time on
 * it and read its entries), and for workspace admins its rates.
 */
import { useState, type SyntheticEvent } from 'react';
import { api, type Member, type ProjectMember, type Workspace } from '../../lib/api.js';
import { useSession, useTitle } from '../../lib/session.js';
import { Link } from '../../lib/router.js';
import { ConfirmDelete, ErrorMessage, Loaded, SelectField, Status, useAction, useLoad } from '../../components/ui/ui.js';
import { isWorkspaceAdmin } from './roles.js';
import { ProjectBilling, ProjectRates } from './project-billing.js';

export function ProjectPage({ workspaceId, projectId }: { workspaceId: string; projectId: string }) {
  const loaded = useLoad(async () => {
    const [workspace, projects, members, clients] = await Promise.all([
      api.workspace(workspaceId),
      api.projects(workspaceId),
      api.members(workspaceId),
      api.clients(workspaceId),
    ]);
    return { workspace, project: projects.find((p) => p.id === projectId) ?? null, members, clients };
  }, [workspaceId, projectId]);
  const projectMembers = useLoad(() => api.projectMembers(projectId), [projectId]);
  useTitle(loaded.data?.project?.name ?? 'Project');
  return (
    <>
      <p>
        <Link to={`/workspaces/${workspaceId}`}>← {loaded.data?.workspace.name ?? 'Workspace'}</Link>
      </p>
      <Loaded state={loaded} what="the project">
        {(data) =>
          data.project ? (
            <>
              <h1>{data.project.name}</h1>
              <p className="meta">A project of {data.workspace.name}</p>
              <ProjectBilling
                workspace={data.workspace}
                project={data.project}
                clients={data.clients}
                onSaved={(project) => {
                  loaded.set({ ...data, project });
                }}
              />
              <ProjectMembers
                workspace={data.workspace}
                projectId={data.project.id}
                workspaceMembers={data.members}
                members={projectMembers}
              />
              {isWorkspaceAdmin(data.workspace.role) && projectMembers.data ? (
                <ProjectRates
                  workspace={data.workspace}
                  projectId={data.project.id}
                  projectMembers={projectMembers.data}
                  workspaceMembers={data.members}
                />
              ) : null}
            </>
          ) : (
            <>
              <h1>Not found</h1>
              <p>
                There is no such project in {data.workspace.name}. <Link to={`/workspaces/${data.workspace.id}`}>See its projects</Link>.
              </p>
            </>
          )
        }
      </Loaded>
    </>
  );
}

function ProjectMembers({
  workspace,
  projectId,
  workspaceMembers,
  members,
}: {
  workspace: Workspace;
  projectId: string;
  workspaceMembers: Member[];
  /** The project's members, loaded by the page (the rates offer them too). */
  members: ReturnType<typeof useLoad<ProjectMember[]>>;
}) {
  const { me } = useSession();
  const admin = isWorkspaceAdmin(workspace.role);
  return (
    <section aria-labelledby="project-members-heading" className="card">
      <h2 id="project-members-heading">Members</h2>
      <p className="hint">Project members log time on it and read everyone's entries on it. Workspace admins see every project.</p>
      <Loaded state={members} what="project members">
        {(data) => (
          <>
            {data.length === 0 ? (
              <p className="empty">
                Nobody is on this project yet.{' '}
                {admin ? 'Add the people who work on it below.' : 'A workspace admin adds the people who work on it.'}
              </p>
            ) : (
              <ul className="list" aria-label="Project members">
                {data.map((m) => (
                  <ProjectMemberRow
                    key={m.userId}
                    projectId={projectId}
                    member={m}
                    self={m.userId === me.id}
                    admin={admin}
                    onRemoved={() => {
                      members.set(data.filter((x) => x.userId !== m.userId));
                    }}
                  />
                ))}
              </ul>
            )}
            {admin ? (
              <AddProjectMember
                workspace={workspace}
                projectId={projectId}
                workspaceMembers={workspaceMembers}
                current={data}
                onAdded={members.reload}
              />
            ) : null}
          </>
        )}
      </Loaded>
    </section>
  );
}

function ProjectMemberRow({
  projectId,
  member,
  self,
  admin,
  onRemoved,
}: {
  projectId: string;
  member: ProjectMember;
  self: boolean;
  admin: boolean;
  onRemoved: () => void;
}) {
  const remove = useAction(async () => {
    await api.removeProjectMember(projectId, member.userId);
    return true;
  });
  return (
    <li className="item">
      <div className="title-row">
        <p>{self ? `${member.name} (you)` : member.name}</p>
        {admin ? (
          <div className="row">
            <ConfirmDelete
              busy={remove.busy}
              busyLabel="Removing…"
              label={
                <>
                  Remove<span className="sr-only"> {member.name} from the project</span>
                </>
              }
              confirmLabel={`Really remove ${member.name}`}
              onConfirm={() =>
                void remove.run().then((done) => {
                  if (done) onRemoved();
                })
              }
            />
          </div>
        ) : null}
      </div>
      <ErrorMessage error={remove.error} />
    </li>
  );
}

function AddProjectMember({
  workspace,
  projectId,
  workspaceMembers,
  current,
  onAdded,
}: {
  workspace: Workspace;
  projectId: string;
  workspaceMembers: Member[];
  current: ProjectMember[];
  onAdded: () => void;
}) {
  const [userId, setUserId] = useState('');
  const [missing, setMissing] = useState(false);
  const [added, setAdded] = useState('');
  const add = useAction(async () => {
    await api.addProjectMember(projectId, userId);
    return true;
  });
  const onProject = new Set(current.map((m) => m.userId));
  const candidates = workspaceMembers.filter((m) => !onProject.has(m.userId));
  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    setAdded('');
    setMissing(userId === '');
    if (userId === '') return;
    if (await add.run()) {
      setAdded(`${workspaceMembers.find((m) => m.userId === userId)?.name ?? 'They'} joined the project.`);
      setUserId('');
      onAdded();
    }
  };
  return (
    <>
      <h3 id="add-project-member-heading">Add a member</h3>
      {candidates.length === 0 ? (
        <p className="empty">
          Everyone in {workspace.name} is on this project. To add someone else,{' '}
          <Link to={`/workspaces/${workspace.id}`}>add them to the workspace first</Link>.
        </p>
      ) : (
        <form noValidate aria-labelledby="add-project-member-heading" onSubmit={(e) => void submit(e)} className="inline-form">
          <SelectField
            label="Person"
            value={userId}
            onChange={setUserId}
            aria-invalid={missing || undefined}
            options={[['', 'Choose a workspace member'], ...candidates.map((m) => [m.userId, `${m.name} (${m.email})`] as const)]}
          />
          <button type="submit" disabled={add.busy}>
            {add.busy ? 'Adding…' : 'Add to project'}
          </button>
        </form>
      )}
      <ErrorMessage error={missing ? new Error('Choose the person to add.') : add.error} />
      {added ? <Status>{added}</Status> : null}
    </>
  );
}
